/**
 * Pages read together, through n8n's engine: once the first page's `count` shows which offsets
 * follow, Return All and Limit ask for the later pages at once (within Max Concurrent Requests) and
 * output them in the API's order, each record once; a list whose count changes is read one page at
 * a time from there on; a failed page fails the list; a 429 pauses as its Retry-After says; Limit
 * asks for no more than it returns; the key goes nowhere else. Overlap is seen by a front that
 * holds later pages until several are asked for together (no clock).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';
import { invoiceIdsOf, runBilling, useSandbox, type BillingRun } from './helpers/billing.cjs';

const { startDeployment } = require('./sandbox/index.cjs') as {
	startDeployment: (sandbox: unknown, variant: IDataObject) => Promise<Deployment>;
};

interface FrontRequest {
	method: string;
	url: string;
	headers: Record<string, string | string[] | undefined>;
	answeredWith?: string;
	arrived: number;
	answered?: number;
}

interface Deployment {
	baseUrl: string;
	requests: FrontRequest[];
	heldTogether: number;
	close(): Promise<void>;
}

const INVOICES = 5000;
const sandbox = useSandbox({ seed: { bigCustomerInvoices: INVOICES } }, { resetEachTest: false });
const customerId = () => sandbox.fixtures.bigCustomerId;
const invoicesPath = () => `/api/v2/customers/${customerId()}/invoices`;

beforeEach(() => {
	sandbox.setFaults(null);
	sandbox.clearRequests();
});

async function withFront<T>(
	variant: IDataObject,
	use: (front: Deployment) => Promise<T>,
): Promise<T> {
	const front = await startDeployment(sandbox, variant);
	try {
		return await use(front);
	} finally {
		await front.close();
	}
}

/** The customer's invoice IDs as the API lists them now (newest first). */
const invoiceIdsFromApi = () => invoiceIdsOf(sandbox, customerId());

function listInvoices(listing: IDataObject, baseUrl?: string): Promise<BillingRun> {
	return runBilling(
		sandbox,
		{
			resource: 'invoice',
			operation: 'getManyForCustomer',
			customerId: customerId(),
			...listing,
			faultHandling: { retryDelay: 1, ...(listing.faultHandling as IDataObject) },
		},
		{ baseUrl },
	);
}

/** When the sandbox received and answered a request (performance.now()). */
const timesOf = (request: object) => request as { receivedAt: number; answeredAt?: number };
const ids = (run: BillingRun) => run.json.map((invoice) => String(invoice.invoice_id));
/** The pages a front was asked for, as `limit offset`, by offset. */
const pagesAsked = (front: Deployment) =>
	front.requests
		.map((request) => new URL(request.url, 'http://front').searchParams)
		.map((query) => [Number(query.get('offset') ?? 0), query.get('limit')] as const)
		.sort(([a], [b]) => a - b)
		.map(([offset, limit]) => `${limit} ${offset}`);
/** Whether each request arrived after the one before it was answered. */
const oneAtATime = (requests: FrontRequest[]) =>
	requests.every(
		(request, index) => index === 0 || request.arrived > (requests[index - 1].answered ?? Infinity),
	);

let expected: string[];
beforeEach(async () => {
	expected = await invoiceIdsFromApi();
	sandbox.clearRequests();
});

test('Return All of 5,000 asks for the four pages after the first together and outputs every invoice once, in the API order, as one page at a time does', async () => {
	await withFront({ holdPages: 4 }, async (front) => {
		const together = await listInvoices({ returnAll: true }, front.baseUrl);
		expect(together.error).toBeUndefined();
		// four later pages held at the front at once, then answered last asked first
		expect(front.heldTogether).toBe(4);
		expect(ids(together)).toEqual(expected);
		expect(pagesAsked(front)).toEqual([
			'1000 0',
			'1000 1000',
			'1000 2000',
			'1000 3000',
			'1000 4000',
		]);
		for (const request of front.requests)
			expect(request.headers['x-service-key']).toBe(sandbox.apiKey);
	});
	await withFront({}, async (front) => {
		const sequential = await listInvoices(
			{ returnAll: true, faultHandling: { maxConcurrentRequests: 1 } },
			front.baseUrl,
		);
		expect(ids(sequential)).toEqual(expected);
		expect(oneAtATime(front.requests)).toBe(true);
		expect(pagesAsked(front)).toEqual([
			'1000 0',
			'1000 1000',
			'1000 2000',
			'1000 3000',
			'1000 4000',
		]);
	});
});

test('Limit 2,500 asks for 1,000 + 1,000 + 500 and nothing more, the last two together', async () => {
	await withFront({ holdPages: 2 }, async (front) => {
		const run = await listInvoices({ returnAll: false, limit: 2500 }, front.baseUrl);
		expect(run.error).toBeUndefined();
		expect(ids(run)).toEqual(expected.slice(0, 2500));
		expect(front.heldTogether).toBe(2);
		expect(pagesAsked(front)).toEqual(['1000 0', '1000 1000', '500 2000']);
	});
});

test("next links at the service's internal address: the pages read together are asked for at the base URL only, with the key", async () => {
	const received: string[] = [];
	const internal = http.createServer((req, res) => {
		received.push(`${req.method} ${req.url}`);
		res.writeHead(500).end();
	});
	await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
	try {
		const internalOrigin = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
		await withFront({ holdPages: 4, links: 'internal', internalOrigin }, async (front) => {
			const run = await listInvoices({ returnAll: true }, front.baseUrl);
			expect(run.error).toBeUndefined();
			expect(ids(run)).toEqual(expected);
			expect(front.heldTogether).toBe(4);
			for (const request of front.requests)
				expect(request.headers['x-service-key']).toBe(sandbox.apiKey);
		});
		expect(received).toEqual([]);
	} finally {
		internal.closeAllConnections();
		await new Promise((resolve) => internal.close(resolve));
	}
});

