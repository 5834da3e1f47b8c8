import { useSandbox } from '../helpers/billing.cjs';
import { operationTable } from '../helpers/operationTable.cjs';

const sandbox = useSandbox();
const { customerId, invoiceId, invoiceNumber, subscriptionId } = sandbox.fixtures;

describe('Invoice', () => {
	operationTable(sandbox, [
		{
			title:
				'Search sends the customer ID and invoice numbers given as rows, and returns the matching invoice',
			parameters: {
				resource: 'invoice',
				operation: 'search',
				customerId,
				invoiceNumbersInput: 'fields',
				invoiceNumbersUi: { entry: [{ value: invoiceNumber }, { value: 'INV-9999999' }] },
				returnAll: true,
			},
			sends: [
				{
					method: 'POST',
					path: '/invoices/search',
					query: { limit: '1000' },
					body: { customer_id: customerId, invoice_numbers: [invoiceNumber, 'INV-9999999'] },
				},
			],
			outputs: [
				expect.objectContaining({
					invoice_id: invoiceId,
					invoice_number: invoiceNumber,
					customer_id: customerId,
				}),
			],
		},
		{
			title: 'Search takes invoice IDs as a JSON array mapped from the input item',
			parameters: {
				resource: 'invoice',
				operation: 'search',
				customerId,
				invoiceIdsInput: 'json',
				invoiceIdsJson: '={{ $json.ids }}',
				limit: 5,
			},
			items: [{ ids: [invoiceId] }],
			sends: [
				{
					method: 'POST',
					path: '/invoices/search',
					query: { limit: '5' },
					body: { customer_id: customerId, invoice_ids: [invoiceId] },
				},
			],
			outputs: [expect.objectContaining({ invoice_id: invoiceId, invoice_number: invoiceNumber })],
		},
		{
			title: 'Search refuses an invoice ID that is not a UUID before sending',
			parameters: {
				resource: 'invoice',
				operation: 'search',
				customerId,
				invoiceIdsInput: 'json',
				invoiceIdsJson: '["INV-0000001"]',
			},
			sends: [],
			fails: { message: /^Invoice IDs in item 0: entry 1, "INV-0000001", is not a UUID/ },
		},
		{
			title: "Get Many for Customer lists the customer's invoices sorted as asked",
			parameters: {
				resource: 'invoice',
				operation: 'getManyForCustomer',
				customerId,
				returnAll: true,
				options: { ordering: 'due_at' },
			},
			sends: [
				{
					method: 'GET',
					path: `/customers/${customerId}/invoices`,
					query: { ordering: 'due_at', limit: '1000' },
				},
			],
			outputs: (invoices) => {
				expect(invoices.length).toBeGreaterThan(1);
				const dueDates = invoices.map((invoice) => String(invoice.due_at));
				expect([...dueDates].sort()).toEqual(dueDates);
				for (const invoice of invoices) expect(invoice.customer_id).toBe(customerId);
			},
		},
		{
			title: 'Get Many for Subscription sends sort and scope as query parameters',
			parameters: {
				resource: 'invoice',
				operation: 'getManyForSubscription',
				subscriptionId,
				options: { ordering: 'amount', scope: 'current' },
				returnAll: true,
			},
			sends: [
				{
					method: 'GET',
					path: `/subscriptions/${subscriptionId}/invoices`,
					query: { ordering: 'amount', scope: 'current', limit: '1000' },
				},
			],
			outputs: (invoices) => {
				expect(invoices.length).toBeGreaterThan(1);
				for (const invoice of invoices) expect(invoice.subscription_id).toBe(subscriptionId);
				const amounts = invoices.map((invoice) => Number(invoice.grand_total));
				expect([...amounts].sort((a, b) => a - b)).toEqual(amounts);
			},
		},
	]);
});
