/**
 * Against an API with a rate limit: all items of one execution share one request budget. At most
 * Max Concurrent Requests are in flight (starting at 16, growing until the first 429), a 429 pauses
 * every item for its Retry-After, nothing fails for being rate limited and no write is applied twice.
 */
import type { IDataObject } from 'n8n-workflow';
import {
	DECREASE,
	DEFAULT_MAX_CONCURRENT,
	INCREASE_PER_SECOND,
	INITIAL_WINDOW,
	heldBudgets,
} from '../nodes/SubscriptionBilling/shared/requestBudget';
import { runBilling, useSandbox, type ReceivedRequest } from './helpers/billing.cjs';

interface LimitedSandbox {
	setLimits(config: IDataObject | null): void;
	limits: { stats(): { maxInFlightSeen: number; limited: number; rejectedInFlight: number } };
	applied: { distinct: number; doubled(): Array<{ identity: string; count: number }> };
}

const sandbox = useSandbox();
const limited = () => sandbox as unknown as LimitedSandbox;
const receivedAt = (request: ReceivedRequest) =>
	(request as ReceivedRequest & { receivedAt: number }).receivedAt;
beforeEach(() => {
	sandbox.setFaults(null);
	limited().setLimits(null);
});

/** `count` usage entries to update, one input item each. */
function usageItems(count: number, tag: string): IDataObject[] {
	const usage = (sandbox.state as unknown as { usage: Map<string, IDataObject> }).usage;
	const template = usage.get(sandbox.fixtures.usageTransactionId) as IDataObject;
	return Array.from({ length: count }, (_, i) => {
		const id = `${tag}-${i}`;
		usage.set(id, { ...template, transaction_id: id, value: 0, properties: {} });
		return { transaction_id: id, value: i + 1 };
	});
}

const updateUsage = {
	resource: 'usage',
	operation: 'update',
	transactionId: '={{ $json.transaction_id }}',
	value: '={{ $json.value }}',
};

test('500 writes with default settings against a rate limit: all succeed, each applied once, never more than the maximum in flight', async () => {
	limited().setLimits({
		latencyMs: 5,
		jitterMs: 5,
		ratePerSecond: 250,
		burst: 50,
		maxInFlight: DEFAULT_MAX_CONCURRENT,
	});
	const items = usageItems(500, 'rate');
	const run = await runBilling(sandbox, { ...updateUsage, faultHandling: {} }, { items });

	expect(run.error).toBeUndefined();
	expect(run.json).toHaveLength(500);
	expect(run.json.every((json) => json.message === 'Usage entry updated successfully.')).toBe(true);
	const usage = (sandbox.state as unknown as { usage: Map<string, IDataObject> }).usage;
	for (const item of items)
		expect(usage.get(item.transaction_id as string)?.value).toBe(item.value);

	const stats = limited().limits.stats();
	expect(stats.maxInFlightSeen).toBeLessThanOrEqual(DEFAULT_MAX_CONCURRENT);
	expect(stats.rejectedInFlight).toBe(0);
	expect(limited().applied.distinct).toBe(500);
	expect(limited().applied.doubled()).toEqual([]);
	// every 429 was followed by a retry carrying the same idempotency key
	const answered = sandbox.requests.filter((request) => request.status === 200);
	expect(answered).toHaveLength(500);
	expect(sandbox.requests).toHaveLength(500 + stats.limited);
	expect(
		new Set(answered.map((request) => request.headers['x-service-idempotent-operation-key'])).size,
	).toBe(500);
	expect(heldBudgets()).toBeLessThanOrEqual(1);
});

