import { runBilling, useSandbox } from './helpers/billing.cjs';

const INVOICES = 2500;
const sandbox = useSandbox({ seed: { bigCustomerInvoices: INVOICES } }, { resetEachTest: false });
beforeEach(() => sandbox.clearRequests());

function listInvoices(extra: Record<string, unknown>) {
	return runBilling(sandbox, {
		resource: 'invoice',
		operation: 'getManyForCustomer',
		customerId: sandbox.fixtures.bigCustomerId,
		...extra,
	});
}

function expectNoRepeatedParameters() {
	for (const request of sandbox.requests) {
		for (const [name, value] of Object.entries(request.query)) {
			expect({ name, repeated: Array.isArray(value) }).toEqual({ name, repeated: false });
		}
	}
}

/** The invoice field the output runs by, and which way. */
const order = (field: string, direction: 'ascending' | 'descending') => ({ field, direction });

test.each([
	{
		name: 'Return All reads three pages of 1000 (the last two together: the first page counted them) and returns every invoice once, in order',
		listing: { returnAll: true, options: { ordering: 'due_at' } },
		queries: [
			{ limit: '1000', ordering: 'due_at' },
			{ limit: '1000', offset: '1000', ordering: 'due_at' },
			{ limit: '1000', offset: '2000', ordering: 'due_at' },
		],
		count: INVOICES,
		sorted: order('due_at', 'ascending'),
	},
	{
		name: 'Return All without a sort keeps the API order (newest first by issue date)',
		listing: { returnAll: true },
		queries: [
			{ limit: '1000' },
			{ limit: '1000', offset: '1000' },
			{ limit: '1000', offset: '2000' },
		],
		count: INVOICES,
		sorted: order('issued_at', 'descending'),
	},
	{
		name: 'Limit inside a page asks for exactly that many with one request',
		listing: { returnAll: false, limit: 7 },
		queries: [{ limit: '7' }],
		count: 7,
		sorted: order('issued_at', 'descending'),
	},
	{
		name: 'Limit across pages stops exactly at the limit and asks only for what is missing',
		listing: { returnAll: false, limit: 1500, options: { ordering: '-due_at' } },
		queries: [
			{ limit: '1000', ordering: '-due_at' },
			{ limit: '500', offset: '1000', ordering: '-due_at' },
		],
		count: 1500,
		sorted: order('due_at', 'descending'),
	},
])('$name', async ({ listing, queries, count, sorted }) => {
	const run = await listInvoices(listing);
	expect(run.error).toBeUndefined();
	const byOffset = (query: Record<string, unknown>) => Number(query.offset ?? 0);
	expect(
		sandbox.requests.map((request) => request.query).sort((a, b) => byOffset(a) - byOffset(b)),
	).toEqual(queries);
	expectNoRepeatedParameters();
	expect(new Set(run.json.map((invoice) => invoice.invoice_id)).size).toBe(count);
	expect(run.json).toHaveLength(count);
	const values = run.json.map((invoice) => String(invoice[sorted.field]));
	const expected = [...values].sort();
	expect(values).toEqual(sorted.direction === 'ascending' ? expected : expected.reverse());
	for (const item of run.items) expect(item.pairedItem).toEqual({ item: 0 });
});

test('pages of a search keep the search body and never repeat a parameter', async () => {
	const run = await runBilling(sandbox, {
		resource: 'customer',
		operation: 'search',
		searchFields: { name: 'a' },
		returnAll: false,
		limit: 1000,
	});
	expect(run.error).toBeUndefined();
	expectNoRepeatedParameters();
	for (const request of sandbox.requests) expect(request.body).toEqual({ name: 'a' });
});

test('a limit larger than the list returns the whole list and stops at the last page', async () => {
	const run = await runBilling(sandbox, {
		resource: 'invoice',
		operation: 'getManyForCustomer',
		customerId: sandbox.fixtures.customerId,
		returnAll: false,
		limit: 5000,
	});
	expect(run.json).toHaveLength(Number(sandbox.fixtures.customerInvoiceCount));
	expect(sandbox.requests).toHaveLength(1);
});
