/**
 * What the node relies on in n8n's declarative engine beyond n8n-workflow's interfaces
 * (nodes/SubscriptionBilling/execute/n8nRoutingInsides.ts), each checked in n8n's own RoutingNode:
 * the node's real properties run through n8n-core's RoutingNode over three items, its request
 * step (the routing's pagination function) replaced by a probe that uses each reliance and records
 * what it gives. Run against the dev dependency, and against each release's own n8n-core where it
 * is installed (scripts/n8n-local.js): skipped where it is not, except with
 * N8N_RELEASES_INSTALLED=1 (CI, .ci/run), where a missing release fails.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
} from 'n8n-workflow';
import { SubscriptionBilling } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import {
	itemContext,
	keepWithRequest,
	requestComposer,
	runIndexOf,
	runOf,
	runSize,
	takeFromRequest,
} from '../nodes/SubscriptionBilling/execute/n8nRoutingInsides';
import { editedParameters } from './helpers/editorParameters.cjs';

const { LOCAL: n8nInstalls } = require('../scripts/n8n-local') as { LOCAL: string };

const description = new SubscriptionBilling().description;
const RUN_INDEX = 1;
const UUIDS = [
	'0b6f7c1e-1d2a-4c3b-8e4f-5a6b7c8d9e00',
	'1b6f7c1e-1d2a-4c3b-8e4f-5a6b7c8d9e01',
	'2b6f7c1e-1d2a-4c3b-8e4f-5a6b7c8d9e02',
];
const ITEMS: IDataObject[] = [0, 1, 2].map((index) => ({
	name: `Customer ${index}`,
	ext: `crm-${index}`,
	city: index === 1 ? '' : `City ${index}`,
	id: UUIDS[index],
	value: index + 1,
}));
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** Operations whose fields the node maps per item, and whether the adapter composes their requests. */
const CASES: Array<{ label: string; changes: INodeParameters; composes: boolean }> = [
	{
		label: 'Customer → Create: nested and optional fields (collections, dotted fields)',
		changes: {
			resource: 'customer',
			operation: 'create',
			name: '={{ $json.name }}',
			additionalFields: {
				externalId: '={{ $json.ext }}',
				address: { city: '={{ $json.city }}', country: 'NO' },
			},
		},
		composes: true,
	},
	{
		label: 'Usage → Create: IDs picked by resource locators, numbers',
		changes: {
			resource: 'usage',
			operation: 'create',
			transactionId: '={{ "txn-" + $itemIndex }}',
			subscriptionId: byId('={{ $json.id }}'),
			brickId: byId(UUIDS[0]),
			value: '={{ $json.value }}',
			time: '2026-09-10T10:00:00Z',
		},
		composes: true,
	},
	{
		label: 'Plan → Get Many: a query parameter',
		changes: {
			resource: 'plan',
			operation: 'getMany',
			ordering: '={{ $itemIndex ? "name" : "-name" }}',
		},
		composes: true,
	},
	{
		label: 'Upgrade → Start: Charge Immediately, a value n8n computes',
		changes: {
			resource: 'subscriptionUpgrade',
			operation: 'start',
			subscriptionId: byId(UUIDS[0]),
			orderId: byId('={{ $json.id }}'),
			chargeImmediately: true,
		},
		composes: false,
	},
];

/** What the probe saw in one item's request step. */
interface Seen {
	/** The request n8n handed the step (after the probe's preSend). */
	request: IHttpRequestOptions;
	run: object | undefined;
	runIndex: number | undefined;
	kept: unknown;
	/** Item 0 only: each item's context and request as the adapter gives them. */
	ahead?: Array<{
		itemIndex: number | undefined;
		input: unknown;
		request: IHttpRequestOptions | undefined;
	}>;
	composes?: boolean;
}

/** The node's properties with every operation's preSend and request step replaced by the probe's. */
function probedNode(seen: Seen[]): INodeType {
	let first: IHttpRequestOptions | undefined;
	async function preSend(this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		if (this.getItemIndex() === 0) first = JSON.parse(JSON.stringify(options));
		return keepWithRequest(options, { item: this.getItemIndex() });
	}
	async function pagination(
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		const entry: Seen = {
			request: JSON.parse(JSON.stringify(requestData.options)),
			run: runOf(this),
			runIndex: runIndexOf(this),
			kept: takeFromRequest(requestData.options as IHttpRequestOptions),
		};
		if (itemIndex === 0) {
			const compose = requestComposer(this, description.properties, first!);
			entry.composes = compose !== undefined;
			entry.ahead = ITEMS.map((_, index) => {
				const other = itemContext(this, index);
				return {
					itemIndex: other?.getItemIndex(),
					input: other?.getInputData(),
					request: other && compose ? JSON.parse(JSON.stringify(compose(other))) : undefined,
				};
			});
		}
		seen[itemIndex] = entry;
		return [{ json: {} }];
	}
	const properties = description.properties.map((property): INodeProperties => {
		if (property.name !== 'operation') return property;
		return {
			...property,
			options: (property.options ?? []).map((option) => {
				const { routing } = option as { routing?: IDataObject };
				return {
					...option,
					routing: {
						...routing,
						send: { ...(routing?.send as IDataObject), preSend: [preSend] },
						operations: { pagination },
					},
				};
			}),
		} as INodeProperties;
	});
	return { description: { ...description, credentials: undefined, properties } };
}

interface Engine {
	/** n8n-core's RoutingNode, ExecuteContext and InstanceSettings, and n8n-workflow's Workflow, as this install loads them. */
	core: Record<string, any>;
	workflow: Record<string, any>;
	shutdown: () => void;
}

