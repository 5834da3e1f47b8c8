// The sandbox's latency, rate limit, cap on requests in flight and count of applied writes
// (test/sandbox/limits.js, applied.js), over real HTTP.
import { startSandbox, type Sandbox } from './sandbox/index.cjs';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => {
	sb.reset();
	sb.setLimits(null);
});

function patchUsage(value: number, headers: Record<string, string> = {}) {
	return fetch(`${sb.baseUrl}/usage`, {
		method: 'PATCH',
		headers: { 'X-SERVICE-KEY': sb.apiKey, 'Content-Type': 'application/json', ...headers },
		body: JSON.stringify({ transaction_id: sb.fixtures.usageTransactionId, value }),
	});
}

test('the rate limit: the burst passes, the next request is a 429 with Retry-After in whole seconds, and is not applied', async () => {
	sb.setLimits({ ratePerSecond: 0.5, burst: 3 });
	const answers = [];
	for (let i = 1; i <= 4; i++) answers.push(await patchUsage(i));
	expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
	// the whole seconds until the next token: 2 at 0.5 per second (1 once a second has passed)
	expect(['1', '2']).toContain(answers[3].headers.get('retry-after'));
	expect(await answers[3].json()).toEqual({
		error: {
			code: 'ERR_RATE_LIMITED',
			message: 'Too many requests. Retry after the delay given in Retry-After.',
		},
	});
	expect(sb.state.usage.get(sb.fixtures.usageTransactionId).value).toBe(3);
	expect(sb.limits.stats()).toMatchObject({ limited: 1, rejectedInFlight: 0 });
	expect(sb.applied.distinct).toBe(3);
});

test('the limit is per API key: another key has its own bucket (and is then refused as unknown)', async () => {
	sb.setLimits({ ratePerSecond: 0.5, burst: 1 });
	expect((await patchUsage(1)).status).toBe(200);
	expect((await patchUsage(2)).status).toBe(429);
	const other = await fetch(`${sb.baseUrl}/customers`, {
		headers: { 'X-SERVICE-KEY': 'another-key' },
	});
	expect(other.status).toBe(401);
});

test('more requests in flight than the cap: the extra one is refused at once with 429, not queued', async () => {
	sb.setLimits({ latencyMs: 300, maxInFlight: 2 });
	const answers = await Promise.all([1, 2, 3].map((value) => patchUsage(value)));
	const statuses = answers.map((answer) => answer.status).sort();
	expect(statuses).toEqual([200, 200, 429]);
	const refused = answers.find((answer) => answer.status === 429) as Response;
	expect(refused.headers.get('retry-after')).toBe('1');
	expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
		'ERR_TOO_MANY_CONCURRENT_REQUESTS',
	);
	expect(sb.limits.stats()).toMatchObject({ maxInFlightSeen: 3, rejectedInFlight: 1, inFlight: 0 });
});

test('latency holds every answer: the arrival and answer times the sandbox records are that far apart', async () => {
	sb.setLimits({ latencyMs: 50 });
	expect((await patchUsage(1)).status).toBe(200);
	const [request] = sb.requests;
	expect((request.answeredAt as number) - request.receivedAt).toBeGreaterThanOrEqual(49);
});

test('applied writes: a replayed idempotency key is not applied again, the same write without a key is', async () => {
	const key = { 'X-SERVICE-IDEMPOTENT-OPERATION-KEY': 'limits-test-1' };
	expect((await patchUsage(7, key)).status).toBe(200);
	expect((await patchUsage(7, key)).headers.get('idempotent-replayed')).toBe('true');
	expect(sb.applied.doubled()).toEqual([]);
	expect((await patchUsage(7)).status).toBe(200);
	expect(sb.applied.doubled()).toEqual([
		{
			identity: `PATCH /api/v2/usage {"transaction_id":"${sb.fixtures.usageTransactionId}","value":7}`,
			count: 2,
		},
	]);
});
