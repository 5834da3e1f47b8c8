/**
 * What the derived idempotency key deduplicates, through n8n's engine against a sandbox that keeps
 * keys across executions (the first answer replayed for the same key and request, the same key
 * with another request refused): a retry never doubles a write, a write asked for again is
 * applied again.
 */
import {
	NodeConnectionTypes,
	type IDataObject,
	type IExecutePaginationFunctions,
	type INode,
	type INodeParameters,
	type INodeType,
	type IRun,
} from 'n8n-workflow';
import { SubscriptionBillingApi } from '../credentials/SubscriptionBillingApi.credentials';
import { SubscriptionBilling } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { keyScope } from '../nodes/SubscriptionBilling/execute/perform';
import { runWorkflow } from './harness/index.cjs';
import { START_NODE_TYPE } from './harness/node-types.cjs';
import {
	runBilling,
	useSandbox,
	type BillingRun,
	type ReceivedRequest,
} from './helpers/billing.cjs';

const KEY_HEADER = 'x-service-idempotent-operation-key';

const sandbox = useSandbox();
beforeEach(() => sandbox.setFaults(null));

interface Milestone {
	quantity_completed: number;
	completions: Array<{ invoice_id: string | null }>;
}
const milestone = () =>
	(sandbox.state.milestones as Map<string, Milestone>).get(sandbox.fixtures.milestoneId)!;
const defaultPaymentMethod = () => {
	const subscription = (sandbox.state.subscriptions as Map<string, IDataObject>).get(
		sandbox.fixtures.subscriptionId,
	)!;
	return (sandbox.state.customers as Map<string, IDataObject>).get(
		String(subscription.customer_id),
	)!.default_payment_method_id;
};
const keyOf = (request: ReceivedRequest) => request.headers[KEY_HEADER];
const keys = () => sandbox.requests.map(keyOf);
/** Each request as [fault or 'ok', status, replayed]. */
const outcomes = () =>
	sandbox.requests.map((request) => [
		request.fault ?? 'ok',
		request.status,
		(request as ReceivedRequest & { replayed?: boolean }).replayed ?? false,
	]);

/** Subscription Milestone → Complete, quantity 1, billed immediately (a standalone invoice each time). */
function completeOne(
	faultHandling: IDataObject = {},
	options: Parameters<typeof runBilling>[2] = {},
): Promise<BillingRun> {
	const { subscriptionId, milestoneId } = sandbox.fixtures;
	return runBilling(
		sandbox,
		{
			resource: 'subscriptionMilestone',
			operation: 'complete',
			subscriptionId,
			milestoneId,
			quantity: 1,
			billOn: 'IMMEDIATELY',
			faultHandling: { retryDelay: 1, ...faultHandling },
		},
		options,
	);
}

function setDefault(paymentMethodId: string): Promise<BillingRun> {
	const parameters: INodeParameters = {
		resource: 'paymentMethod',
		operation: 'setDefault',
		subscriptionId: sandbox.fixtures.subscriptionId,
		paymentMethodId,
	};
	return runBilling(sandbox, parameters);
}

function expectOk(run: BillingRun): void {
	expect(run.error).toBeUndefined();
}

/** The first answer was cut off after the API applied the write; the repeat carried the same key and got the first answer replayed. */
function expectCutOffThenReplayedOnce(completedBefore: number): void {
	expect(outcomes()).toEqual([
		['truncate', 200, false],
		['ok', 200, true],
	]);
	expect(keys()[1]).toBe(keys()[0]);
	expect(milestone().quantity_completed).toBe(completedBefore + 1);
}