function engineIn(nodeModules: string): Engine {
	const coreDir = path.dirname(require.resolve('n8n-core/package.json', { paths: [nodeModules] }));
	const core = require(coreDir);
	const workflow = require(require.resolve('n8n-workflow', { paths: [coreDir] }));
	const { Container } = require(require.resolve('@n8n/di', { paths: [coreDir] }));
	// the real InstanceSettings reads and writes ~/.n8n
	Container.set(core.InstanceSettings, { instanceId: 'insides-test', n8nFolder: '/nonexistent' });
	const { SSHClientsManager } = require(
		path.join(coreDir, 'dist/execution-engine/ssh-clients-manager'),
	);
	// its 60 s timer, started by every ExecuteContext, is never unref'd before 2.41
	return { core, workflow, shutdown: () => Container.get(SSHClientsManager).onShutdown() };
}

/** Runs the probed node over ITEMS in the engine's RoutingNode, as n8n runs a declarative node. */
async function runProbed(engine: Engine, changes: INodeParameters): Promise<Seen[]> {
	const seen: Seen[] = [];
	const nodeType = probedNode(seen);
	const parameters = editedParameters(
		changes as INodeParameters & { resource: string; operation: string },
	);
	const node = {
		id: 'probe',
		name: 'Probe',
		type: 'probe',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const nodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const workflow = new engine.workflow.Workflow({
		id: 'insides',
		name: 'insides',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		settings: {},
	});
	const items = ITEMS.map((json) => ({ json }));
	const inputData = { main: [items] };
	const executeData = { node: workflow.getNode('Probe'), data: inputData, source: null };
	const runExecutionData = {
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			nodeExecutionStack: [],
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	};
	const context = new engine.core.ExecuteContext(
		workflow,
		workflow.getNode('Probe'),
		{ variables: {} },
		'manual',
		runExecutionData,
		RUN_INDEX,
		items,
		inputData,
		executeData,
		[],
	);
	await new engine.core.RoutingNode(context, nodeType).runNode();
	expect(seen).toHaveLength(ITEMS.length);
	return seen;
}

const ENGINES: Array<{ label: string; nodeModules: string; release?: string }> = [
	{ label: 'the dev dependency', nodeModules: path.join(__dirname, '..', 'node_modules') },
	...['1.123.81', '2.8.4', '2.41.1'].map((release) => ({
		label: `n8n ${release}`,
		nodeModules: path.join(n8nInstalls, `n8n-${release}`, 'node_modules'),
		release,
	})),
];

describe.each(ENGINES)('$label', ({ nodeModules, release }) => {
	const installed = existsSync(path.join(nodeModules, 'n8n-core/package.json'));
	if (release && !installed && process.env.N8N_RELEASES_INSTALLED === '1')
		throw new Error(`n8n ${release} is not installed in ${n8nInstalls}`);
	const testWhereN8nIsInstalled = installed ? test : test.skip;
	let engine: Engine | undefined;
	const runs = new Map<string, Seen[]>();
	/** The probe's record of a case, run once per engine. */
	async function probed(label: string): Promise<Seen[]> {
		engine ??= engineIn(nodeModules);
		if (!runs.has(label))
			runs.set(label, await runProbed(engine, CASES.find((c) => c.label === label)!.changes));
		return runs.get(label)!;
	}
	afterAll(() => engine?.shutdown());
	const customerCreate = CASES[0].label;

	testWhereN8nIsInstalled(
		'runOf: every item of a run gives the same execute data, with the run’s items',
		async () => {
			const seen = await probed(customerCreate);
			expect(seen[0].run).toBeDefined();
			for (const entry of seen) expect(entry.run).toBe(seen[0].run);
			expect(runSize(seen[0].run!)).toBe(ITEMS.length);
		},
	);

	testWhereN8nIsInstalled(
		'itemContext: the first item’s request-step context, given another item’s index, resolves that item',
		async () => {
			const [first] = await probed(customerCreate);
			expect(first.ahead!.map(({ itemIndex, input }) => ({ itemIndex, input }))).toEqual(
				ITEMS.map((json, itemIndex) => ({ itemIndex, input: { json } })),
			);
		},
	);

	for (const { label, composes } of CASES.filter((c) => c.composes))
		testWhereN8nIsInstalled(
			`requestComposer: ${label} — each item’s request as n8n composed it for that item`,
			async () => {
				const seen = await probed(label);
				expect(seen[0].composes).toBe(composes);
				const composed = seen[0].ahead!.map(({ request }) => request);
				expect(composed).toEqual(seen.map(({ request }) => request));
				// and the items differ, so a mapping that ignored the item would fail
				expect(new Set(composed.map((request) => JSON.stringify(request))).size).toBeGreaterThan(1);
			},
		);

	for (const { label } of CASES.filter((c) => !c.composes))
		testWhereN8nIsInstalled(`requestComposer: ${label}: refused`, async () => {
			const [first] = await probed(label);
			expect(first.composes).toBe(false);
			expect(first.ahead!.map(({ request }) => request)).toEqual(ITEMS.map(() => undefined));
		});

	testWhereN8nIsInstalled(
		'keepWithRequest: what the last preSend step keeps with the request reaches the request step',
		async () => {
			const seen = await probed(customerCreate);
			expect(seen.map(({ kept }) => kept)).toEqual(ITEMS.map((_, item) => ({ item })));
		},
	);

	testWhereN8nIsInstalled('runIndexOf: the item contexts carry the run’s index', async () => {
		const seen = await probed(customerCreate);
		expect(seen.map(({ runIndex }) => runIndex)).toEqual(ITEMS.map(() => RUN_INDEX));
	});
});
