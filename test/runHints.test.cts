/**
 * Hints in the output panel where a run costs more than it looks, through n8n's engine: they are
 * in the run's data (taskData.hints, which the editor's output panel shows), and only where they
 * help. n8n's engine drops the hints of a routed (declarative) run, so these operations run as the
 * node's custom operations, with the same requests.
 */
import type { IDataObject, NodeExecutionHint } from 'n8n-workflow';
import { SubscriptionBilling } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { runBilling, useSandbox, type BillingRun } from './helpers/billing.cjs';

const CUSTOMERS = 4300; // five pages of 1000
const sandbox = useSandbox({ seed: { customers: CUSTOMERS, bigCustomerInvoices: 5 } });

const listed = () => [...(sandbox.state.customers as Map<string, IDataObject>).values()];
const hintsOf = (run: BillingRun): NodeExecutionHint[] => run.run.data.resultData.runData['Subscription Billing']?.[0]?.hints ?? [];
const byId = (id: string) => ({ __rl: true, mode: 'id', value: id });

test('the node runs Customer Get and Get Many as custom operations, and nothing else', () => {
	expect(Object.fromEntries(Object.entries(new SubscriptionBilling().customOperations).map(([resource, operations]) => [resource, Object.keys(operations)]))).toEqual({
		customer: ['get', 'getMany'],
	});
});

describe('Customer → Get', () => {
	test('found on the first page: no hint', async () => {
		const run = await runBilling(sandbox, { resource: 'customer', operation: 'get', customerId: byId(sandbox.fixtures.customerId) });
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(1);
		expect(hintsOf(run)).toEqual([]);
	});

	test('found on the third page: the hint says how many pages it read and that Search by External ID is one request', async () => {
		const target = listed()[2500];
		const run = await runBilling(sandbox, { resource: 'customer', operation: 'get', customerId: byId(String(target.customer_id)) });
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([expect.objectContaining({ customer_id: target.customer_id })]);
		expect(sandbox.requests).toHaveLength(3);
		expect(hintsOf(run)).toEqual([
			{
				message:
					'Customer → Get read 3 pages of the customer list (3 requests) to find this customer: the API has no get by ID, so it reads the customer list, up to 1,000 customers a request. Customer → Search by External ID (or Name, or Processor Customer ID) finds a customer in one request.',
				type: 'info',
				location: 'outputPane',
			},
		]);
	});

	test('several items: one hint for the run, counting the items that read more than a page', async () => {
		const customers = listed();
		const ids = [customers[0], customers[1200], customers[3100]].map((customer) => String(customer.customer_id));
		const run = await runBilling(sandbox, { resource: 'customer', operation: 'get', customerId: byId('={{ $json.id }}') }, { items: ids.map((id) => ({ id })) });
		expect(run.error).toBeUndefined();
		expect(run.json.map((item) => item.customer_id)).toEqual(ids);
		expect(run.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(hintsOf(run).map((hint) => hint.message)).toEqual([
			'Customer → Get read more than one page of the customer list for 2 of 3 items: 6 requests for them, up to 4 for one customer; the API has no get by ID, so it reads the customer list, up to 1,000 customers a request. Customer → Search by External ID (or Name, or Processor Customer ID) finds a customer in one request.',
		]);
	});

	test('an ID no customer has, with Continue On Fail: the error item, and the hint for the whole list read', async () => {
		const run = await runBilling(sandbox, { resource: 'customer', operation: 'get', customerId: byId('00000000-0000-4000-8000-000000000000') }, { continueOnFail: true });
		expect(run.json).toEqual([{ error: expect.objectContaining({ message: 'Customer in item 0: no customer has the ID "00000000-0000-4000-8000-000000000000"' }) }]);
		expect(hintsOf(run).map((hint) => hint.message)).toEqual([expect.stringMatching(/^Customer → Get read 5 pages of the customer list \(5 requests\)/)]);
	});

	test('bad input fails the item before anything is sent, as in a routed run', async () => {
		const run = await runBilling(sandbox, { resource: 'customer', operation: 'get', customerId: byId('={{ "cus/1" }}') });
		expect(run.error?.message).toBe('Customer in item 0: "cus/1" may contain only letters, digits and hyphens');
		expect(sandbox.requests).toEqual([]);
		expect(hintsOf(run)).toEqual([]);
	});
});

describe('Customer → Get Many', () => {
	test('Return All over five pages: a hint with pages, customers and what reads fewer', async () => {
		const run = await runBilling(sandbox, { resource: 'customer', operation: 'getMany', returnAll: true });
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(listed().length);
		expect(sandbox.requests).toHaveLength(5);
		expect(hintsOf(run)).toEqual([
			{
				message: `Return All read 5 pages for item 0: ${listed().length.toLocaleString('en-US')} customers in 5 requests. To read fewer, turn off Return All and set a Limit. To find some customers, Customer → Search by Name, External ID or Processor Customer ID is one request.`,
				type: 'info',
				location: 'outputPane',
			},
		]);
	});

	test('a Limit that takes four pages, and Return All on a short list: no hint', async () => {
		const limited = await runBilling(sandbox, { resource: 'customer', operation: 'getMany', returnAll: false, limit: 3500 });
		expect(limited.json).toHaveLength(3500);
		expect(hintsOf(limited)).toEqual([]);
	});
});
