/**
 * API errors are clear, faults are survived: every status the API (or a proxy in front of it) can
 * answer becomes one clear error; reads are retried, a page on its own; writes are repeated only
 * when that cannot apply them twice (idempotency key, or provably not received).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import {
	isRetryable,
	retryDelayMs,
	DEFAULT_RETRY,
	type Failure,
} from '../nodes/SubscriptionBilling/shared/retry';
import {
	runBilling,
	startSandbox,
	useSandbox,
	type BillingRunOptions,
	type ReceivedRequest,
	type Sandbox,
} from './helpers/billing.cjs';

const KEY_HEADER = 'x-service-idempotent-operation-key';
const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
/** A short timeout so that 'slow' faults (answers held 3 s by the sandbox) time out quickly, and long enough that a healthy answer on a loaded machine does not. */
const SHORT_TIMEOUT = { timeout: 1500 };
const SLOW_MS = 3000;

const sandbox = useSandbox();
beforeEach(() => sandbox.setFaults(null));

/** The sandbox's live state and request log, typed for what these tests read. */
const state = () =>
	sandbox.state as unknown as {
		customers: Map<string, IDataObject>;
		usage: Map<string, IDataObject>;
	};
const replayed = (request: ReceivedRequest) =>
	(request as ReceivedRequest & { replayed?: boolean }).replayed ?? false;

function getSubscription(extra: INodeParameters = {}, options: BillingRunOptions = {}) {
	return runBilling(
		sandbox,
		{
			resource: 'subscription',
			operation: 'get',
			subscriptionId: sandbox.fixtures.subscriptionId,
			...extra,
		},
		options,
	);
}

describe('API errors are clear for every status', () => {
	const injected: Array<[string, string, string]> = [
		['403', 'ERR_FORBIDDEN', 'This API key may not perform this operation (injected fault).'],
		['409', 'ERR_CONFLICT', 'The resource was changed by another request (injected fault).'],
		[
			'422',
			'ERR_UNPROCESSABLE',
			'The request is well-formed but cannot be processed (injected fault).',
		],
		['429', 'ERR_RATE_LIMITED', 'Too many requests. Retry after the delay given in Retry-After.'],
		['500', 'ERR_INTERNAL', 'Internal server error (injected fault).'],
		['503', 'ERR_SERVICE_UNAVAILABLE', 'Service temporarily unavailable (injected fault).'],
		['504', 'ERR_GATEWAY_TIMEOUT', 'The upstream service did not answer in time (injected fault).'],
	];

	test.each(injected)(
		'HTTP %s: message has code and message, description has status (and error id)',
		async (status, code, message) => {
			sandbox.setFaults({ on: [1], kinds: [status as '403'], retryAfterSeconds: 0 });
			const run = await getSubscription({ faultHandling: { maxRetries: 0 } });
			expect(run.error?.message).toBe(`${code}: ${message}`);
			expect(run.error?.description).toContain(
				`HTTP ${status} from GET /api/v2/subscriptions/${sandbox.fixtures.subscriptionId}`,
			);
			if (!['429', '500', '503'].includes(status))
				expect(run.error?.description).toMatch(new RegExp(`; error id ${UUID_RE.source}$`));
			expect(run.error?.httpCode).toBe(status);
			expect(run.error?.context?.itemIndex).toBe(0);
			expect(sandbox.requests).toHaveLength(1);
		},
	);

	test.each([
		[
			'502 with an HTML page',
			'502',
			'HTTP 502: the API answered with an HTML page',
			'with an HTML page (often from a proxy or gateway in front of the API); body: <html>Bad Gateway</html>',
		],
		[
			'500 with an empty body',
			'empty',
			'HTTP 500: the API answered with an empty body',
			'with an empty body; body: (empty)',
		],
		[
			'200 with an HTML page',
			'html',
			'The API answered HTTP 200 with a body that is not JSON',
			'text/html from GET',
		],
	])(
		'a body that is not JSON (%s) is named as such',
		async (_name, kind, message, inDescription) => {
			sandbox.setFaults({ on: [1], kinds: [kind as '502'] });
			const run = await getSubscription({ faultHandling: { maxRetries: 0 } });
			expect(run.error?.message).toBe(message);
			expect(run.error?.description).toContain(inDescription);
			expect(run.items).toHaveLength(0);
		},
	);
});