test('a burst of 429s with Retry-After pauses every item of the execution, not only the ones that got it', async () => {
	const maxConcurrent = 4;
	// the whole first wave is declined: no answer but 429s comes back before the pause begins
	sandbox.setFaults({
		on: [1, 2, 3, 4],
		kinds: ['429', '429', '429', '429'],
		retryAfterSeconds: 1,
	});
	const items = usageItems(12, 'pause');
	const run = await runBilling(
		sandbox,
		{ ...updateUsage, faultHandling: { retryDelay: 5, maxConcurrentRequests: maxConcurrent } },
		{ items },
	);

	expect(run.error).toBeUndefined();
	expect(run.json).toHaveLength(12);
	const requests = sandbox.requests;
	expect(requests.slice(0, 4).map((request) => request.status)).toEqual([429, 429, 429, 429]);
	expect(requests.slice(4).every((request) => request.status === 200)).toBe(true);
	expect(requests).toHaveLength(16);
	// the 8 items that never got a 429 waited out the pause too: nothing arrived within Retry-After
	const firstDeclined = receivedAt(requests[0]);
	const later = requests.slice(4).map((request) => receivedAt(request) - firstDeclined);
	expect(Math.min(...later)).toBeGreaterThanOrEqual(995);
	// the four declined writes were sent again with their key, and applied once
	const declinedKeys = requests
		.slice(0, 4)
		.map((request) => request.headers['x-service-idempotent-operation-key']);
	const retriedKeys = requests
		.slice(4)
		.map((request) => request.headers['x-service-idempotent-operation-key']);
	for (const key of declinedKeys) expect(retriedKeys).toContain(key);
	expect(limited().applied.distinct).toBe(12);
	expect(limited().applied.doubled()).toEqual([]);
});

/** `count` writes at 20 ms latency with at most 8 in flight, the first 8 requests declined with 429 (Retry-After: 0). */
const AFTER_429_MAX = 8;
async function writesAfterA429Wave(count: number, tag: string) {
	sandbox.setFaults({
		on: [1, 2, 3, 4, 5, 6, 7, 8],
		kinds: Array(8).fill('429'),
		retryAfterSeconds: 0,
	});
	limited().setLimits({ latencyMs: 20 });
	const items = usageItems(count, tag);
	const run = await runBilling(
		sandbox,
		{ ...updateUsage, faultHandling: { retryDelay: 5, maxConcurrentRequests: AFTER_429_MAX } },
		{ items },
	);
	expect(run.error).toBeUndefined();
	expect(run.json).toHaveLength(count);
}

test('after a 429 the execution sends fewer requests at once', async () => {
	const maxConcurrent = AFTER_429_MAX;
	await writesAfterA429Wave(60, 'ramp');
	const stats = limited().limits.stats();
	expect(stats.maxInFlightSeen).toBeLessThanOrEqual(maxConcurrent);
	// in flight at each arrival, from arrival order and answer order
	const inFlightAtArrival = inFlightSeries(sandbox.requests);
	const afterPause = inFlightAtArrival.slice(8, 16);
	expect(Math.max(...afterPause)).toBeLessThan(maxConcurrent);
	expect(limited().applied.doubled()).toEqual([]);
});

test('after a slowdown, successes ramp the execution back up to the maximum in flight', async () => {
	const maxConcurrent = AFTER_429_MAX;
	await writesAfterA429Wave(600, 'recover');
	const inFlight = inFlightSeries(sandbox.requests);
	expect(Math.max(...inFlight.slice(8, 24))).toBeLessThan(maxConcurrent);
	expect(Math.max(...inFlight.slice(-100))).toBe(maxConcurrent);
	expect(limited().applied.distinct).toBe(600);
	expect(limited().applied.doubled()).toEqual([]);
});

test('until the first 429 the execution starts at 16 in flight and doubles each second up to the maximum', async () => {
	limited().setLimits({ latencyMs: 100 });
	const items = usageItems(400, 'start');
	const run = await runBilling(
		sandbox,
		{ ...updateUsage, faultHandling: { maxConcurrentRequests: 32 } },
		{ items },
	);

	expect(run.error).toBeUndefined();
	expect(run.json).toHaveLength(400);
	const inFlight = inFlightSeries(sandbox.requests);
	// at least two full rounds (100 ms each) at the initial window before it doubles after a second
	expect(Math.max(...inFlight.slice(0, 32))).toBe(INITIAL_WINDOW);
	expect(limited().limits.stats().maxInFlightSeen).toBe(32);
	expect(limited().applied.distinct).toBe(400);
	expect(limited().applied.doubled()).toEqual([]);
});