test('a later page that fails (404 at offset 3,000 of 5,000 counted) fails the list: nothing is output', async () => {
	await withFront({ notFoundFrom: 3000 }, async (front) => {
		const run = await listInvoices({ returnAll: true }, front.baseUrl);
		expect(run.items).toHaveLength(0);
		expect(run.error?.message).toBe(
			"HTTP 404 for a later page of the list, and the answer is not the API's error format",
		);
		expect(pagesAsked(front)).toEqual([
			'1000 0',
			'1000 1000',
			'1000 2000',
			'1000 3000',
			'1000 4000',
		]);
	});
});

test('a page read ahead that gets 429 with Retry-After: 1 is asked again once the pause is over; the list is whole and in order', async () => {
	sandbox.setFaults({ on: [3], kinds: ['429'], retryAfterSeconds: 1 });
	const run = await listInvoices({ returnAll: true });
	expect(run.error).toBeUndefined();
	expect(ids(run)).toEqual(expected);
	const declined = sandbox.requests.find((request) => request.status === 429);
	expect(declined).toBeDefined();
	const retried = sandbox.requests.filter(
		(request) => request.rawQuery === declined?.rawQuery && request.status === 200,
	);
	expect(retried).toHaveLength(1);
	expect(
		timesOf(retried[0]).receivedAt - timesOf(declined as object).receivedAt,
	).toBeGreaterThanOrEqual(995);
	expect(sandbox.requests).toHaveLength(6);
});

// Last: it changes the world the other tests read.
test('an invoice issued while the pages are read (the count changes): from that page on one page at a time by next, every invoice once, none lost', async () => {
	let issued: string | undefined;
	sandbox.world.onRequest(
		(request) => request.path === invoicesPath() && request.query.offset === '1000',
		() => {
			issued ??= sandbox.world.issueInvoice({ customer_id: customerId(), amount: 42 }).invoice_id;
		},
	);
	const run = await listInvoices({ returnAll: true });
	expect(run.error).toBeUndefined();
	expect(issued).toBeDefined();
	// the new invoice is the newest: it went in at the head, already read; the later pages shifted by one
	expect(ids(run)).toEqual(expected);
	expect(expected).toHaveLength(INVOICES);
	const offsets = sandbox.requests.map((request) => Number(request.query.offset ?? 0));
	// 2000-4000 were asked for together, then again one at a time from the page whose count changed; 5000 holds the last one
	const again = [2000, 3000, 4000, 5000].map(
		(offset) => sandbox.requests[offsets.lastIndexOf(offset)],
	);
	expect(again.every((request) => request !== undefined && request.status === 200)).toBe(true);
	expect(
		again.every(
			(request, index) =>
				index === 0 ||
				timesOf(request).receivedAt >= (timesOf(again[index - 1]).answeredAt ?? Infinity),
		),
	).toBe(true);
	expect(offsets.filter((offset) => offset === 2000)).toHaveLength(2);
});

/** Most requests a front had in flight at once, from its sequence of arrivals and answers. */
function mostInFlight(front: Deployment): number {
	const events = front.requests.flatMap((request) => [
		[request.arrived, 1],
		[request.answered ?? Infinity, -1],
	]);
	let inFlight = 0;
	let most = 0;
	for (const [, change] of events.sort(([a], [b]) => a - b))
		most = Math.max(most, (inFlight += change));
	return most;
}

describe('at most 8 pages in flight, as documented', () => {
	const PAGES = 12;
	const big = useSandbox({ seed: { bigCustomerInvoices: PAGES * 1000 } }, { resetEachTest: false });

	async function listAllThroughFront(
		holdPages: number,
		faultHandling: IDataObject,
	): Promise<{ run: BillingRun; front: Deployment }> {
		const front = await startDeployment(big, { holdPages });
		try {
			const run = await runBilling(
				big,
				{
					resource: 'invoice',
					operation: 'getManyForCustomer',
					customerId: big.fixtures.bigCustomerId,
					returnAll: true,
					faultHandling: { retryDelay: 1, ...faultHandling },
				},
				{ baseUrl: front.baseUrl },
			);
			return { run, front };
		} finally {
			await front.close();
		}
	}

	test('Return All of 12 pages: 8 later pages asked for together, never a ninth before one is answered (a gateway capping concurrency at 8 never refuses)', async () => {
		const expectedIds = await invoiceIdsOf(big, big.fixtures.bigCustomerId);
		big.clearRequests();
		big.setLimits({ maxInFlight: 8 });
		const { run, front } = await listAllThroughFront(8, {});
		expect(run.error).toBeUndefined();
		expect(ids(run)).toEqual(expectedIds);
		expect(front.heldTogether).toBe(8);
		expect(mostInFlight(front)).toBe(8);
		expect(big.limits.stats()).toMatchObject({ rejectedInFlight: 0 });
		expect(front.requests).toHaveLength(PAGES);
	});

	test('under Max Concurrent Requests 3, 3 together and never more', async () => {
		big.clearRequests();
		const { run, front } = await listAllThroughFront(3, { maxConcurrentRequests: 3 });
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(PAGES * 1000);
		expect(front.heldTogether).toBe(3);
		expect(mostInFlight(front)).toBe(3);
		expect(front.requests).toHaveLength(PAGES);
	});
});