describe('reads are retried', () => {
	test('a get survives 429, 500, 502, 503, a dropped connection and a cut-off body in a row', async () => {
		sandbox.setFaults({
			on: [1, 2, 3, 4, 5, 6],
			kinds: ['429', '500', '502', '503', 'drop', 'truncate'],
			retryAfterSeconds: 0,
		});
		const run = await getSubscription({ faultHandling: { maxRetries: 6, retryDelay: 1 } });
		expect(run.error).toBeUndefined();
		expect(run.json[0].subscription_id).toBe(sandbox.fixtures.subscriptionId);
		expect(sandbox.requests.map((request) => request.fault ?? 'ok')).toEqual([
			'429',
			'500',
			'502',
			'503',
			'drop',
			'truncate',
			'ok',
		]);
	});

	test('a get survives an answer slower than the timeout', async () => {
		sandbox.setFaults({ on: [1], kinds: ['slow'], slowMs: SLOW_MS });
		const run = await getSubscription({ requestOptions: SHORT_TIMEOUT }, { retryDelay: 5 });
		expect(run.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.fault ?? 'ok')).toEqual(['slow', 'ok']);
	});

	test('a search (POST) is a read: retried with the same body', async () => {
		sandbox.setFaults({ on: [1, 2], kinds: ['503', 'drop'], retryAfterSeconds: 0 });
		const run = await runBilling(
			sandbox,
			{ resource: 'customer', operation: 'search', searchFields: { name: 'a' }, returnAll: true },
			{ retryDelay: 5 },
		);
		expect(run.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(3);
		for (const request of sandbox.requests) expect(request.body).toEqual({ name: 'a' });
	});

	test('when retries run out, the error says how many attempts were made', async () => {
		sandbox.setFaults({ rate: 1, kinds: ['502'] });
		const run = await getSubscription({ faultHandling: { maxRetries: 2, retryDelay: 1 } });
		expect(run.error?.description).toContain('after 3 attempts');
		expect(sandbox.requests).toHaveLength(3);
	});

	test('a Retry-After longer than the node waits stops at once, saying so', async () => {
		sandbox.setFaults({ on: [1], kinds: ['429'], retryAfterSeconds: 120 });
		const run = await getSubscription();
		expect(run.error?.message).toMatch(/^ERR_RATE_LIMITED: /);
		expect(run.error?.description).toContain(
			'the API asked to wait 120 s before retrying, longer than the 60 s this node waits',
		);
		expect(sandbox.requests).toHaveLength(1);
	});

	test('network errors are named: refused, timed out, cut off', async () => {
		const refused = await runBilling(
			sandbox,
			{
				resource: 'subscription',
				operation: 'get',
				subscriptionId: 'sub-1',
				faultHandling: { maxRetries: 1, retryDelay: 1 },
			},
			{ baseUrl: 'http://127.0.0.1:1/api/v2' },
		);
		expect(refused.error?.message).toBe('The Subscription Billing API could not be reached');
		expect(refused.error?.description).toBe(
			'connect ECONNREFUSED 127.0.0.1:1 (ECONNREFUSED) on GET /api/v2/subscriptions/sub-1 after 2 attempts',
		);
		sandbox.setFaults({ on: [1], kinds: ['slow'], slowMs: SLOW_MS });
		const slow = await getSubscription({
			faultHandling: { maxRetries: 0 },
			requestOptions: SHORT_TIMEOUT,
		});
		expect(slow.error?.message).toBe('The Subscription Billing API did not answer in time');
		expect(slow.error?.description).toMatch(/^nothing received for 1.5 s \(ETIMEDOUT\) on GET /);
		sandbox.setFaults({ on: [2], kinds: ['drop'] });
		const dropped = await getSubscription({ faultHandling: { maxRetries: 0 } });
		expect(dropped.error?.message).toBe(
			'The connection to the Subscription Billing API broke before the answer was complete',
		);
		expect(dropped.error?.description).toMatch(/^socket hang up \(ECONNRESET\) on GET /);
	});
});

