/**
 * Customer → Get: the API has no customer get-by-ID, so the node reads the paged customer list
 * (GET /customers, 1000 a request) and stops at the first customer with the ID. Runs through n8n's
 * engine against the sandbox, with more customers than one page holds; the requests it sent are the
 * cost the editor's notice states.
 */
import type { IDataObject } from 'n8n-workflow';
import { runBilling, useSandbox } from './helpers/billing.cjs';

const CUSTOMERS = 2300; // three pages of 1000
const sandbox = useSandbox({ seed: { customers: CUSTOMERS, bigCustomerInvoices: 5 } });

const listed = () => [...(sandbox.state.customers as Map<string, IDataObject>).values()];
const get = (id: string, extra: IDataObject = {}) =>
	runBilling(sandbox, { resource: 'customer', operation: 'get', customerId: { __rl: true, mode: 'id', value: id }, ...extra });
const sent = () => sandbox.requests.map((request) => `${request.method} ${request.path} ${new URLSearchParams(request.rawQuery).toString()}`);

test('a customer on the first page: one request, the customer in the Simplified shape', async () => {
	const run = await get(sandbox.fixtures.customerId);
	expect(run.error).toBeUndefined();
	expect(run.json).toEqual([
		expect.objectContaining({ customer_id: sandbox.fixtures.customerId, name: sandbox.fixtures.customerName, country: expect.any(String) }),
	]);
	expect(sent()).toEqual(['GET /api/v2/customers limit=1000']);
});

test('a customer on the second page: the list is read up to it and no further', async () => {
	const target = listed()[1500];
	const run = await get(String(target.customer_id), { customerOutput: 'raw' });
	expect(run.error).toBeUndefined();
	expect(run.json).toHaveLength(1);
	expect(run.json[0]).toMatchObject({ customer_id: target.customer_id, name: target.name, subscriptions: expect.any(Array) });
	expect(sent()).toEqual(['GET /api/v2/customers limit=1000', 'GET /api/v2/customers limit=1000&offset=1000']);
});

test('an ID no customer has: the whole list is read, and the error says so with what it cost', async () => {
	const run = await get('00000000-0000-4000-8000-000000000000');
	expect(run.error?.message).toBe('Customer in item 0: no customer has the ID "00000000-0000-4000-8000-000000000000"');
	expect(run.error?.description).toContain(`the node read the whole list: ${listed().length} customers in 3 request(s) of up to 1000`);
	expect(sandbox.requests).toHaveLength(3);
});

test('an ID that is not an ID (from an expression, past the editor\'s own check): refused before anything is sent, naming the field', async () => {
	const run = await get('={{ "acme/../invoices" }}');
	expect(run.error?.message).toBe('Customer in item 0: "acme/../invoices" may contain only letters, digits and hyphens');
	expect(run.error?.description).toMatch(/^Nothing was sent/);
	expect(sandbox.requests).toHaveLength(0);
});

test('a number mapped into Customer is looked up as its text, as a path ID is (not refused as empty)', async () => {
	const run = await get('={{ 12345 }}');
	expect(run.error?.message).toBe('Customer in item 0: no customer has the ID "12345"');
	expect(sandbox.requests).toHaveLength(3);
});

test('several items: each finds its own customer', async () => {
	const [first, , third] = listed();
	const run = await runBilling(
		sandbox,
		{ resource: 'customer', operation: 'get', customerId: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, customerOutput: 'selected', customerFields: 'customer_id' },
		{ items: [{ id: first.customer_id }, { id: third.customer_id }] },
	);
	expect(run.json).toEqual([{ customer_id: first.customer_id }, { customer_id: third.customer_id }]);
	expect(run.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
});
