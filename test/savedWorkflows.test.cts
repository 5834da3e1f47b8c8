/**
 * Workflows saved with an earlier version keep working: each fixture in test/savedWorkflows/ (one
 * node a file: every operation as a node added fresh from the panel and filled in, every node of
 * every example workflow, the examples' triggers and one with every event, with the static data n8n
 * saved) is run as n8n runs what it loads, and must send the same requests and give the same
 * output. test/helpers/savedWorkflows.cts says how they are recorded.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { NodeHelpers, type IDataObject, type INode, type INodeParameters } from 'n8n-workflow';
import { SubscriptionBillingTrigger } from '../nodes/SubscriptionBilling/SubscriptionBillingTrigger.node';
import { EVENT_DEFINITIONS } from '../nodes/SubscriptionBilling/trigger/events/catalog';
import { resources } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import type { Sandbox } from './helpers/billing.cjs';
import {
	fixtureFile,
	readFixtures,
	recordFixture,
	onFixtureClock,
	asSaved,
	runSavedAction,
	type SavedAction,
	type SavedTrigger,
} from './helpers/savedWorkflows.cjs';
import { activeTrigger, triggerOfNewProcess } from './helpers/trigger.cjs';
import { shutdownN8nCore } from './harness/index.cjs';

const { Sandbox: SandboxClass } = require('./sandbox/index.cjs') as {
	Sandbox: new (options?: IDataObject) => Sandbox & { listen(): Promise<Sandbox> };
};

const EXAMPLES = path.join(__dirname, '..', 'examples');
const ACTION_TYPES = [
	'n8n-nodes-subscription-billing.subscriptionBilling',
	'n8n-nodes-subscription-billing.subscriptionBillingTool',
];
const TRIGGER_TYPE = 'n8n-nodes-subscription-billing.subscriptionBillingTrigger';

/** One listening sandbox per seed, reset before each run. */
const sandboxes = new Map<string, Promise<Sandbox>>();
function sandboxFor(seed: IDataObject | undefined): Promise<Sandbox> {
	const key = JSON.stringify(seed ?? {});
	if (!sandboxes.has(key)) sandboxes.set(key, new SandboxClass(seed ? { seed } : {}).listen());
	return sandboxes.get(key)!;
}
afterAll(async () => {
	await Promise.all([...sandboxes.values()].map(async (sandbox) => (await sandbox).close()));
	shutdownN8nCore();
});

/** An action node run once as saved, on a sandbox of its seed. */
async function runAction(
	node: SavedAction['node'],
	items: IDataObject[],
	seed?: IDataObject,
): Promise<Pick<SavedAction, 'requests' | 'output'>> {
	return runSavedAction(await sandboxFor(seed), node, items);
}

/** A test for each saved action node of `kind`: the same requests and output as when it was saved. */
function replayed(kind: 'operations' | 'examples'): void {
	test.each(readFixtures<SavedAction>(kind))('%s', async (_name, fixture) => {
		expect(await runAction(fixture.node, fixture.items, fixture.seed)).toEqual({
			requests: fixture.requests,
			output: fixture.output,
		});
	});
}

type World = Record<string, (input: IDataObject) => IDataObject>;

/**
 * A trigger published (or its static data as n8n saved then), the world changed by `change`, then
 * n8n restarted with this version: what it emits. The changes are returned as made, with the IDs
 * they used, so that a fixture makes them again as they were.
 */
async function runTrigger(
	fixture: Pick<SavedTrigger, 'node' | 'seed'>,
	change: (world: World) => void,
	staticData?: IDataObject,
): Promise<Pick<SavedTrigger, 'staticData' | 'changes' | 'emitted'>> {
	const sandbox = await sandboxFor(fixture.seed);
	sandbox.reset();
	const { parameters, name } = fixture.node;
	return await onFixtureClock(async () => {
		let saved = staticData;
		if (!saved) {
			const published = activeTrigger(sandbox, parameters, undefined, { nodeName: name });
			const { error } = await published.activate('activate');
			expect(error).toBeUndefined();
			saved = published.saved;
		}
		const changes: SavedTrigger['changes'] = [];
		const world = sandbox.world as unknown as World;
		change(
			new Proxy(world, {
				get: (target, action: string) => (input: IDataObject) => {
					changes.push({ action, input });
					return target[action](input);
				},
			}),
		);
		const restarted = activeTrigger(sandbox, parameters, saved, {
			nodeName: name,
			nodeType: triggerOfNewProcess(),
		});
		const emitted: IDataObject[] = [];
		for (const poll of [() => restarted.activate('init'), () => restarted.poll()]) {
			const { items, error } = await poll();
			expect(error).toBeUndefined();
			emitted.push(...(items ?? []));
		}
		return { staticData: saved, changes, emitted: asSaved(emitted, sandbox) };
	});
}