describe('a write asked for again is applied again', () => {
	test('Milestone Complete, quantity 1, in two executions: two invoices, completed quantity up by 2', async () => {
		const before = milestone().quantity_completed;
		const first = await completeOne();
		const second = await completeOne();
		expectOk(first);
		expectOk(second);
		expect(first.executionId).not.toBe(second.executionId);
		const invoices = [first.json[0].invoice_id, second.json[0].invoice_id];
		expect(invoices[0]).not.toBe(invoices[1]);
		expect(milestone().quantity_completed).toBe(before + 2);
		expect(
			milestone()
				.completions.slice(-2)
				.map((completion) => completion.invoice_id),
		).toEqual(invoices);
		for (const id of invoices)
			expect((sandbox.state.invoicesById as Map<string, unknown>).has(String(id))).toBe(true);
		expect(outcomes()).toEqual([
			['ok', 200, false],
			['ok', 200, false],
		]);
		expect(keys()[0]).toMatch(/^n8n-[0-9a-f]{32}$/);
		expect(keys()[1]).not.toBe(keys()[0]);
		expect(sandbox.requests[0].body).toEqual(sandbox.requests[1].body);
	});

	test('Payment Method Set Default B, then A, then B in three executions: it ends on B', async () => {
		const { paymentMethodId: b, defaultPaymentMethodId: a } = sandbox.fixtures;
		for (const id of [b, a, b]) {
			const run = await setDefault(id);
			expectOk(run);
			expect(run.json).toEqual([
				{ subscription_id: sandbox.fixtures.subscriptionId, default_payment_method_id: id },
			]);
			expect(defaultPaymentMethod()).toBe(id);
		}
		expect(outcomes().map(([, , replayed]) => replayed)).toEqual([false, false, false]);
		expect(new Set(keys()).size).toBe(3);
		const readBack = await runBilling(sandbox, {
			resource: 'paymentMethod',
			operation: 'getDefault',
			subscriptionId: sandbox.fixtures.subscriptionId,
		});
		expect(readBack.json[0].payment_method_id).toBe(b);
	});

	test('two items with identical requests in one execution are two writes (one key per item)', async () => {
		const before = milestone().quantity_completed;
		const run = await completeOne({}, { items: [{}, {}] });
		expectOk(run);
		expect(run.json).toHaveLength(2);
		expect(run.json[0].invoice_id).not.toBe(run.json[1].invoice_id);
		expect(milestone().quantity_completed).toBe(before + 2);
		expect(sandbox.requests[0].body).toEqual(sandbox.requests[1].body);
		expect(new Set(keys()).size).toBe(2);
		expect(outcomes().map(([, , replayed]) => replayed)).toEqual([false, false]);
	});

	test('the same node run twice in one execution (run index 0 and 1) makes two writes', async () => {
		const before = milestone().quantity_completed;
		const { subscriptionId, milestoneId } = sandbox.fixtures;
		const billing: INode = {
			id: 'billing-node',
			name: 'Complete Milestone',
			type: new SubscriptionBilling().description.name,
			typeVersion: 1,
			position: [200, 0],
			parameters: {
				resource: 'subscriptionMilestone',
				operation: 'complete',
				subscriptionId,
				milestoneId,
				quantity: 1,
				billOn: 'IMMEDIATELY',
			},
			credentials: { subscriptionBillingApi: { id: 'billing-credential', name: 'Billing' } },
		};
		const start: INode = {
			id: 'start-node',
			name: 'Start',
			type: START_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		// Two connections from Start to the node: n8n runs it once per arrival, as in a loop.
		const toBilling = { node: billing.name, type: NodeConnectionTypes.Main, index: 0 };
		const result = await runWorkflow({
			nodeTypes: [new SubscriptionBilling()],
			credentialTypes: [new SubscriptionBillingApi()],
			credentials: {
				'billing-credential': {
					apiKey: sandbox.apiKey,
					environment: 'production',
					productionBaseUrl: sandbox.baseUrl,
				},
			},
			workflow: {
				nodes: [start, billing],
				connections: { Start: { main: [[toBilling, toBilling]] } },
			},
		});
		const runs = result.run.data.resultData.runData[billing.name];
		expect(runs).toHaveLength(2);
		const invoices = runs.map((run) => run.data?.main[0]?.[0]?.json.invoice_id);
		expect(invoices[0]).not.toBe(invoices[1]);
		expect(outcomes()).toEqual([
			['ok', 200, false],
			['ok', 200, false],
		]);
		expect(keys()[0]).not.toBe(keys()[1]);
		expect(milestone().quantity_completed).toBe(before + 2);
	});

	test('a custom key is the business key: the same key is applied once across executions', async () => {
		const before = milestone().quantity_completed;
		const custom = {
			idempotency: 'custom',
			idempotencyKey: '={{ "milestone-" + $json.order_id }}',
		};
		const first = await completeOne(custom, { items: [{ order_id: 'A-1001' }] });
		const again = await completeOne(custom, { items: [{ order_id: 'A-1001' }] });
		const other = await completeOne(custom, { items: [{ order_id: 'A-1002' }] });
		for (const run of [first, again, other]) expectOk(run);
		expect(keys()).toEqual(['milestone-A-1001', 'milestone-A-1001', 'milestone-A-1002']);
		expect(again.json).toEqual(first.json);
		expect(other.json[0].invoice_id).not.toBe(first.json[0].invoice_id);
		expect(outcomes().map(([, , replayed]) => replayed)).toEqual([false, true, false]);
		expect(milestone().quantity_completed).toBe(before + 2);
	});

	test('the same key with a different request is refused by the API, and nothing is applied', async () => {
		const before = milestone().quantity_completed;
		const key = { idempotency: 'custom', idempotencyKey: 'order-77' };
		expectOk(await completeOne(key));
		const { subscriptionId, milestoneId } = sandbox.fixtures;
		const refused = await runBilling(sandbox, {
			resource: 'subscriptionMilestone',
			operation: 'complete',
			subscriptionId,
			milestoneId,
			quantity: 2,
			billOn: 'IMMEDIATELY',
			faultHandling: key,
		});
		expect(refused.items).toHaveLength(0);
		expect(refused.error?.message).toBe(
			`ERR_BAD_REQUEST: X-SERVICE-IDEMPOTENT-OPERATION-KEY: This key was already used for a different request (POST /api/v2/subscriptions/${subscriptionId}/milestones/${milestoneId}/complete; the body differs). Send a new key for a new write.`,
		);
		expect(refused.error?.description).toContain('HTTP 400');
		expect(outcomes()).toEqual([
			['ok', 200, false],
			['ok', 400, false],
		]);
		expect(milestone().quantity_completed).toBe(before + 1);
	});
});

describe('a retry never doubles a write', () => {
	test("the node's own retry after the answer was cut off (applied by the API): the same key, replayed, applied once", async () => {
		const before = milestone().quantity_completed;
		sandbox.setFaults({ on: [1], kinds: ['truncate'] });
		const run = await completeOne();
		expectOk(run);
		expectCutOffThenReplayedOnce(before);
		expect(run.json[0].invoice_id).toBe(milestone().completions.at(-1)!.invoice_id);
	});

	test("n8n's Settings → Retry On Fail runs the node again in the same run: the same key, replayed, applied once", async () => {
		const before = milestone().quantity_completed;
		sandbox.setFaults({ on: [1], kinds: ['truncate'] });
		const run = await completeOne(
			{ maxRetries: 0 },
			{ settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 } },
		);
		expectOk(run);
		expectCutOffThenReplayedOnce(before);
	});

	test('with Idempotency Off, Retry On Fail sends the write again and the API applies it twice (why Off is not the default)', async () => {
		const before = milestone().quantity_completed;
		sandbox.setFaults({ on: [1], kinds: ['truncate'] });
		const run = await completeOne(
			{ maxRetries: 0, idempotency: 'off' },
			{ settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 } },
		);
		expectOk(run);
		expect(outcomes()).toEqual([
			['truncate', 200, false],
			['ok', 200, false],
		]);
		expect(keys()).toEqual([undefined, undefined]);
		expect(milestone().quantity_completed).toBe(before + 2);
	});
});