describe('retry rules', () => {
	const http = (status: number, headers: IDataObject = {}): Failure => ({
		type: 'http',
		status,
		body: {},
		headers,
	});
	const network = (code: string): Failure => ({ type: 'network', code, detail: code });

	test.each([
		['429', true, true, http(429)],
		['500', true, false, http(500)],
		['502', true, false, http(502)],
		['503', true, false, http(503)],
		['504', true, false, http(504)],
		['408', true, false, http(408)],
		['400', false, false, http(400)],
		['404', false, false, http(404)],
		['409', false, false, http(409)],
		['302', false, false, http(302)],
		[
			'200 without JSON',
			true,
			false,
			{ type: 'notJson', status: 200, body: '<html>', contentType: 'text/html' } as Failure,
		],
		['ECONNREFUSED', true, true, network('ECONNREFUSED')],
		['ENOTFOUND', true, true, network('ENOTFOUND')],
		['ECONNRESET', true, false, network('ECONNRESET')],
		['ECONNABORTED (timeout)', true, false, network('ECONNABORTED')],
		['ERR_BAD_RESPONSE (cut off)', true, false, network('ERR_BAD_RESPONSE')],
	] as Array<[string, boolean, boolean, Failure]>)(
		'%s: read retried %p, write without key retried %p',
		(_name, read, plainWrite, failure) => {
			expect(isRetryable(failure, true)).toBe(read);
			expect(isRetryable(failure, false)).toBe(plainWrite);
		},
	);

	test('Retry-After is honoured (seconds or HTTP date), never shortened, capped by stopping', () => {
		const settings = { ...DEFAULT_RETRY, initialDelayMs: 0 };
		expect(retryDelayMs(0, http(429, { 'retry-after': '7' }), settings)).toBe(7000);
		expect(retryDelayMs(3, http(503, { 'retry-after': '0' }), settings)).toBe(0);
		const date = new Date(Date.now() + 20_000).toUTCString();
		expect(retryDelayMs(0, http(503, { 'retry-after': date }), settings)).toBeGreaterThan(18_000);
		expect(retryDelayMs(0, http(429, { 'retry-after': '61' }), settings)).toBeUndefined();
		const jittered = retryDelayMs(0, http(429, { 'retry-after': '2' }), DEFAULT_RETRY)!;
		expect(jittered).toBeGreaterThanOrEqual(2000);
		expect(jittered).toBeLessThanOrEqual(2500);
	});

	test('without Retry-After: exponential backoff with jitter, bounded', () => {
		for (let attempt = 0; attempt < 12; attempt++) {
			const delay = retryDelayMs(attempt, http(500), DEFAULT_RETRY)!;
			const ceiling = Math.min(500 * 2 ** attempt, DEFAULT_RETRY.maxDelayMs);
			expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
			expect(delay).toBeLessThanOrEqual(ceiling);
		}
	});
});