/** The changes a saved fixture recorded, made again. */
const madeAgain =
	(changes: SavedTrigger['changes']) =>
	(world: World): void => {
		for (const { action, input } of changes) world[action](input);
	};

describe('every operation, as a node added fresh from the panel and filled in', () => {
	replayed('operations');

	test('each operation has its saved node', () => {
		const saved = new Set(readFixtures('operations').map(([name]) => name));
		const operations = resources.flatMap((resource) =>
			resource.operations.map((operation) => `${resource.value}.${operation.value}`),
		);
		expect(operations.filter((operation) => !saved.has(operation))).toEqual([]);
	});
});

/**
 * What each example's node is given when its fixture is recorded: the Set node before it, or what
 * its trigger, the workflow calling it or the model (a tool's `$fromAI` arguments) passes on.
 */
function exampleInputs(fixtures: Record<string, string>): Record<string, IDataObject[]> {
	return {
		'billing-assistant-mcp › Find customers': [{ customer_name: 'acme' }],
		'billing-assistant-mcp › Get subscription': [{ subscription_id: fixtures.subscriptionId }],
		'billing-assistant-mcp › Record usage': [
			{
				transaction_id: 'api-calls-2026-09-14-acme',
				subscription_id: fixtures.subscriptionId,
				api_calls: 1200,
			},
		],
		'billing-assistant-mcp › Get sign URL': [{ subscription_id: fixtures.openOrderSubscriptionId }],
		"billing-assistant-mcp › The customer's invoices": [{ customer_id: fixtures.customerId }],
		'invoice-payment-failed-dunning › Subscription Details': [
			{ subscription_id: fixtures.subscriptionId },
		],
		'subscription-ending-soon › Subscription Details': [
			{ subscription: { subscription_id: fixtures.noPhasesSubscriptionId } },
		],
	};
}

/** What a Set node (v3.4, fields set by hand) outputs: its one item. */
function setNodeItem(parameters: INodeParameters): IDataObject {
	const { assignments } = parameters.assignments as { assignments: IDataObject[] };
	return Object.fromEntries(assignments.map(({ name, value }) => [String(name), value]));
}

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
}

function exampleNodes(): Array<{ stem: string; node: ExampleNode; before?: ExampleNode }> {
	return readdirSync(EXAMPLES)
		.filter((file) => file.endsWith('.json'))
		.flatMap((file) => {
			const workflow = JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as {
				nodes: ExampleNode[];
				connections: Record<string, { main?: Array<Array<{ node: string }>> }>;
			};
			const before = (name: string) => {
				const from = Object.entries(workflow.connections).find(([, outputs]) =>
					outputs.main?.some((targets) => targets.some((target) => target.node === name)),
				)?.[0];
				return workflow.nodes.find((node) => node.name === from);
			};
			return workflow.nodes
				.filter((node) => [...ACTION_TYPES, TRIGGER_TYPE].includes(node.type))
				.map((node) => ({ stem: file.slice(0, -'.json'.length), node, before: before(node.name) }));
		});
}

/** What changes after each example's trigger is published: one of each event it waits for. */
function triggerChanges(fixtures: Record<string, string>): Record<string, (world: World) => void> {
	return {
		'invoice-paid-message': (world) => world.payInvoice({ invoice_id: fixtures.openInvoiceId }),
		'invoice-payment-failed-dunning': (world) =>
			world.failPayment({ invoice_id: fixtures.openInvoiceId }),
		'subscription-ending-soon': (world) =>
			world.updateSubscription({
				subscription_id: fixtures.noPhasesSubscriptionId,
				ends_in_days: 12,
			}),
	};
}