describe("n8n's Retry of a failed execution (executions list)", () => {
	/** Two items with the same request (two writes); request number `n` gets `fault`; the node retries nothing itself. */
	async function failedExecution(fault: '503' | 'truncate', n: number): Promise<BillingRun> {
		sandbox.setFaults({ on: [n], kinds: [fault], retryAfterSeconds: 0 });
		const run = await completeOne({ maxRetries: 0 }, { items: [{}, {}] });
		sandbox.setFaults(null);
		expect(run.error).toBeDefined();
		expect(run.run.data.resultData.error).toBeDefined();
		return run;
	}
	const retry = (failed: IRun) =>
		completeOne({ maxRetries: 0 }, { items: [{}, {}], retryOf: failed });

	test('one item applied, one refused with 503: the retry replays the first and applies the second, under the same keys', async () => {
		const before = milestone().quantity_completed;
		const failed = await failedExecution('503', 2);
		expect(outcomes()).toEqual([
			['ok', 200, false],
			['503', 503, false],
		]);
		expect(milestone().quantity_completed).toBe(before + 1);
		const firstKeys = keys();
		expect(new Set(firstKeys).size).toBe(2);

		sandbox.clearRequests();
		const retried = await retry(failed.run);
		expectOk(retried);
		expect(retried.run.mode).toBe('retry');
		expect(retried.executionId).not.toBe(failed.executionId);
		expect(new Set(keys())).toEqual(new Set(firstKeys));
		expect(
			outcomes()
				.map(([, , replayed]) => replayed)
				.sort(),
		).toEqual([false, true]);
		expect(milestone().quantity_completed).toBe(before + 2);
		expect(retried.json).toHaveLength(2);
		expect(new Set(retried.json.map((item) => item.invoice_id))).toEqual(
			new Set(
				milestone()
					.completions.slice(-2)
					.map((c) => c.invoice_id),
			),
		);
	});

	test('node parameters changed before the retry: the changed request is a new write', async () => {
		const before = milestone().quantity_completed;
		sandbox.setFaults({ on: [1], kinds: ['truncate'] });
		const failed = await completeOne({ maxRetries: 0 });
		sandbox.setFaults(null);
		expect(failed.error).toBeDefined();
		expect(milestone().quantity_completed).toBe(before + 1);

		sandbox.clearRequests();
		const { subscriptionId, milestoneId } = sandbox.fixtures;
		const retried = await runBilling(
			sandbox,
			{
				resource: 'subscriptionMilestone',
				operation: 'complete',
				subscriptionId,
				milestoneId,
				quantity: 2,
				billOn: 'IMMEDIATELY',
				faultHandling: { maxRetries: 0 },
			},
			{ retryOf: failed.run },
		);
		expectOk(retried);
		expect(sandbox.requests.map((request) => request.body)).toEqual([
			{ quantity: 2, bill_on: 'IMMEDIATELY' },
		]);
		expect(outcomes()).toEqual([['ok', 200, false]]);
		expect(milestone().quantity_completed).toBe(before + 3);
	});

	test('both items applied, one answer cut off: the retry replays both and applies nothing again', async () => {
		const before = milestone().quantity_completed;
		const failed = await failedExecution('truncate', 1);
		expect(milestone().quantity_completed).toBe(before + 2);
		const firstKeys = keys();

		sandbox.clearRequests();
		const retried = await retry(failed.run);
		expectOk(retried);
		expect(new Set(keys())).toEqual(new Set(firstKeys));
		expect(outcomes()).toEqual([
			['ok', 200, true],
			['ok', 200, true],
		]);
		expect(milestone().quantity_completed).toBe(before + 2);

		sandbox.clearRequests();
		const newExecution = await completeOne({}, { items: [{}, {}] });
		expectOk(newExecution);
		expect(outcomes().map(([, , replayed]) => replayed)).toEqual([false, false]);
		expect(keys().some((key) => firstKeys.includes(key))).toBe(false);
		expect(milestone().quantity_completed).toBe(before + 4);
	});
});