test('a 429 ends the start: from then on the window grows by a little each second, it does not double', async () => {
	limited().setLimits({ latencyMs: 100 });
	sandbox.setFaults({ on: [1], kinds: ['429'], retryAfterSeconds: 0 });
	const items = usageItems(400, 'no-doubling');
	const started = Date.now();
	const run = await runBilling(
		sandbox,
		{
			...updateUsage,
			faultHandling: { retryDelay: 5, maxConcurrentRequests: DEFAULT_MAX_CONCURRENT },
		},
		{ items },
	);
	const seconds = (Date.now() - started) / 1000;

	expect(run.error).toBeUndefined();
	expect(run.json).toHaveLength(400);
	// 16 x 0.7 = 11 after the 429, then 2 more per second of the run (however long a loaded machine
	// makes it): doubling each second would have passed this within two seconds
	const additive = Math.floor(INITIAL_WINDOW * DECREASE + INCREASE_PER_SECOND * seconds);
	expect(limited().limits.stats().maxInFlightSeen).toBeLessThanOrEqual(
		Math.min(DEFAULT_MAX_CONCURRENT, additive),
	);
	expect(limited().applied.distinct).toBe(400);
	expect(limited().applied.doubled()).toEqual([]);
});

test('Request Options → Batching still spaces the items as set: the requests arrive batch by batch', async () => {
	const items = usageItems(6, 'batch');
	const run = await runBilling(
		sandbox,
		{
			...updateUsage,
			requestOptions: { batching: { batch: { batchSize: 2, batchInterval: 300 } } },
		},
		{ items },
	);

	expect(run.error).toBeUndefined();
	expect(run.json).toHaveLength(6);
	const requests = sandbox.requests;
	const itemOf = (request: ReceivedRequest) => (request.body as IDataObject).transaction_id;
	expect(requests.map(itemOf).slice(0, 2).sort()).toEqual(['batch-0', 'batch-1']);
	expect(requests.map(itemOf).slice(2, 4).sort()).toEqual(['batch-2', 'batch-3']);
	expect(requests.map(itemOf).slice(4, 6).sort()).toEqual(['batch-4', 'batch-5']);
	// the pauses between batches are wider than any batch's own spread
	const at = requests.map(receivedAt);
	const spreads = [at[1] - at[0], at[3] - at[2], at[5] - at[4]];
	const gaps = [at[2] - at[1], at[4] - at[3]];
	expect(Math.min(...gaps)).toBeGreaterThan(Math.max(...spreads));
	expect(limited().applied.distinct).toBe(6);
});

test('a write the user sends again in a later execution is applied again (the budget does not swallow it)', async () => {
	const items = usageItems(3, 'again');
	const first = await runBilling(
		sandbox,
		{ ...updateUsage, faultHandling: { idempotency: 'off' } },
		{ items },
	);
	const second = await runBilling(
		sandbox,
		{ ...updateUsage, faultHandling: { idempotency: 'off' } },
		{ items },
	);
	expect(first.error).toBeUndefined();
	expect(second.error).toBeUndefined();
	expect(limited().applied.doubled()).toHaveLength(3);
});

test('Max Concurrent Requests out of range is refused before anything is sent', async () => {
	const run = await runBilling(
		sandbox,
		{ ...updateUsage, faultHandling: { maxConcurrentRequests: 0 } },
		{ items: usageItems(1, 'bad') },
	);
	expect(run.error?.message).toBe(
		'Max Concurrent Requests: "0" is not a whole number from 1 to 256',
	);
	expect(sandbox.requests).toHaveLength(0);
});

/** For each request in arrival order, how many were in flight when it arrived (itself included). */
function inFlightSeries(requests: ReceivedRequest[]): number[] {
	const answered = requests as Array<ReceivedRequest & { receivedAt: number; answeredAt?: number }>;
	return answered.map(
		(request) =>
			answered.filter(
				(other) =>
					other.receivedAt <= request.receivedAt &&
					(other.answeredAt ?? Infinity) > request.receivedAt,
			).length,
	);
}
