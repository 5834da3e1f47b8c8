/**
 * Deployments that differ from the contract where it is silent (test/sandbox/deployments.js: a
 * front on 127.0.0.1 that varies one thing in front of the strict sandbox). Against each, through
 * n8n's engine: Return All and a Limit across pages, a search, a get, a create, an update, a usage
 * update and a usage delete give the same results as against the contract; every write is applied
 * exactly once; the key reaches only the configured host. Where a deployment cannot work, the
 * error says what was met and what to change.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';
import { SubscriptionBillingApi } from '../credentials/SubscriptionBillingApi.credentials';
import { SubscriptionBilling } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { DEFAULT_RETRY } from '../nodes/SubscriptionBilling/shared/retry';
import { runListSearch } from './harness/index.cjs';
import { runBilling, useSandbox, type BillingRun, type Sandbox } from './helpers/billing.cjs';
import { activeTrigger } from './helpers/trigger.cjs';

const { startDeployment } = require('./sandbox/index.cjs') as {
	startDeployment: (sandbox: unknown, variant: string | IDataObject) => Promise<Deployment>;
};

interface Deployment {
	baseUrl: string;
	origin: string;
	requests: Array<{
		method: string;
		url: string;
		headers: Record<string, string | undefined>;
		answeredWith?: string;
	}>;
	openConnections(): Promise<number>;
	clear(): void;
	close(): Promise<void>;
}

const INVOICES = 1200;
const sandbox = useSandbox({ seed: { bigCustomerInvoices: INVOICES } });

/** Where a service behind a proxy says it lives: any request arriving here is a leak. */
let internal: { origin: string; received: string[]; close(): Promise<void> };
beforeAll(async () => {
	const received: string[] = [];
	const server = http.createServer((req, res) => {
		received.push(`${req.method} ${req.url} key=${String(req.headers['x-service-key'])}`);
		res.writeHead(500).end();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	internal = {
		origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		received,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
});
afterAll(async () => await internal.close());

async function withDeployment<T>(
	variant: string | IDataObject,
	use: (front: Deployment) => Promise<T>,
): Promise<T> {
	const front = await startDeployment(
		sandbox,
		typeof variant === 'string' && variant === 'internal-links'
			? { links: 'internal', internalOrigin: internal.origin }
			: variant,
	);
	try {
		return await use(front);
	} finally {
		await front.close();
	}
}

const FAST = { faultHandling: { retryDelay: 1 } };

interface Outcome {
	listAll: BillingRun;
	limited: BillingRun;
	search: BillingRun;
	get: BillingRun;
	create: BillingRun;
	update: BillingRun;
	usageUpdate: BillingRun;
	usageDelete: BillingRun;
}

/** The same operations, in the same order, against a base URL. */
async function runOperations(baseUrl: string): Promise<Outcome> {
	const run = (parameters: INodeParameters) =>
		runBilling(sandbox, { ...FAST, ...parameters }, { baseUrl });
	const { bigCustomerId, subscriptionId, customerId, usageTransactionId } = sandbox.fixtures;
	return {
		listAll: await run({
			resource: 'invoice',
			operation: 'getManyForCustomer',
			customerId: bigCustomerId,
			returnAll: true,
		}),
		limited: await run({
			resource: 'invoice',
			operation: 'getManyForCustomer',
			customerId: bigCustomerId,
			returnAll: false,
			limit: 150,
		}),
		search: await run({
			resource: 'customer',
			operation: 'search',
			searchFields: { name: 'a' },
			returnAll: true,
		}),
		get: await run({
			resource: 'subscription',
			operation: 'get',
			subscriptionId,
			subscriptionOutput: 'raw',
		}),
		create: await run({
			resource: 'customer',
			operation: 'create',
			name: 'Deployment Test Ltd',
			additionalFields: { externalId: 'dep-1' },
		}),
		update: await run({
			resource: 'customer',
			operation: 'update',
			customerId,
			updateFields: { taxId: 'DE-DEPLOY' },
		}),
		usageUpdate: await run({
			resource: 'usage',
			operation: 'update',
			transactionId: usageTransactionId,
			value: 17,
		}),
		usageDelete: await run({
			resource: 'usage',
			operation: 'delete',
			transactionId: usageTransactionId,
		}),
	};
}

const ids = (run: BillingRun, key: string) => run.json.map((item) => item[key]);

/** What the contract's own answers give; each deployment must give the same. */
let expected: { invoiceIds: unknown[]; customerIds: unknown[]; subscriptionId: string };
beforeAll(async () => {
	const { bigCustomerId } = sandbox.fixtures;
	const invoices = (sandbox.state.invoicesByCustomer as Map<string, IDataObject[]>).get(
		bigCustomerId,
	)!;
	expect(invoices).toHaveLength(INVOICES);
	const contract = await runOperations(sandbox.baseUrl);
	expect(contract.listAll.error).toBeUndefined();
	expected = {
		invoiceIds: ids(contract.listAll, 'invoice_id'),
		customerIds: ids(contract.search, 'customer_id'),
		subscriptionId: sandbox.fixtures.subscriptionId,
	};
	expect(new Set(expected.invoiceIds).size).toBe(INVOICES);
	expect(expected.customerIds.length).toBeGreaterThan(1);
});

const WORKING = [
	'contract',
	'relative-links',
	'internal-links',
	'no-next-links',
	'link-header',
	'not-found-past-end',
	'added-at-head',
	'page-cap-refuse',
	'page-cap-clamp',
	'gateway-statuses',
	'gateway-pages',
	'rate-limit-http-date',
	'rate-limit-no-retry-after',
	'gzip',
	'deflate',
	'tiny-chunks',
	'cut-writes',
	'unknown-fields-and-offsets',
];

describe.each(WORKING)('deployment "%s"', (variant) => {
	test('lists, a search, a get, a create, an update, a usage update and delete work; each write applied once; the key only to the configured host', async () => {
		await withDeployment(variant, async (front) => {
			const outcome = await runOperations(front.baseUrl);
			for (const [name, run] of Object.entries(outcome))
				expect({ name, error: run.error?.message }).toEqual({ name, error: undefined });

			expect(ids(outcome.listAll, 'invoice_id')).toEqual(expected.invoiceIds);
			expect(ids(outcome.limited, 'invoice_id')).toEqual(expected.invoiceIds.slice(0, 150));
			expect(ids(outcome.search, 'customer_id')).toEqual(expected.customerIds);
			expect(outcome.get.json).toEqual([
				expect.objectContaining({ subscription_id: expected.subscriptionId }),
			]);
			expect(outcome.create.json).toEqual([
				expect.objectContaining({ name: 'Deployment Test Ltd', external_id: 'dep-1' }),
			]);
			expect(outcome.update.json).toEqual([
				expect.objectContaining({ customer_id: sandbox.fixtures.customerId, tax_id: 'DE-DEPLOY' }),
			]);
			expect(outcome.usageUpdate.json).toEqual([
				expect.objectContaining({ transaction_id: sandbox.fixtures.usageTransactionId, value: 17 }),
			]);
			expect(outcome.usageDelete.json).toEqual([expect.objectContaining({ deleted: true })]);

			// Each write applied exactly once, whatever the front did to its answers.
			expect(
				(sandbox as unknown as { applied: { doubled(): unknown[] } }).applied.doubled(),
			).toEqual([]);
			const customers = [...(sandbox.state.customers as Map<string, IDataObject>).values()];
			expect(customers.filter((customer) => customer.name === 'Deployment Test Ltd')).toHaveLength(
				1,
			);
			expect(
				(sandbox.state.customers as Map<string, IDataObject>).get(sandbox.fixtures.customerId)
					?.tax_id,
			).toBe('DE-DEPLOY');
			expect(
				(sandbox.state.usage as Map<string, IDataObject>).has(sandbox.fixtures.usageTransactionId),
			).toBe(false);
			const writes = sandbox.requests.filter(
				(request) => request.method !== 'GET' && !request.path.endsWith('/search'),
			);
			expect(
				writes.filter(
					(request) => request.status < 300 && !(request as { replayed?: boolean }).replayed,
				),
			).toHaveLength(4);

			// The key went with every request, to the configured host only.
			expect(front.requests.length).toBeGreaterThan(0);
			for (const request of front.requests)
				expect(request.headers['x-service-key']).toBe(sandbox.apiKey);
			expect(sandbox.requests.length).toBeLessThanOrEqual(front.requests.length);
			expect(internal.received).toEqual([]);
		});
	}, 180_000);
});

describe('what each deployment makes the node do', () => {
	const listAll = (front: Deployment, extra: INodeParameters = {}) =>
		runBilling(
			sandbox,
			{
				...FAST,
				resource: 'invoice',
				operation: 'getManyForCustomer',
				customerId: sandbox.fixtures.bigCustomerId,
				returnAll: true,
				...extra,
			},
			{ baseUrl: front.baseUrl },
		);
	const urls = (front: Deployment) =>
		front.requests.map((request) => request.url.replace(/^\/api\/v2\/customers\/[^/]+/, ''));

	test('relative and internal next links are read on the configured host, page by page', async () => {
		for (const variant of ['relative-links', 'internal-links']) {
			await withDeployment(variant, async (front) => {
				await listAll(front);
				expect(urls(front)).toEqual(['/invoices?limit=1000', '/invoices?limit=1000&offset=1000']);
			});
		}
		expect(internal.received).toEqual([]);
	});

	test('without next links, the rest of a counted list is asked for by offset', async () => {
		await withDeployment('no-next-links', async (front) => {
			const limited = await listAll(front, { returnAll: false, limit: 1100 });
			expect(limited.json).toHaveLength(1100);
			expect(urls(front)).toEqual(['/invoices?limit=1000', '/invoices?limit=100&offset=1000']);
		});
	});

	test('paging by a Link header only (no next, previous or count in the envelope): rel="next" is followed on the configured host, page by page', async () => {
		for (const variant of [
			{ linkHeader: true },
			{ linkHeader: true, links: 'relative' },
			{ linkHeader: true, links: 'internal', internalOrigin: internal.origin },
		]) {
			await withDeployment(variant, async (front) => {
				const all = await listAll(front);
				expect(all.error).toBeUndefined();
				expect(ids(all, 'invoice_id')).toEqual(expected.invoiceIds);
				expect(urls(front)).toEqual(['/invoices?limit=1000', '/invoices?limit=1000&offset=1000']);
				front.clear();
				const limited = await listAll(front, { returnAll: false, limit: 1100 });
				expect(ids(limited, 'invoice_id')).toEqual(expected.invoiceIds.slice(0, 1100));
				expect(urls(front)).toEqual(['/invoices?limit=1000', '/invoices?limit=100&offset=1000']);
			});
		}
		expect(internal.received).toEqual([]);
	});

	test("a Link header whose next page lies outside the base URL's path is not followed: the run fails saying so, and the key goes nowhere else", async () => {
		await withDeployment(
			{ linkHeader: true, links: 'outside', internalOrigin: internal.origin },
			async (front) => {
				const run = await listAll(front);
				expect(run.items).toHaveLength(0);
				expect(run.error?.message).toBe(
					"Stopped paging: the API's next-page link is outside the base URL",
				);
				expect(run.error?.description).toMatch(
					new RegExp(
						`^The API sent a Link header with rel="next": "${internal.origin}/internal/customers/[\\w-]+/invoices\\?limit=1000&offset=1000"\\. Its path /internal/customers/[\\w-]+/invoices is not under /api/v2`,
					),
				);
				expect(urls(front)).toEqual(['/invoices?limit=1000']);
			},
		);
		expect(internal.received).toEqual([]);
	});

	test('a full page that says nothing of a next one (no next, no count, no Link header): the run fails instead of taking it for the whole list', async () => {
		const full = Array.from({ length: 1000 }, (_, i) => ({ invoice_id: `inv-${i}` }));
		await withListServer(
			() => ({ results: full }),
			async (baseUrl) => {
				const run = await runBilling(
					sandbox,
					{
						...FAST,
						resource: 'invoice',
						operation: 'getManyForCustomer',
						customerId: 'c-1',
						returnAll: true,
					},
					{ baseUrl },
				);
				expect(run.error?.message).toBe(
					"Stopped paging: the API's page says nothing of a next page",
				);
				expect(run.error?.description).toContain(
					'came without "next", without "count" and without a Link header with rel="next"',
				);
				expect(run.items).toHaveLength(0);
				const limited = await runBilling(
					sandbox,
					{
						...FAST,
						resource: 'invoice',
						operation: 'getManyForCustomer',
						customerId: 'c-1',
						returnAll: false,
						limit: 1000,
					},
					{ baseUrl },
				);
				expect(limited.error).toBeUndefined();
				expect(limited.json).toHaveLength(1000);
			},
		);
	});

	test('a record added at the head of customers and plans after their first page: Return All and Limit give each once, in the API order', async () => {
		const customerIds = [...(sandbox.state.customers as Map<string, IDataObject>).keys()];
		// Plans newest first, as the node lists them by default: one created meanwhile comes first.
		const listed = await fetch(`${sandbox.baseUrl}/plans?ordering=-created_at&limit=1000`, {
			headers: { 'X-SERVICE-KEY': sandbox.apiKey },
		});
		const planIds = ((await listed.json()) as { results: IDataObject[] }).results.map(
			(plan) => plan.plan_id,
		);
		expect(planIds).toHaveLength(3);
		expect(customerIds).toHaveLength(12);
		await withDeployment(
			{ addedAtHead: true, pageCap: { size: 5, over: 'clamp' } },
			async (front) => {
				const all = await runBilling(
					sandbox,
					{ ...FAST, resource: 'customer', operation: 'getMany', returnAll: true },
					{ baseUrl: front.baseUrl },
				);
				expect(ids(all, 'customer_id')).toEqual(customerIds);
				expect(front.requests.map((request) => request.url)).toEqual([
					'/api/v2/customers?limit=1000',
					'/api/v2/customers?limit=5&offset=5',
					'/api/v2/customers?limit=5&offset=10',
				]);
				front.clear();
				const limited = await runBilling(
					sandbox,
					{ ...FAST, resource: 'customer', operation: 'getMany', returnAll: false, limit: 7 },
					{ baseUrl: front.baseUrl },
				);
				expect(ids(limited, 'customer_id')).toEqual(customerIds.slice(0, 7));
				expect(front.requests.map((request) => request.url)).toEqual([
					'/api/v2/customers?limit=7',
					'/api/v2/customers?limit=2&offset=5',
					'/api/v2/customers?limit=1&offset=7',
				]);
			},
		);
		await withDeployment(
			{ addedAtHead: true, pageCap: { size: 1, over: 'clamp' } },
			async (front) => {
				const plans = await runBilling(
					sandbox,
					{ ...FAST, resource: 'plan', operation: 'getMany', returnAll: true },
					{ baseUrl: front.baseUrl },
				);
				expect(ids(plans, 'plan_id')).toEqual(planIds);
				expect(front.requests.map((request) => request.url)).toEqual([
					'/api/v2/plans?ordering=-created_at&limit=1000',
					'/api/v2/plans?ordering=-created_at&limit=1&offset=1',
					'/api/v2/plans?ordering=-created_at&limit=1&offset=2',
					'/api/v2/plans?ordering=-created_at&limit=1&offset=3',
				]);
			},
		);
	});

	test('a count the API does not keep (more counted than it ever sends): the run fails naming both, never returning the part as the whole', async () => {
		const counted = (offset: number) => ({
			count: 5,
			next: null,
			previous: null,
			results:
				offset === 0 ? Array.from({ length: 3 }, (_, i) => ({ invoice_id: `inv-${i}` })) : [],
		});
		await withListServer(counted, async (baseUrl) => {
			const run = await runBilling(
				sandbox,
				{
					...FAST,
					resource: 'invoice',
					operation: 'getManyForCustomer',
					customerId: 'c-1',
					returnAll: true,
				},
				{ baseUrl },
			);
			expect(run.error?.message).toBe(
				"The API's list ended early: it counted 5 results but sent 3",
			);
			expect(run.error?.description).toContain(
				'answered with no results when asked for more by offset (offset=3)',
			);
			expect(run.items).toHaveLength(0);
		});
	});

	test("a page cap: a refused size is asked again without limit, then paged at the API's size; a clamped one is followed as served", async () => {
		await withDeployment('page-cap-refuse', async (front) => {
			await listAll(front, { returnAll: false, limit: 250 });
			expect(
				front.requests.map((request) => [
					request.url.replace(/^\/api\/v2\/customers\/[^/]+/, ''),
					request.answeredWith,
				]),
			).toEqual([
				['/invoices?limit=250', '400 (page cap)'],
				['/invoices', '200'],
				['/invoices?limit=100&offset=100', '200'],
				['/invoices?limit=50&offset=200', '200'],
			]);
		});
		await withDeployment('page-cap-clamp', async (front) => {
			const run = await listAll(front);
			expect(run.json).toHaveLength(INVOICES);
			expect(front.requests).toHaveLength(12);
			expect(urls(front)[1]).toBe('/invoices?limit=100&offset=100');
		});
	});

	test('a next link that repeats a page stops with a clear error instead of looping', async () => {
		await withDeployment('repeated-next', async (front) => {
			const run = await listAll(front, { faultHandling: { retryDelay: 1 } });
			expect(run.error?.message).toBe('Stopped paging: the API sent the same next-page link twice');
			expect(run.items).toHaveLength(0);
			expect(front.requests).toHaveLength(2);
		});
	});

	test("a gateway's statuses: 422 for 400, 404 and 401 without the envelope, each said with what to check", async () => {
		await withDeployment('gateway-statuses', async (front) => {
			const duplicate = await runBilling(
				sandbox,
				{ resource: 'customer', operation: 'create', name: sandbox.fixtures.customerName },
				{ baseUrl: front.baseUrl },
			);
			expect(duplicate.error?.message).toBe(
				`ERR_BAD_REQUEST: name: A customer named '${sandbox.fixtures.customerName}' already exists.`,
			);
			expect(duplicate.error?.httpCode).toBe('422');
			const missing = await runBilling(
				sandbox,
				{ resource: 'subscription', operation: 'get', subscriptionId: 'no-such-subscription' },
				{ baseUrl: front.baseUrl },
			);
			expect(missing.error?.message).toBe(
				"HTTP 404: not found, and the answer is not the API's error format",
			);
			expect(missing.error?.description).toBe(
				'HTTP 404 from GET /api/v2/subscriptions/no-such-subscription with JSON that is not its error format ({"error": {"code", "message"}} is expected); what was asked for may not exist, or the address may not be the API: check the credential\'s base URL, which must be the API\'s address ending in /api/v2; body: {"detail":"Not found."}',
			);
			const wrongKey = await runBilling(
				sandbox,
				{
					resource: 'subscription',
					operation: 'get',
					subscriptionId: sandbox.fixtures.subscriptionId,
				},
				{ baseUrl: front.baseUrl, apiKey: 'sbx_wrong' },
			);
			expect(wrongKey.error?.message).toBe(
				'HTTP 401: the API answered with JSON that is not its error format',
			);
			expect(wrongKey.error?.description).toContain(
				'check the API Key of the Subscription Billing API credential',
			);
			expect(front.requests).toHaveLength(3);
		});
	});

	test('a 403 without the envelope says what to check', async () => {
		await withDeployment('gateway-statuses', async (front) => {
			sandbox.setFaults({ on: [1], kinds: ['403'] });
			const run = await runBilling(
				sandbox,
				{
					resource: 'subscription',
					operation: 'get',
					subscriptionId: sandbox.fixtures.subscriptionId,
				},
				{ baseUrl: front.baseUrl },
			);
			sandbox.setFaults(null);
			expect(run.error?.message).toBe(
				'HTTP 403: the API answered with JSON that is not its error format',
			);
			expect(run.error?.description).toContain(
				'the API key may not do this: check its permissions, and the Environment of the credential',
			);
			expect(run.error?.httpCode).toBe('403');
		});
	});

	test('a write whose answer is cut off mid-body: replayed once with its idempotency key; with Idempotency off, not repeated and said so', async () => {
		await withDeployment('cut-writes', async (front) => {
			const keyed = await runBilling(
				sandbox,
				{ ...FAST, resource: 'customer', operation: 'create', name: 'Cut Keyed Ltd' },
				{ baseUrl: front.baseUrl },
			);
			expect(keyed.error).toBeUndefined();
			expect(keyed.json).toEqual([expect.objectContaining({ name: 'Cut Keyed Ltd' })]);
			expect(
				sandbox.requests.map((request) => [
					request.status,
					(request as { replayed?: boolean }).replayed ?? false,
				]),
			).toEqual([
				[201, false],
				[201, true],
			]);
			const keys = sandbox.requests.map(
				(request) => request.headers['x-service-idempotent-operation-key'],
			);
			expect(keys[0]).toMatch(/^n8n-/);
			expect(keys[1]).toBe(keys[0]);

			sandbox.clearRequests();
			const plain = await runBilling(
				sandbox,
				{
					...FAST,
					resource: 'customer',
					operation: 'create',
					name: 'Cut Plain Ltd',
					faultHandling: { retryDelay: 1, idempotency: 'off' },
				},
				{ baseUrl: front.baseUrl },
			);
			expect(plain.error?.message).toBe(
				'The connection to the Subscription Billing API broke before the answer was complete',
			);
			expect(plain.error?.description).toContain(
				'The write may have been applied by the API; it was not repeated because it carries no idempotency key',
			);
			expect(sandbox.requests).toHaveLength(1);
			const customers = [...(sandbox.state.customers as Map<string, IDataObject>).values()];
			expect(customers.filter((customer) => customer.name === 'Cut Plain Ltd')).toHaveLength(1);
			expect(customers.filter((customer) => customer.name === 'Cut Keyed Ltd')).toHaveLength(1);
		});
	});

	test("a base URL without /api/v2 meets the web server's HTML 404: the run says the base URL must end in /api/v2", async () => {
		await withDeployment('contract', async (front) => {
			const run = await runBilling(
				sandbox,
				{
					resource: 'subscription',
					operation: 'get',
					subscriptionId: sandbox.fixtures.subscriptionId,
				},
				{ baseUrl: front.origin },
			);
			expect(run.error?.message).toBe(
				"HTTP 404: no Subscription Billing API at this address; the credential's base URL must end in /api/v2",
			);
			expect(run.error?.description).toMatch(
				new RegExp(
					`^HTTP 404 from GET /subscriptions/[\\w-]+ with an HTML page \\(often from a proxy or gateway in front of the API\\); the credential's base URL ${front.origin} does not end in /api/v2: set it to the API's address ending in /api/v2 \\(for example https://billing.example.com/api/v2\\); body: <!DOCTYPE html>`,
				),
			);
			expect(front.requests).toHaveLength(1);
		});
	});

	test('a silent server: each attempt ends at its timeout, all of them within the time per request, and no socket stays open', async () => {
		await withDeployment('silent', async (front) => {
			const started = Date.now();
			const run = await getSubscription(front, 200, { retryDelay: 1, maxRequestTime: 1 });
			const took = Date.now() - started;
			expect(run.error?.message).toBe('The Subscription Billing API did not answer in time');
			const description = String(run.error?.description);
			expect(description).toMatch(
				/^(nothing received for \d+ ms|no complete answer in the time allowed for the request) \(ETIMEDOUT\) on GET \/api\/v2\/subscriptions\/[\w-]+( after \d attempts)?; .*[\d.]+ m?s spent in all: an attempt waits at most 200 ms for the server to send anything \(Request Options > Timeout, default 30 s\) and all attempts of one request take at most 1 s \(Fault Handling > Max Time per Request, default 120 s\)$/,
			);
			// How many attempts fit in the second depends on the machine's load; none is sent twice.
			const attempts = Number(/after (\d) attempts/.exec(description)?.[1] ?? 1);
			expect(front.requests.length).toBeGreaterThanOrEqual(1);
			expect(front.requests.length).toBeLessThanOrEqual(attempts);
			expect(took).toBeLessThan(60_000);
			// Every timed-out attempt's connection was closed by the node: the front sees none left open.
			await waitFor(async () => (await front.openConnections()) === 0);
			expect(await front.openConnections()).toBe(0);
		});
	});

	test("the bounds' defaults are the ones the editor shows: 30 s per attempt, 120 s per request", () => {
		const options = new SubscriptionBilling().description.properties
			.filter((property) => property.name === 'faultHandling')
			.flatMap((property) => (property.options ?? []) as INodeProperties[]);
		const maxTime = options.filter((option) => option.name === 'maxRequestTime');
		expect(maxTime.length).toBeGreaterThan(0);
		for (const option of maxTime) {
			expect(option.default).toBe(DEFAULT_RETRY.totalTimeoutMs / 1000);
			expect(option.description).toContain(
				`Request Options → Timeout (${DEFAULT_RETRY.attemptTimeoutMs / 1000} s when not set)`,
			);
		}
		expect([DEFAULT_RETRY.attemptTimeoutMs, DEFAULT_RETRY.totalTimeoutMs]).toEqual([
			30_000, 120_000,
		]);
	});

	test('a Max Time per Request that is not a positive number is refused before anything is sent', async () => {
		const run = await runBilling(sandbox, {
			resource: 'subscription',
			operation: 'get',
			subscriptionId: sandbox.fixtures.subscriptionId,
			faultHandling: { maxRequestTime: '={{ 0 }}' },
		});
		expect(run.error?.message).toBe(
			'Max Time per Request (Seconds) in item 0: "0" is not a number of seconds of at least 1',
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('a silent server and the time per request: retries stop when another attempt would end after it', async () => {
		await withDeployment('silent', async (front) => {
			const run = await getSubscription(front, 400, {
				retryDelay: 300,
				maxRetries: 10,
				maxRequestTime: 1,
			});
			expect(run.error?.message).toBe('The Subscription Billing API did not answer in time');
			expect(run.error?.description).toContain(
				'another attempt would end after the 1 s this node spends on one request (Fault Handling > Max Time per Request)',
			);
			expect(front.requests.length).toBeLessThan(4);
			await waitFor(async () => (await front.openConnections()) === 0);
		});
	});
});

describe('the trigger reads pages as the operations do', () => {
	test('a customer list that repeats a customer on its next page (one added at its head): an invoice of that customer is reported once', async () => {
		const customerIds = [...(sandbox.state.customers as Map<string, IDataObject>).keys()];
		await withDeployment(
			{ addedAtHead: true, pageCap: { size: 5, over: 'clamp' } },
			async (front) => {
				const trigger = activeTrigger(
					{ apiKey: sandbox.apiKey, baseUrl: front.baseUrl } as Sandbox,
					{ events: ['newInvoice'], scope: 'all' },
				);
				expect((await trigger.poll()).items).toBeNull();
				// The fifth customer ends the first page of five and begins the second.
				const issued = sandbox.world.issueInvoice({ customer_id: customerIds[4], amount: 12 });
				front.clear();
				const { items, error } = await trigger.poll();
				expect(error).toBeUndefined();
				const customerPages = front.requests
					.map((request) => request.url)
					.filter((url) => url.startsWith('/api/v2/customers?'));
				expect(customerPages).toEqual([
					'/api/v2/customers?limit=1000',
					'/api/v2/customers?limit=5&offset=5',
					'/api/v2/customers?limit=5&offset=10',
				]);
				expect(items?.map((item) => (item.invoice as IDataObject).invoice_id)).toEqual([
					issued.invoice_id,
				]);
				expect((await trigger.poll()).items).toBeNull();
			},
		);
	});
});

describe("the editor's pickers read pages as the operations do", () => {
	/** The picker `method` of an upgrade's Brick (searchBricks) or a Subscription Get's locators, against `baseUrl`. */
	const pick = (baseUrl: string, method: string, filter?: string, paginationToken?: string) =>
		runListSearch({
			nodeType: new SubscriptionBilling(),
			credentialType: new SubscriptionBillingApi(),
			credentials: {
				apiKey: sandbox.apiKey,
				environment: 'production',
				productionBaseUrl: baseUrl,
			},
			method,
			filter,
			paginationToken,
			parameters:
				method === 'searchBricks'
					? { resource: 'subscriptionUpgrade', operation: 'create' }
					: { resource: 'subscription', operation: 'get' },
			path:
				method === 'searchBricks'
					? 'parameters.bricksUi.brick[0].brickId'
					: 'parameters.subscriptionId',
		});
	const paths = (front: Deployment) =>
		front.requests.map((request) => `${request.url} ${request.answeredWith}`);

	test('a Link header only: the customer picker follows rel="next" to fill its page', async () => {
		const whole = await pick(sandbox.baseUrl, 'searchCustomers');
		expect(whole.results).toHaveLength(12);
		await withDeployment(
			{ linkHeader: true, pageCap: { size: 5, over: 'clamp' } },
			async (front) => {
				const page = await pick(front.baseUrl, 'searchCustomers');
				expect(page.results).toEqual(whole.results);
				expect(page.paginationToken).toBeUndefined();
				expect(paths(front)).toEqual([
					'/api/v2/customers?limit=50&offset=0 200',
					'/api/v2/customers?limit=45&offset=5 200',
					'/api/v2/customers?limit=40&offset=10 200',
				]);
			},
		);
	});

	test('a 404 for the page past the end: a picker that reads to the end of the plans ends there, with nothing more to load', async () => {
		await withDeployment(
			{ pastEnd: 'not-found', pageCap: { size: 1, over: 'clamp' } },
			async (front) => {
				const page = await pick(front.baseUrl, 'searchPlans', 'no such plan');
				expect(page.results).toEqual([]);
				expect(page.paginationToken).toBeUndefined();
				expect(paths(front)).toEqual([
					'/api/v2/plans?limit=1000&offset=0 200',
					'/api/v2/plans?limit=1&offset=1 200',
					'/api/v2/plans?limit=1&offset=2 200',
					'/api/v2/plans?limit=1&offset=3 404',
				]);
			},
		);
	});

	test("a plan added at the head after the first page: the brick picker lists each plan's bricks once", async () => {
		const whole = await pick(sandbox.baseUrl, 'searchBricks');
		expect(new Set(whole.results.map((brick) => brick.value)).size).toBe(whole.results.length);
		await withDeployment(
			{ addedAtHead: true, pageCap: { size: 1, over: 'clamp' } },
			async (front) => {
				const page = await pick(front.baseUrl, 'searchBricks');
				expect(page.results).toEqual(whole.results);
				expect(paths(front).slice(0, 2)).toEqual([
					'/api/v2/plans?limit=1000&offset=0 200',
					'/api/v2/plans?limit=999&offset=1 200',
				]);
			},
		);
	});
});

/** A server on 127.0.0.1 answering every list request with `page(offset)`, for `use(baseUrl)`. */
async function withListServer(
	page: (offset: number) => IDataObject,
	use: (baseUrl: string) => Promise<void>,
): Promise<void> {
	const server = http.createServer((req, res) => {
		const offset = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('offset') ?? 0);
		res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(page(offset)));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	try {
		await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`);
	} finally {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
}

function getSubscription(front: Deployment, timeout: number, faultHandling: INodeParameters) {
	const parameters = {
		resource: 'subscription',
		operation: 'get',
		subscriptionId: sandbox.fixtures.subscriptionId,
		requestOptions: { timeout },
		faultHandling,
	};
	return runBilling(sandbox, parameters, { baseUrl: front.baseUrl });
}

/** Waits for a condition (a bounded number of turns of the event loop and short sleeps), never a fixed time. */
async function waitFor(condition: () => Promise<boolean>, turns = 200): Promise<void> {
	for (let turn = 0; turn < turns; turn++) {
		if (await condition()) return;
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}