describe('writes are applied once', () => {
	function createUsage(
		transactionId: string,
		faultHandling: IDataObject = {},
		extra: INodeParameters = {},
	) {
		const { subscriptionId, usageBrickId } = sandbox.fixtures;
		return runBilling(sandbox, {
			resource: 'usage',
			operation: 'create',
			transactionId,
			subscriptionId,
			brickId: usageBrickId,
			value: 5,
			time: '2026-09-10T10:00:00Z',
			faultHandling: { retryDelay: 1, ...faultHandling },
			requestOptions: SHORT_TIMEOUT,
			...extra,
		});
	}
	const keys = () => sandbox.requests.map((request) => request.headers[KEY_HEADER]);
	const customersNamed = (name: string) =>
		[...state().customers.values()].filter((customer) => customer.name === name);

	test.each(['slow', 'truncate'] as const)(
		'usage create whose answer is lost after the API applied it (%s): retried with the same key, replayed, one entry',
		async (kind) => {
			sandbox.setFaults({ on: [1], kinds: [kind], slowMs: SLOW_MS });
			const run = await createUsage(`txn-${kind}`);
			expect(run.error).toBeUndefined();
			expect(run.json).toEqual([
				expect.objectContaining({ transaction_id: `txn-${kind}`, value: 5 }),
			]);
			expect(
				sandbox.requests.map((request) => [
					request.fault ?? 'ok',
					request.status,
					replayed(request),
				]),
			).toEqual([
				[kind, 201, false],
				['ok', 201, true],
			]);
			expect(new Set(keys()).size).toBe(1);
			expect(keys()[0]).toMatch(/^n8n-[0-9a-f]{32}$/);
			expect([...state().usage.keys()].filter((id) => id === `txn-${kind}`)).toHaveLength(1);
		},
	);

	test('customer create through a 503, a cut-off answer and a 500: one customer, one key', async () => {
		sandbox.setFaults({ on: [1, 2, 3], kinds: ['503', 'truncate', '500'], retryAfterSeconds: 0 });
		const run = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'create',
			name: 'Initech Fault Test',
			faultHandling: { retryDelay: 1 },
		});
		expect(run.error).toBeUndefined();
		expect(run.json[0].name).toBe('Initech Fault Test');
		expect(
			sandbox.requests.map((request) => request.fault ?? (replayed(request) ? 'replayed' : 'ok')),
		).toEqual(['503', 'truncate', '500', 'replayed']);
		expect(new Set(keys()).size).toBe(1);
		expect(customersNamed('Initech Fault Test')).toHaveLength(1);
		expect(run.json[0].customer_id).toBe(customersNamed('Initech Fault Test')[0].customer_id);
	});

	test('a re-run of the same workflow is a new execution: new keys, and the API processes each write again', async () => {
		const parameters = {
			resource: 'customer',
			operation: 'create',
			name: 'Re-run Ltd',
			additionalFields: { externalId: 'ext-rerun' },
		};
		const first = await runBilling(sandbox, parameters);
		const second = await runBilling(sandbox, parameters);
		const usageFirst = await createUsage('txn-rerun');
		const usageSecond = await createUsage('txn-rerun');
		expect(first.error).toBeUndefined();
		expect(usageFirst.error).toBeUndefined();
		// Not replayed: the API sees the second creation of each and refuses the duplicate itself.
		expect(second.error?.message).toBe(
			"ERR_BAD_REQUEST: name: A customer named 'Re-run Ltd' already exists.",
		);
		expect(usageSecond.error?.message).toBe(
			"ERR_BAD_REQUEST: transaction_id: A usage entry with transaction_id 'txn-rerun' already exists.",
		);
		expect(keys()[0]).not.toBe(keys()[1]);
		expect(keys()[2]).not.toBe(keys()[3]);
		expect(sandbox.requests.map((request) => [request.status, replayed(request)])).toEqual([
			[201, false],
			[400, false],
			[201, false],
			[400, false],
		]);
		expect(customersNamed('Re-run Ltd')).toHaveLength(1);
	});

	test('different items get different keys; a custom key is sent as given', async () => {
		const run = await runBilling(
			sandbox,
			{
				resource: 'customer',
				operation: 'create',
				name: '={{ $json.name }}',
				faultHandling: { retryDelay: 1 },
			},
			{ items: [{ name: 'Item Zero Ltd' }, { name: 'Item One Ltd' }] },
		);
		expect(run.error).toBeUndefined();
		expect(new Set(keys()).size).toBe(2);
		sandbox.clearRequests();
		await runBilling(sandbox, {
			resource: 'customer',
			operation: 'create',
			name: 'Custom Key Ltd',
			faultHandling: { idempotency: 'custom', idempotencyKey: '={{ "order-" + 42 }}' },
		});
		expect(keys()).toEqual(['order-42']);
	});

	test('without a key, a write is not repeated after a fault that may have applied it, and the error says so', async () => {
		sandbox.setFaults({ on: [1], kinds: ['slow'], slowMs: SLOW_MS });
		const slow = await createUsage('txn-off-slow', { idempotency: 'off', maxRetries: 4 });
		expect(slow.error?.message).toBe('The Subscription Billing API did not answer in time');
		expect(slow.error?.description).toContain(
			'The write may have been applied by the API; it was not repeated because it carries no idempotency key',
		);
		expect(sandbox.requests).toHaveLength(1);
		expect(keys()).toEqual([undefined]);
		expect(state().usage.has('txn-off-slow')).toBe(true);

		sandbox.clearRequests();
		sandbox.setFaults({ on: [1], kinds: ['500'] });
		const failed = await createUsage('txn-off-500', { idempotency: 'off', maxRetries: 4 });
		expect(failed.error?.message).toBe('ERR_INTERNAL: Internal server error (injected fault).');
		expect(failed.error?.description).toContain('The write may have been applied by the API');
		expect(sandbox.requests).toHaveLength(1);
	});

	test('without a key, a write is repeated when the API provably did not take it (429)', async () => {
		sandbox.setFaults({ on: [1], kinds: ['429'], retryAfterSeconds: 0 });
		const run = await createUsage('txn-off-429', { idempotency: 'off' });
		expect(run.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.fault ?? 'ok')).toEqual(['429', 'ok']);
		expect(keys()).toEqual([undefined, undefined]);
	});

	test('without a key, a refused connection is retried (nothing reached the API)', async () => {
		const run = await runBilling(
			sandbox,
			{
				resource: 'customer',
				operation: 'create',
				name: 'Nowhere Ltd',
				faultHandling: { idempotency: 'off', maxRetries: 2, retryDelay: 1 },
			},
			{ baseUrl: 'http://127.0.0.1:1/api/v2' },
		);
		expect(run.error?.message).toBe('The Subscription Billing API could not be reached');
		expect(run.error?.description).toMatch(/after 3 attempts$/);
	});

	test('a rejected write (4xx) says nothing about having been applied', async () => {
		const run = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'create',
			name: sandbox.fixtures.customerName,
			faultHandling: { idempotency: 'off' },
		});
		expect(run.error?.message).toMatch(/^ERR_BAD_REQUEST: /);
		expect(run.error?.description).not.toContain('may have been applied');
	});
});

