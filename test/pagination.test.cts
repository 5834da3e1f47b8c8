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

test('Return All reads three pages of 1000 (the last two together: the first page counted them) and returns every invoice once, in order', async () => {
	const run = await listInvoices({ returnAll: true, options: { ordering: 'due_at' } });
	expect(run.error).toBeUndefined();
	const byOffset = (query: Record<string, unknown>) => Number(query.offset ?? 0);
	expect(
		sandbox.requests.map((request) => request.query).sort((a, b) => byOffset(a) - byOffset(b)),
	).toEqual([
		{ limit: '1000', ordering: 'due_at' },
		{ limit: '1000', offset: '1000', ordering: 'due_at' },
		{ limit: '1000', offset: '2000', ordering: 'due_at' },
	]);
	expectNoRepeatedParameters();
	expect(run.json).toHaveLength(INVOICES);
	expect(new Set(run.json.map((invoice) => invoice.invoice_id)).size).toBe(INVOICES);
	const dueDates = run.json.map((invoice) => String(invoice.due_at));
	expect([...dueDates].sort()).toEqual(dueDates);
	for (const item of run.items) expect(item.pairedItem).toEqual({ item: 0 });
});

test('Return All without a sort keeps the API order (newest first by issue date)', async () => {
	const run = await listInvoices({ returnAll: true });
	expect(run.json).toHaveLength(INVOICES);
	const issued = run.json.map((invoice) => String(invoice.issued_at));
	expect([...issued].sort().reverse()).toEqual(issued);
	expect(sandbox.requests[0].query).toEqual({ limit: '1000' });
});

test('Limit inside a page asks for exactly that many with one request', async () => {
	const run = await listInvoices({ returnAll: false, limit: 7 });
	expect(sandbox.requests.map((request) => request.query)).toEqual([{ limit: '7' }]);
	expect(run.json).toHaveLength(7);
});

test('Limit across pages stops exactly at the limit and asks only for what is missing', async () => {
	const run = await listInvoices({
		returnAll: false,
		limit: 1500,
		options: { ordering: '-due_at' },
	});
	expect(run.error).toBeUndefined();
	expect(sandbox.requests.map((request) => request.query)).toEqual([
		{ limit: '1000', ordering: '-due_at' },
		{ limit: '500', offset: '1000', ordering: '-due_at' },
	]);
	expectNoRepeatedParameters();
	expect(run.json).toHaveLength(1500);
	const dueDates = run.json.map((invoice) => String(invoice.due_at));
	expect([...dueDates].sort().reverse()).toEqual(dueDates);
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
