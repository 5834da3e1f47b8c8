/**
 * Lists read while the world changes, and servers that answer past a list's end with 404, through
 * n8n's engine: a Return All or Limit gives each record once (an invoice issued between pages
 * shifts the later pages by one), and a 404 for a page after the end the API showed ends the list.
 */
import type { IDataObject } from 'n8n-workflow';
import { invoiceIdsOf, runBilling, useSandbox, type BillingRun } from './helpers/billing.cjs';

const { startDeployment } = require('./sandbox/index.cjs') as {
	startDeployment: (sandbox: unknown, variant: string | IDataObject) => Promise<Deployment>;
};

interface Deployment {
	baseUrl: string;
	requests: Array<{ method: string; url: string; answeredWith?: string }>;
	close(): Promise<void>;
}

const INVOICES = 2000;
const sandbox = useSandbox({ seed: { bigCustomerInvoices: INVOICES } });
const customerId = () => sandbox.fixtures.bigCustomerId;
const invoicesPath = () => `/api/v2/customers/${customerId()}/invoices`;

/** The customer's invoice IDs as the API lists them now (newest first). */
const invoiceIdsFromApi = () => invoiceIdsOf(sandbox, customerId());

function listInvoices(listing: IDataObject, baseUrl?: string): Promise<BillingRun> {
	return runBilling(
		sandbox,
		{
			resource: 'invoice',
			operation: 'getManyForCustomer',
			customerId: customerId(),
			faultHandling: { retryDelay: 1 },
			...listing,
		},
		{ baseUrl },
	);
}

/** Issues an invoice of the customer just before the API serves the page at `offset`; gives its ID once issued. */
function issueBeforePage(offset: number): () => string | undefined {
	let issued: string | undefined;
	sandbox.world.onRequest(
		(request) => request.path === invoicesPath() && request.query.offset === String(offset),
		() => {
			issued = sandbox.world.issueInvoice({ customer_id: customerId(), amount: 42 }).invoice_id;
		},
	);
	return () => issued;
}

const ids = (run: BillingRun) => run.json.map((invoice) => String(invoice.invoice_id));
const queries = () => sandbox.requests.map((request) => request.query);

describe('an invoice issued while the list is read', () => {
	let before: string[];
	beforeEach(async () => {
		before = await invoiceIdsFromApi();
		expect(before).toHaveLength(INVOICES);
		sandbox.clearRequests();
	});

	const ALL_PAGES = [
		{ limit: '1000' },
		{ limit: '1000', offset: '1000' },
		{ limit: '1000', offset: '2000' },
	];
	test.each([
		{
			name: 'Return All, one issued between page 1 and page 2: every invoice present for the whole read once, in the API order',
			listing: { returnAll: true },
			issuedBefore: [1000],
			queries: ALL_PAGES,
			count: INVOICES,
		},
		{
			name: 'Return All, one issued before each later page: still each once, none missed',
			listing: { returnAll: true },
			issuedBefore: [1000, 2000],
			queries: ALL_PAGES,
			count: INVOICES,
		},
		{
			name: 'Limit 1500, one issued between page 1 and page 2: 1,500 distinct invoices, the missing one asked for',
			listing: { returnAll: false, limit: 1500 },
			issuedBefore: [1000],
			queries: [
				{ limit: '1000' },
				{ limit: '500', offset: '1000' },
				{ limit: '1', offset: '1500' },
			],
			count: 1500,
		},
	])('$name', async ({ listing, issuedBefore, queries: asked, count }) => {
		const issued = issuedBefore.map(issueBeforePage);
		const run = await listInvoices(listing);
		expect(run.error).toBeUndefined();
		// Each later page began with the page before's last invoice; the last page asked for held what the shifts pushed out.
		expect(queries()).toEqual(asked);
		expect(sandbox.requests.map((request) => request.status)).toEqual(asked.map(() => 200));
		expect(ids(run)).toEqual(before.slice(0, count));
		// the invoices issued during the run are now the newest
		const issuedIds = issued.map((id) => id());
		expect(issuedIds).not.toContain(undefined);
		expect((await invoiceIdsFromApi()).slice(0, issuedIds.length)).toEqual(issuedIds.reverse());
	});
});

describe('a server that answers 404 for a page past the end', () => {
	async function withFront<T>(
		variant: string | IDataObject,
		use: (front: Deployment) => Promise<T>,
	): Promise<T> {
		const front = await startDeployment(sandbox, variant);
		try {
			return await use(front);
		} finally {
			await front.close();
		}
	}
	const seen = (front: Deployment) =>
		front.requests.map(
			(request) => `${request.url.replace(invoicesPath(), '')} ${request.answeredWith}`,
		);

	test.each([
		["with the API's error", 'not-found-past-end'],
		["without the API's error format", { pastEnd: 'not-found', statuses: 'gateway' }],
	])(
		'exactly 2,000 invoices at 1,000 a page, count 2,000, the empty third page answered 404 %s: Return All and Limit 2500 give all 2,000',
		async (_name, variant) => {
			const expected = await invoiceIdsFromApi();
			await withFront(variant, async (front) => {
				const all = await listInvoices({ returnAll: true }, front.baseUrl);
				expect(all.error).toBeUndefined();
				expect(ids(all)).toEqual(expected);
				expect(seen(front)).toEqual([
					'?limit=1000 200',
					'?limit=1000&offset=1000 200',
					'?limit=1000&offset=2000 404',
				]);

				front.requests.length = 0;
				const limited = await listInvoices({ returnAll: false, limit: 2500 }, front.baseUrl);
				expect(limited.error).toBeUndefined();
				expect(ids(limited)).toEqual(expected);
				expect(seen(front)).toEqual([
					'?limit=1000 200',
					'?limit=1000&offset=1000 200',
					'?limit=500&offset=2000 404',
				]);
			});
		},
	);

	test("a 404 in the middle of the list (offset 1,000 of 2,000 counted) with a web server's page: the run fails, saying pages were just read from that address instead of blaming the base URL", async () => {
		await withFront({ notFoundFrom: 1000 }, async (front) => {
			const run = await listInvoices({ returnAll: true }, front.baseUrl);
			expect(run.items).toHaveLength(0);
			expect(run.error?.message).toBe(
				"HTTP 404 for a later page of the list, and the answer is not the API's error format",
			);
			expect(run.error?.description).toContain(
				'1 page(s) of this list were read just before from the same base URL, so the address is right: the API, or a server in front of it, did not serve this page.',
			);
			expect(run.error?.description).not.toMatch(
				/must be the API's address ending in|does not end in/,
			);
			expect(seen(front)).toEqual(['?limit=1000 200', '?limit=1000&offset=1000 404 (too deep)']);
		});
	});

	test('a 404 for the page after a full one that the count does not cover is not taken for the end: the run fails', async () => {
		// Link header only (no count) and exactly 2,000: whether a 2,001st invoice exists cannot be known from a 404.
		const expected = await invoiceIdsFromApi();
		expect(expected).toHaveLength(INVOICES);
		await withFront({ pastEnd: 'not-found', linkHeader: true }, async (front) => {
			const run = await listInvoices({ returnAll: true }, front.baseUrl);
			expect(run.items).toHaveLength(0);
			expect(run.error?.message).toBe('ERR_NOT_FOUND: Invalid page');
			// the customer was found (two pages were read): no ID is said to be unknown
			expect(run.error?.description).not.toContain('The API has no record');
			expect(seen(front)).toEqual([
				'?limit=1000 200',
				'?limit=1000&offset=1000 200',
				'?limit=1000&offset=2000 404',
			]);
		});
	});
});
