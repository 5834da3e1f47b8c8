/**
 * Hints for n8n's AI Workflow Builder (`builderHint`): on both nodes, on the operations a builder
 * most often gets wrong, and on every ID field, leading it to map IDs from earlier nodes. Checked
 * here as the package describes them, and against n8n 2.41.1's own node catalog (what its builder
 * reads) where that release is installed. Releases before 2.9 have no such field and ignore it (the
 * end-to-end suites load the package on 2.8.4).
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { extractFromAICalls, type INodeProperties, type INodeTypeDescription } from 'n8n-workflow';
import {
	resources,
	SubscriptionBilling,
} from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { SubscriptionBillingTrigger } from '../nodes/SubscriptionBilling/SubscriptionBillingTrigger.node';

const PACKAGE = 'n8n-nodes-subscription-billing';
const action = new SubscriptionBilling().description;
const trigger = new SubscriptionBillingTrigger().description;
const typeOf = (description: INodeTypeDescription) => `${PACKAGE}.${description.name}`;

function propertiesOf(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => [
		property,
		...propertiesOf(
			(property.options ?? []).filter((option): option is INodeProperties => 'type' in option),
		),
	]);
}

/** Every builderHint text of a description: node, options and parameters. */
function hintTexts(description: INodeTypeDescription): string[] {
	const texts = [
		description.builderHint?.searchHint ?? '',
		...(description.builderHint?.relatedNodes ?? []).map((related) => related.relationHint),
	];
	for (const property of propertiesOf(description.properties)) {
		if (property.builderHint) texts.push(property.builderHint.propertyHint);
		for (const option of property.options ?? [])
			if ('builderHint' in option && option.builderHint)
				texts.push(option.builderHint.propertyHint);
	}
	return texts.filter(Boolean);
}

test.each([
	['action node', action, trigger],
	['trigger', trigger, action],
])(
	'the %s says what it is for and names the other node of the package as related',
	(_name, description, other) => {
		expect(description.builderHint?.searchHint?.length).toBeGreaterThan(80);
		expect(description.builderHint?.relatedNodes?.map((related) => related.nodeType)).toEqual([
			typeOf(other),
		]);
	},
);

test('every ID picker tells the builder to map the ID from an earlier node', () => {
	const locators = propertiesOf(action.properties).filter(
		(property) => property.type === 'resourceLocator',
	);
	expect(locators.length).toBeGreaterThanOrEqual(8);
	for (const locator of locators) {
		expect([locator.name, locator.builderHint?.propertyHint]).toEqual([
			locator.name,
			expect.stringMatching(
				new RegExp(`mapped from an earlier node in mode id: the ${locator.displayName} ID`),
			),
		]);
	}
});

test('every ID picker shows the builder the described $fromAI an AI tool takes it by, one n8n parses', () => {
	const locators = propertiesOf(action.properties).filter(
		(property) => property.type === 'resourceLocator',
	);
	for (const locator of locators) {
		const call =
			/\$fromAI\(.*?, 'string'\)/.exec(locator.builderHint?.propertyHint ?? '')?.[0] ?? '';
		const [parsed] = extractFromAICalls(call);
		const field = `${locator.name.replace(/Id$/, '').replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}_id`;
		expect([locator.name, parsed]).toEqual([
			locator.name,
			{
				key: field,
				description: expect.stringMatching(new RegExp(`^The .+'s ID \\(${field}\\) from .+ → `)),
				type: 'string',
			},
		]);
	}
});

test('the operations a builder most often gets wrong have hints', () => {
	const hinted = resources.flatMap((resource) =>
		resource.operations
			.filter((operation) => operation.builderHint)
			.map((operation) => `${resource.value}.${operation.value}`),
	);
	expect(hinted.sort()).toEqual([
		'customer.get',
		'customer.search',
		'customer.upsert',
		'usage.create',
	]);
});

test("no hint holds n8n's wire format (={{ … }} or a connection type's name), which its builder must not copy", () => {
	for (const text of [...hintTexts(action), ...hintTexts(trigger)]) {
		expect(text).not.toMatch(/={{/);
		expect(text).not.toMatch(/\bai_[a-zA-Z]+\b/);
	}
});

// ---- what n8n 2.41.1's AI Workflow Builder reads, from its own code, where it is installed ----------
const { LOCAL: n8nInstalls } = require('../scripts/n8n-local') as { LOCAL: string };
const newest = path.join(n8nInstalls, 'n8n-2.41.1', 'node_modules');
const installed = existsSync(path.join(newest, 'n8n', 'package.json'));
// CI runs this file again once the release is installed, with N8N_RELEASES_INSTALLED=1, where a missing one fails.
if (!installed && process.env.N8N_RELEASES_INSTALLED === '1')
	throw new Error(`n8n 2.41.1 is not installed in ${n8nInstalls}`);
const testWhereN8nIsInstalled = installed ? test : test.skip;

testWhereN8nIsInstalled(
	"n8n 2.41.1's node catalog shows the node's hint, its related trigger and the operations' hints",
	() => {
		const catalog = require(
			path.join(newest, '@n8n/ai-utilities/dist/cjs/node-catalog/index.js'),
		) as {
			NodeTypeParser: new (nodes: INodeTypeDescription[]) => {
				searchNodeTypes(query: string, limit: number): Array<{ id: string }>;
			};
			formatNodeResult(parser: unknown, nodeId: string): string;
		};
		const parser = new catalog.NodeTypeParser(
			[action, trigger].map((description) => ({ ...description, name: typeOf(description) })),
		);
		expect(parser.searchNodeTypes('billing invoice', 5).map((result) => result.id)).toEqual(
			expect.arrayContaining([typeOf(action), typeOf(trigger)]),
		);
		const shown = catalog.formatNodeResult(parser, typeOf(action));
		expect(shown).toContain(`@builderHint ${action.builderHint?.searchHint}`);
		expect(shown).toContain(
			`- ${typeOf(trigger)}: "${action.builderHint?.relatedNodes?.[0].relationHint}"`,
		);
		const upsert = resources
			.find((resource) => resource.value === 'customer')
			?.operations.find((operation) => operation.value === 'upsert');
		expect(shown).toMatch(
			new RegExp(
				`- upsert\\n.*\\n\\s+@builderHint ${upsert?.builderHint?.propertyHint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
			),
		);
		expect(catalog.formatNodeResult(parser, typeOf(trigger))).toContain(
			`@builderHint ${trigger.builderHint?.searchHint}`,
		);
	},
);

testWhereN8nIsInstalled("n8n 2.41.1's workflow SDK types carry an ID field's hint", () => {
	const sdk = require(
		path.join(newest, '@n8n/workflow-sdk/dist/generate-types/generate-types.js'),
	) as { generatePropertyJSDoc(property: INodeProperties): string };
	const subscription = propertiesOf(action.properties).find(
		(property) => property.name === 'subscriptionId',
	) as INodeProperties;
	expect(sdk.generatePropertyJSDoc(subscription)).toContain(
		`@builderHint ${subscription.builderHint?.propertyHint}`,
	);
});
