/**
 * The parts of n8n's verification guidelines (docs/verification.md) and of n8n 3.0's changes
 * (docs/compatibility.md) that the package's files and node descriptions show by themselves.
 * The rest is checked by n8n's own tools: `n8n-node lint`, `n8n-node cloud-support`,
 * `@n8n/scan-community-package` (npm run lint, npm run cloud-support, npm run scan).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { SubscriptionBillingApi } from '../credentials/SubscriptionBillingApi.credentials';
import { SubscriptionBilling } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { SubscriptionBillingTrigger } from '../nodes/SubscriptionBilling/SubscriptionBillingTrigger.node';

const root = path.resolve(__dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const pkg = JSON.parse(read('package.json'));
const action = new SubscriptionBilling().description;
const trigger = new SubscriptionBillingTrigger().description;
const credential = new SubscriptionBillingApi();

test('package source: an MIT package named n8n-nodes-…, keyword n8n-community-node-package, from a public GitHub repository', () => {
	expect(pkg.name).toMatch(/^n8n-nodes-/);
	expect(pkg.license).toBe('MIT');
	expect(read('LICENSE')).toMatch(/^MIT License/);
	expect(pkg.keywords).toContain('n8n-community-node-package');
	const repository = pkg.repository.url.match(/github\.com\/([^/]+\/[^/.]+)/)?.[1];
	expect(repository).toBeDefined();
	expect(pkg.homepage).toContain(`github.com/${repository}`);
	expect(pkg.author.name).toBeTruthy();
});

test('no runtime dependencies: n8n-workflow only as a peer, nothing bundled, only dist/ published', () => {
	for (const key of [
		'dependencies',
		'optionalDependencies',
		'bundleDependencies',
		'bundledDependencies',
	])
		expect(pkg[key]).toBeUndefined();
	expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	expect(pkg.files).toEqual(['dist']);
});

test("n8n-node's strict mode: strict in the n8n section and the tool's eslint.config.mjs, unchanged", () => {
	expect(pkg.n8n.strict).toBe(true);
	const template = read(
		'node_modules/@n8n/node-cli/dist/template/templates/shared/default/eslint.config.mjs',
	);
	const normalized = (text: string) => text.replace(/\s+/g, ' ').trim();
	expect(normalized(read('eslint.config.mjs'))).toBe(normalized(template));
});

test('releases only with provenance: publishConfig asks for it, and prepublishOnly is n8n-node prerelease', () => {
	expect(pkg.publishConfig).toEqual({ provenance: true });
	expect(pkg.scripts.prepublishOnly).toBe('n8n-node prerelease');
	expect(pkg.scripts.release).toBe('n8n-node release');
	expect(read('.github/workflows/publish.yml')).toMatch(
		/id-token: write[\s\S]*run: npm run release/,
	);
});

describe('node descriptions', () => {
	test.each([
		['Subscription Billing', action],
		['Subscription Billing Trigger', trigger],
	])(
		'%s: no defaults.color (removed in n8n 3.0), light and dark file icons, a description in sentence case',
		(name, description: INodeTypeDescription) => {
			expect(description.displayName).toBe(name);
			expect(description.defaults).toEqual({ name });
			expect(description.icon).toEqual({
				light: expect.stringMatching(/^file:.*\.svg$/),
				dark: expect.stringMatching(/^file:.*\.dark\.svg$/),
			});
			expect(description.description).toMatch(/^[A-Z][^A-Z]/);
		},
	);

	test('the action node is usable as a tool; the trigger is a polling trigger and is not', () => {
		expect(action.usableAsTool).toBe(true);
		expect(trigger.usableAsTool).toBeUndefined();
		expect(trigger.polling).toBe(true);
		expect(trigger.group).toEqual(['trigger']);
	});

	test("the trigger's description is the pair's: n8n's nodes panel merges the trigger into the action node's entry and shows the trigger's description above both nodes' actions", () => {
		expect(trigger.name.replace('Trigger', '')).toBe(action.name);
		expect(trigger.description).toBe(`${action.description}, and start workflows when they change`);
	});

	test("docs links: the panel's Docs link is the node's documentationUrl, shown as it is; the codex links get n8n's tracking query appended, so they carry no #anchor; Report Issue is package.json's bugs", () => {
		const repository = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
		expect(action.documentationUrl).toBe(`${repository}#operations`);
		expect(trigger.documentationUrl).toBe(`${repository}#trigger-subscription-billing-trigger`);
		for (const file of ['SubscriptionBilling.node.json', 'SubscriptionBillingTrigger.node.json']) {
			const { resources } = JSON.parse(read(`nodes/SubscriptionBilling/${file}`)) as {
				resources: Record<string, Array<{ url: string }>>;
			};
			for (const { url } of Object.values(resources).flat())
				expect(url).toMatch(new RegExp(`^${repository}/blob/main/[\\w/.]+\\.md$`));
		}
		expect(pkg.bugs).toEqual({ url: `${repository}/issues` });
	});
});

describe("the credential, against n8n's UX guidelines", () => {
	const property = (name: string) =>
		credential.properties.find((p) => p.name === name) as INodeProperties;

	test('the API key is a password field', () => {
		expect(property('apiKey').typeOptions?.password).toBe(true);
	});

	test('placeholders start with "e.g."; every field but the notices has a description', () => {
		for (const p of credential.properties) {
			if (p.placeholder !== undefined) expect(p.placeholder).toMatch(/^e\.g\. /);
			if (p.type !== 'notice') expect(p.description).toMatch(/^[A-Z]/);
		}
	});
});
