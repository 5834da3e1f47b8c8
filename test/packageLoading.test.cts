import { existsSync } from 'node:fs';
import path from 'node:path';
import { PackageDirectoryLoader } from 'n8n-core';
import type { INodeType } from 'n8n-workflow';
import { runBilling, startSandbox } from './helpers/billing.cjs';
import { ensureN8nCoreEnvironment } from './harness/environment.cjs';
import { Poller, runNode, shutdownN8nCore } from './harness/index.cjs';

const packageRoot = path.resolve(__dirname, '..');

afterAll(() => shutdownN8nCore());

test('n8n loads the built package from dist/ as a community package', async () => {
	ensureN8nCoreEnvironment();
	const loader = new PackageDirectoryLoader(packageRoot);
	await loader.loadAll();

	expect(Object.keys(loader.nodeTypes)).toEqual([
		'subscriptionBilling',
		'subscriptionBillingTrigger',
	]);
	expect(Object.keys(loader.credentialTypes)).toEqual(['subscriptionBillingApi']);
	expect(loader.nodeTypes.subscriptionBilling.sourcePath).toMatch(
		/dist\/nodes\/SubscriptionBilling\/SubscriptionBilling\.node\.js$/,
	);

	const description = (loader.nodeTypes.subscriptionBilling.type as INodeType).description;
	expect(description.properties.some((property) => property.name === 'requestOptions')).toBe(true);
	expect(loader.types.credentials[0].name).toBe('subscriptionBillingApi');
	expect(loader.types.nodes.map((node) => node.name)).toContain('subscriptionBilling');

	const iconUrl = description.iconUrl as { light: string; dark: string };
	const credentialIconUrl = loader.types.credentials[0].iconUrl as { light: string; dark: string };
	for (const url of [
		iconUrl.light,
		iconUrl.dark,
		credentialIconUrl.light,
		credentialIconUrl.dark,
	]) {
		const file = url.replace('icons/n8n-nodes-subscription-billing/', '');
		expect({ url, exists: existsSync(path.join(packageRoot, file)) }).toEqual({
			url,
			exists: true,
		});
	}
	expect(description.codex?.categories).toEqual(
		expect.arrayContaining(['Finance & Accounting', 'Sales']),
	);

	const sandbox = await startSandbox();
	try {
		const run = await runNode({
			nodeType: loader.nodeTypes.subscriptionBilling.type,
			credentialType: loader.credentialTypes.subscriptionBillingApi.type,
			credentials: {
				apiKey: sandbox.apiKey,
				environment: 'production',
				productionBaseUrl: `${sandbox.baseUrl}/`,
			},
			parameters: {
				resource: 'subscription',
				operation: 'get',
				subscriptionId: sandbox.fixtures.subscriptionId,
			},
		});
		expect(run.error).toBeUndefined();
		expect(run.items[0].json.subscription_id).toBe(sandbox.fixtures.subscriptionId);
		expect(sandbox.requests[0].path).toBe(
			`/api/v2/subscriptions/${sandbox.fixtures.subscriptionId}`,
		);
	} finally {
		await sandbox.close();
	}
});

test('the trigger from dist/ is a polling node with the same credential, icons and categories, and it polls', async () => {
	ensureN8nCoreEnvironment();
	const loader = new PackageDirectoryLoader(packageRoot);
	await loader.loadAll();
	const trigger = loader.nodeTypes.subscriptionBillingTrigger;
	expect(trigger.sourcePath).toMatch(
		/dist\/nodes\/SubscriptionBilling\/SubscriptionBillingTrigger\.node\.js$/,
	);
	const { description } = trigger.type as INodeType;
	expect(description).toMatchObject({
		displayName: 'Subscription Billing Trigger',
		polling: true,
		group: ['trigger'],
		inputs: [],
	});
	expect(description.credentials).toEqual([
		{ name: 'subscriptionBillingApi', required: true, testedBy: 'subscriptionBillingApiTest' },
	]);
	expect(description.codex?.categories).toEqual(
		expect.arrayContaining(['Finance & Accounting', 'Sales']),
	);
	for (const url of Object.values(description.iconUrl as { light: string; dark: string })) {
		expect(
			existsSync(path.join(packageRoot, url.replace('icons/n8n-nodes-subscription-billing/', ''))),
		).toBe(true);
	}

	const sandbox = await startSandbox();
	try {
		const poller = new Poller({
			nodeType: trigger.type as INodeType,
			credentialType: loader.credentialTypes.subscriptionBillingApi.type,
			credentials: {
				apiKey: sandbox.apiKey,
				environment: 'production',
				productionBaseUrl: sandbox.baseUrl,
			},
			parameters: { events: ['newCustomer'] },
		});
		expect(await poller.poll()).toMatchObject({ items: null, error: undefined });
		sandbox.world.createCustomer({ name: 'Loaded From Dist' });
		expect((await poller.poll()).items).toEqual([
			expect.objectContaining({
				event: 'newCustomer',
				customer: expect.objectContaining({ name: 'Loaded From Dist' }),
			}),
		]);
	} finally {
		await sandbox.close();
	}
});

test('the staging environment uses the staging base URL', async () => {
	const sandbox = await startSandbox();
	try {
		const run = await runBilling(
			sandbox,
			{ resource: 'plan', operation: 'get', planId: sandbox.fixtures.planId },
			{
				baseUrl: 'https://production.invalid/api/v2',
				credential: { environment: 'staging', stagingBaseUrl: sandbox.baseUrl },
			},
		);
		expect(run.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expect(run.items[0].json.plan_id).toBe(sandbox.fixtures.planId);
	} finally {
		await sandbox.close();
	}
});