describe('every node of every example workflow', () => {
	const nodes = exampleNodes();

	beforeAll(async () => {
		const sandbox = await sandboxFor(undefined);
		const fixtures = { ...sandbox.fixtures, openInvoiceId: openInvoiceOf(sandbox) };
		const inputs = exampleInputs(fixtures);
		const changes = triggerChanges(fixtures);
		for (const { stem, node, before } of nodes) {
			const file = fixtureFile(
				node.type === TRIGGER_TYPE ? 'triggers' : 'examples',
				`${stem}.${node.name}`,
			);
			const from = `examples/${stem}.json`;
			if (node.type === TRIGGER_TYPE) {
				await recordFixture(file, async () => ({
					from,
					node,
					...(await runTrigger({ node }, changes[stem])),
				}));
				continue;
			}
			const items =
				inputs[`${stem} › ${node.name}`] ??
				(before?.type === 'n8n-nodes-base.set' ? [setNodeItem(before.parameters)] : [{}]);
			await recordFixture(file, async () => ({
				from,
				node,
				items,
				...(await runAction(node, items)),
			}));
		}
	});

	replayed('examples');

	test('each node of each example has its saved copy', () => {
		const saved = new Set([
			...readFixtures('examples').map(([name]) => name),
			...readFixtures('triggers').map(([name]) => name),
		]);
		const missing = nodes
			.map(({ stem, node }) => `${stem}.${node.name}`)
			.filter((name) => !saved.has(name));
		expect(missing).toEqual([]);
	});
});

/** The trigger added fresh from the panel with every event chosen, as the editor stores it. */
function everyEventTrigger(): SavedTrigger['node'] {
	const { description } = new SubscriptionBillingTrigger();
	const parameters = NodeHelpers.getNodeParameters(
		description.properties,
		{ events: EVENT_DEFINITIONS.map((event) => event.value) },
		true,
		false,
		{ typeVersion: 1 } as INode,
		description,
	)!;
	return { name: 'Subscription Billing Trigger', type: TRIGGER_TYPE, typeVersion: 1, parameters };
}

/** One of each event after the every-event trigger is published. */
function everyEvent(fixtures: Record<string, string>) {
	return (world: World): void => {
		const subscribed = world.createCustomer({ name: 'Saved Subscribed' });
		const standalone = world.createCustomer({ name: 'Saved Standalone' });
		world.createSubscription({ customer_id: String(subscribed.customer_id) });
		world.updateCustomer({ customer_id: fixtures.bigCustomerId, tax_id: 'GB999999973' });
		world.pauseSubscription({ subscription_id: fixtures.subscriptionId });
		world.resumeSubscription({ subscription_id: fixtures.pausedSubscriptionId });
		world.updateSubscription({
			subscription_id: fixtures.noPhasesSubscriptionId,
			ends_in_days: 10,
			renews_in_days: 9,
		});
		const failed = world.issueInvoice({ customer_id: fixtures.bigCustomerId, amount: 30 });
		world.failPayment({ invoice_id: String(failed.invoice_id) });
		const paid = world.issueInvoice({ customer_id: String(standalone.customer_id), amount: 20 });
		world.payInvoice({ invoice_id: String(paid.invoice_id) });
		const overdue = world.issueInvoice({ customer_id: fixtures.customerId, amount: 10 });
		world.passDueDate({ invoice_id: String(overdue.invoice_id) });
	};
}

describe('every trigger, with the static data n8n saved when it was published', () => {
	beforeAll(async () => {
		const node = everyEventTrigger();
		const sandbox = await sandboxFor(undefined);
		const file = fixtureFile('triggers', `every-event.${node.name}`);
		await recordFixture(file, async () => ({
			from: 'the trigger added fresh from the panel, every event chosen',
			node,
			...(await runTrigger({ node }, everyEvent(sandbox.fixtures))),
		}));
	});

	test.each(readFixtures<SavedTrigger>('triggers'))('%s', async (_name, fixture) => {
		const { emitted } = await runTrigger(fixture, madeAgain(fixture.changes), fixture.staticData);
		expect(emitted).toEqual(fixture.emitted);
	});
});

/** The newest open invoice of Acme, the seeded customer. */
function openInvoiceOf(sandbox: Sandbox): string {
	const invoices = (sandbox.state.invoicesByCustomer as Map<string, IDataObject[]>).get(
		sandbox.fixtures.customerId,
	)!;
	const open = invoices.filter(
		(invoice) => invoice.status === 'OPEN' || invoice.status === 'PAST_DUE',
	);
	return String(open.at(-1)?.invoice_id);
}
