/**
 * Customer → Get: the API has no customer get-by-ID, so the node reads the paged customer list
 * (GET /customers, 1000 a request) and stops at the first customer with the ID. The sandbox holds
 * more customers than one page; the requests sent are the cost the editor's notice states.
 */
import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from '../helpers/billing.cjs';
import { NOTHING_SENT, operationTable } from '../helpers/operationTable.cjs';

const CUSTOMERS = 2300; // three pages of 1000
const sandbox = useSandbox({ seed: { customers: CUSTOMERS, bigCustomerInvoices: 5 } });
const { customerId, customerName } = sandbox.fixtures;
const [first, , third] = [...(sandbox.state.customers as Map<string, IDataObject>).values()];
const onSecondPage = [...(sandbox.state.customers as Map<string, IDataObject>).values()][1500];
const byId = (value: unknown) => ({ __rl: true as const, mode: 'id', value: String(value) });
const FIRST_PAGE = { method: 'GET', path: '/customers', query: { limit: '1000' } };
const SECOND_PAGE = { method: 'GET', path: '/customers', query: { limit: '1000', offset: '1000' } };
const THIRD_PAGE = { method: 'GET', path: '/customers', query: { limit: '1000', offset: '2000' } };

describe('Customer → Get', () => {
	operationTable(sandbox, [
		{
			title: 'a customer on the first page: one request, the customer in the Simplified shape',
			parameters: { resource: 'customer', operation: 'get', customerId: byId(customerId) },
			sends: [FIRST_PAGE],
			outputs: [
				expect.objectContaining({
					customer_id: customerId,
					name: customerName,
					country: expect.any(String),
				}),
			],
		},
		{
			title: 'a customer on the second page: the list is read up to it and no further',
			parameters: {
				resource: 'customer',
				operation: 'get',
				customerId: byId(onSecondPage.customer_id),
				customerOutput: 'raw',
			},
			sends: [FIRST_PAGE, SECOND_PAGE],
			outputs: [
				expect.objectContaining({
					customer_id: onSecondPage.customer_id,
					name: onSecondPage.name,
					subscriptions: expect.any(Array),
				}),
			],
		},
		{
			title:
				'an ID no customer has: the whole list is read, and the error says so with what it cost',
			parameters: {
				resource: 'customer',
				operation: 'get',
				customerId: byId('00000000-0000-4000-8000-000000000000'),
			},
			sends: [FIRST_PAGE, SECOND_PAGE, THIRD_PAGE],
			fails: {
				message:
					'Customer in item 0: no customer has the ID "00000000-0000-4000-8000-000000000000"',
				description: new RegExp(
					`the node read the whole list: ${CUSTOMERS} customers in 3 request\\(s\\) of up to 1000`,
				),
			},
		},
		{
			title:
				"an ID that is not an ID (from an expression, past the editor's own check): refused before anything is sent, naming the field",
			parameters: {
				resource: 'customer',
				operation: 'get',
				customerId: byId('={{ "acme/../invoices" }}'),
			},
			sends: [],
			fails: {
				message:
					'Customer in item 0: "acme/../invoices" is not an ID (an ID has only letters, digits and hyphens). Give the customer_id from Customer → Search (by name or your own External ID) or Customer → Get Many',
				description: NOTHING_SENT,
			},
		},
		{
			title:
				'a number mapped into Customer is looked up as its text, as a path ID is (not refused as empty)',
			parameters: { resource: 'customer', operation: 'get', customerId: byId('={{ 12345 }}') },
			sends: [FIRST_PAGE, SECOND_PAGE, THIRD_PAGE],
			fails: { message: 'Customer in item 0: no customer has the ID "12345"' },
		},
		{
			title: 'several items: each finds its own customer',
			parameters: {
				resource: 'customer',
				operation: 'get',
				customerId: byId('={{ $json.id }}'),
				customerOutput: 'selected',
				customerFields: 'customer_id',
			},
			items: [{ id: first.customer_id }, { id: third.customer_id }],
			sends: [FIRST_PAGE, FIRST_PAGE],
			outputs: [{ customer_id: first.customer_id }, { customer_id: third.customer_id }],
			pairedItems: [0, 1],
		},
	]);
});