describe('the run index in the key', () => {
	/** A declarative node whose request step reports the key scope read both ways: from n8n's context, and through $runIndex. */
	const probe: INodeType = {
		description: {
			displayName: 'Scope Probe',
			name: 'scopeProbe',
			group: ['transform'],
			version: 1,
			description: 'Reports the idempotency key scope',
			defaults: { name: 'Scope Probe' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			requestDefaults: { baseURL: 'http://127.0.0.1:9' },
			properties: [
				{
					displayName: 'Operation',
					name: 'operation',
					type: 'options',
					noDataExpression: true,
					default: 'probe',
					options: [
						{
							name: 'Probe',
							value: 'probe',
							routing: {
								request: { method: 'GET', url: '/' },
								send: { paginate: true },
								operations: {
									async pagination(this: IExecutePaginationFunctions) {
										// the context as a release without `runIndex` would hand it over (its own methods still see theirs)
										const withoutCarried = new Proxy(this, {
											get: (target, name) => {
												if (name === 'runIndex') return undefined;
												const value: unknown = Reflect.get(target, name);
												return typeof value === 'function' ? value.bind(target) : value;
											},
										});
										return [
											{
												json: {
													carried: { ...keyScope(this, this.getNode()) },
													asked: { ...keyScope(withoutCarried, this.getNode()) },
												},
											},
										];
									},
								},
							},
						},
					],
				},
			],
		},
	};

	test("the run index n8n's context carries is the one $runIndex gives, in each run of the node", async () => {
		const node: INode = {
			id: 'probe-node',
			name: 'Scope Probe',
			type: 'scopeProbe',
			typeVersion: 1,
			position: [200, 0],
			parameters: { operation: 'probe' },
		};
		const start: INode = {
			id: 'start-node',
			name: 'Start',
			type: START_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const toProbe = { node: node.name, type: NodeConnectionTypes.Main, index: 0 };
		const result = await runWorkflow({
			nodeTypes: [probe],
			workflow: { nodes: [start, node], connections: { Start: { main: [[toProbe, toProbe]] } } },
			startItems: [{}, {}],
		});
		const runs = result.run.data.resultData.runData[node.name];
		expect(runs.map((run) => run.error)).toEqual([undefined, undefined]);
		const scopes = runs.flatMap((run) =>
			run.data!.main[0]!.map((item) => item.json as { carried: IDataObject; asked: IDataObject }),
		);
		expect(scopes.map(({ carried }) => [carried.runIndex, carried.itemIndex])).toEqual([
			[0, 0],
			[0, 1],
			[1, 0],
			[1, 1],
		]);
		for (const { carried, asked } of scopes) expect(carried).toEqual(asked);
	});
});