describe('Return All over many pages under mixed faults', () => {
	const PAGE = 20;
	const INVOICES = 1200;
	let paged: Sandbox;

	beforeAll(async () => {
		paged = await startSandbox({ seed: { bigCustomerInvoices: INVOICES }, maxPageSize: PAGE });
	});
	afterAll(async () => {
		await paged.close();
	});

	const listAll = () =>
		runBilling(paged, {
			resource: 'invoice',
			operation: 'getManyForCustomer',
			customerId: paged.fixtures.bigCustomerId,
			returnAll: true,
			faultHandling: { maxRetries: 10, retryDelay: 2 },
			requestOptions: SHORT_TIMEOUT,
		});
	const offsetOf = (request: ReceivedRequest) => Number(request.query.offset ?? 0);

	test('every invoice arrives exactly once, in order, and each failing page is retried on its own', async () => {
		const clean = await listAll();
		expect(clean.error).toBeUndefined();
		const expected = clean.json.map((invoice) => invoice.invoice_id);
		expect(new Set(expected).size).toBe(INVOICES);
		const pages = INVOICES / PAGE;
		expect(new Set(paged.requests.map(offsetOf)).size).toBe(pages);

		paged.clearRequests();
		paged.setFaults({ rate: 0.3, seed: 11, retryAfterSeconds: 0, slowMs: SLOW_MS });
		const run = await listAll();
		paged.setFaults(null);
		expect(run.error).toBeUndefined();
		expect(run.json.map((invoice) => invoice.invoice_id)).toEqual(expected);

		const requests = paged.requests;
		const offsets = requests.map(offsetOf);
		// Pages are asked for in order and never again once a later one was asked for.
		expect([...offsets].sort((a, b) => a - b)).toEqual(offsets);
		expect(new Set(offsets).size).toBe(pages);
		// The request that completed a page is its last one: nothing for a page after its answer came.
		for (const offset of new Set(offsets)) {
			expect(
				requests.filter((request) => offsetOf(request) === offset).at(-1)?.fault,
			).toBeUndefined();
		}

		const byKind: Record<string, number> = {};
		for (const request of requests)
			if (request.fault) byKind[request.fault] = (byKind[request.fault] ?? 0) + 1;
		const faults = Object.values(byKind).reduce((sum, count) => sum + count, 0);
		expect(faults / requests.length).toBeGreaterThanOrEqual(0.2);
		expect(Object.keys(byKind).sort()).toEqual([
			'429',
			'500',
			'502',
			'503',
			'drop',
			'slow',
			'truncate',
		]);
		if (process.env.RELIABILITY_REPORT) {
			console.log(
				JSON.stringify({
					pages,
					invoices: INVOICES,
					requests: requests.length,
					retries: requests.length - pages,
					faults,
					byKind,
				}),
			);
		}
	});
});
