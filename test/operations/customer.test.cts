import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from '../helpers/billing.cjs';
import { operationTable, UUID } from '../helpers/operationTable.cjs';

const sandbox = useSandbox();
const { customerId, customerName, customerExternalId, customerCount } = sandbox.fixtures;
const seededLegalName = (sandbox.state.customers as Map<string, IDataObject>).get(
	customerId,
)?.legal_name;

function customerNamed(name: string): IDataObject | undefined {
	return [...(sandbox.state.customers as Map<string, IDataObject>).values()].find(
		(customer) => customer.name === name,
	);
}

describe('Customer', () => {
	operationTable(sandbox, [
		{
			title: 'Create sends the name, the additional fields and the nested address',
			parameters: {
				resource: 'customer',
				operation: 'create',
				name: 'Globex Onboarding Ltd',
				additionalFields: {
					legalName: 'Globex Onboarding Limited',
					externalId: 'crm-9001',
					processorCustomerId: 'cus_9001',
					taxId: 'GB123456789',
					address: { line1: '1 High Street', city: 'London', zip: 'N1 9GU', country: 'GB' },
				},
			},
			sends: [
				{
					method: 'POST',
					path: '/customers',
					contentType: 'application/json',
					body: {
						name: 'Globex Onboarding Ltd',
						legal_name: 'Globex Onboarding Limited',
						external_id: 'crm-9001',
						processor_customer_id: 'cus_9001',
						tax_id: 'GB123456789',
						address: { line_1: '1 High Street', city: 'London', zip: 'N1 9GU', country: 'GB' },
					},
				},
			],
			outputs: [
				expect.objectContaining({
					name: 'Globex Onboarding Ltd',
					external_id: 'crm-9001',
					customer_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
				}),
			],
			pairedItems: [0],
		},
		{
			title: 'Create leaves added-but-empty fields out, and the customer has no empty legal name',
			parameters: {
				resource: 'customer',
				operation: 'create',
				name: 'Empty Fields Ltd',
				additionalFields: {
					legalName: '',
					taxId: '',
					externalId: 'crm-77',
					address: { city: 'Oslo', line1: '', zip: '' },
				},
			},
			sends: [
				{
					method: 'POST',
					path: '/customers',
					body: { name: 'Empty Fields Ltd', external_id: 'crm-77', address: { city: 'Oslo' } },
				},
			],
			outputs: [
				expect.objectContaining({
					name: 'Empty Fields Ltd',
					legal_name: null,
					tax_id: null,
					external_id: 'crm-77',
				}),
			],
			then: () =>
				expect(customerNamed('Empty Fields Ltd')).toMatchObject({
					legal_name: null,
					tax_id: null,
					address: { city: 'Oslo' },
				}),
		},
		{
			title: 'Create with an address whose fields are all empty sends no address',
			parameters: {
				resource: 'customer',
				operation: 'create',
				name: 'No Address Ltd',
				additionalFields: { address: { line1: '', country: '' } },
			},
			sends: [{ method: 'POST', path: '/customers', body: { name: 'No Address Ltd' } }],
			then: () => expect(customerNamed('No Address Ltd')).toMatchObject({ address: null }),
		},
		{
			title: 'Create with Output Raw returns the customer as the API answers it',
			parameters: {
				resource: 'customer',
				operation: 'create',
				name: 'Raw Corp',
				customerOutput: 'raw',
			},
			sends: [{ method: 'POST', path: '/customers', body: { name: 'Raw Corp' } }],
			outputs: [expect.objectContaining({ name: 'Raw Corp', subscriptions: [] })],
		},
		{
			title:
				'Create with Selected Fields that are not fields of a customer is refused before sending',
			parameters: {
				resource: 'customer',
				operation: 'create',
				name: 'Refused Corp',
				customerOutput: 'selected',
				customerFields: 'name, status',
			},
			sends: [],
			fails: { message: /^Fields: "status" is not a field of a customer/ },
		},
		{
			title: 'Create with an Output value that is not one of its choices is refused before sending',
			parameters: {
				resource: 'customer',
				operation: 'create',
				name: 'Refused Corp',
				customerOutput: 'Raw',
			},
			sends: [],
			fails: {
				message: /^Output: "Raw" is not one of its choices \(Simplified, Raw, Selected Fields\)/,
			},
		},
		{
			title:
				'Create once per input item: each item gives its own request and its output is paired with it',
			parameters: {
				resource: 'customer',
				operation: 'create',
				name: '={{ "Batch customer " + $json.externalId }}',
				additionalFields: { externalId: '={{ $json.externalId }}' },
			},
			items: [{ externalId: 'crm-a' }, { externalId: 'crm-b' }, { externalId: 'crm-c' }],
			sends: ['crm-a', 'crm-b', 'crm-c'].map((id) => ({
				method: 'POST',
				path: '/customers',
				body: { name: `Batch customer ${id}`, external_id: id },
			})),
			outputs: ['crm-a', 'crm-b', 'crm-c'].map((id) =>
				expect.objectContaining({ external_id: id }),
			),
			pairedItems: [0, 1, 2],
		},
		{
			title: 'Update sends only the fields given to the customer path',
			parameters: {
				resource: 'customer',
				operation: 'update',
				customerId,
				updateFields: { taxId: 'DE999', address: { city: 'Berlin' } },
			},
			sends: [
				{
					method: 'PATCH',
					path: `/customers/${customerId}`,
					body: { tax_id: 'DE999', address: { city: 'Berlin' } },
				},
			],
			outputs: [expect.objectContaining({ customer_id: customerId, tax_id: 'DE999' })],
		},
		{
			title: 'Update leaves added-but-empty fields out and keeps the others as they were',
			parameters: {
				resource: 'customer',
				operation: 'update',
				customerId,
				updateFields: { legalName: '', taxId: 'NO-123' },
			},
			sends: [{ method: 'PATCH', path: `/customers/${customerId}`, body: { tax_id: 'NO-123' } }],
			outputs: [expect.objectContaining({ tax_id: 'NO-123', legal_name: seededLegalName })],
		},
		{
			title:
				"Update of a customer ID the API does not have is its 404: the API's code and message, then Customer, that nothing changed and where a customer's ID is found",
			parameters: {
				resource: 'customer',
				operation: 'update',
				customerId: 'no-such-customer',
				updateFields: { taxId: 'NF-404' },
			},
			sends: [
				{
					method: 'PATCH',
					path: '/customers/no-such-customer',
					status: 404,
					body: { tax_id: 'NF-404' },
				},
			],
			fails: {
				message: 'ERR_NOT_FOUND: Customer no-such-customer not found.',
				description:
					'HTTP 404 from PATCH /api/v2/customers/no-such-customer. The API has no record with the ID "no-such-customer" in Customer, so nothing was changed. ' +
					'Give the customer_id from Customer → Search (by name or your own External ID) or Customer → Get Many.',
			},
			then: () =>
				expect(
					[...(sandbox.state.customers as Map<string, IDataObject>).values()].map(
						(customer) => customer.tax_id,
					),
				).not.toContain('NF-404'),
		},
		{
			title: 'Update whose only fields are empty is refused before sending',
			parameters: {
				resource: 'customer',
				operation: 'update',
				customerId,
				updateFields: { legalName: '', address: { city: '' } },
			},
			sends: [],
			fails: { message: /^Update Fields in item 0: give at least one of / },
		},
		{
			title: 'Search by external ID finds exactly that customer',
			parameters: {
				resource: 'customer',
				operation: 'search',
				searchFields: { externalId: customerExternalId },
				returnAll: true,
			},
			sends: [
				{
					method: 'POST',
					path: '/customers/search',
					query: { limit: '1000' },
					body: { external_id: customerExternalId },
				},
			],
			outputs: [expect.objectContaining({ customer_id: customerId })],
		},
		{
			title: 'Search by part of the name is case-insensitive and returns each customer as an item',
			parameters: {
				resource: 'customer',
				operation: 'search',
				searchFields: { name: 'acme' },
				returnAll: true,
			},
			sends: [
				{
					method: 'POST',
					path: '/customers/search',
					query: { limit: '1000' },
					body: { name: 'acme' },
				},
			],
			outputs: (customers) => {
				expect(customers.length).toBeGreaterThan(1);
				for (const customer of customers)
					expect(String(customer.name).toLowerCase()).toContain('acme');
			},
		},
		{
			title:
				"Search by Name is the API's match of the text as typed, as the field says: word order counts",
			parameters: {
				resource: 'customer',
				operation: 'search',
				searchFields: { name: 'acme corp' },
				returnAll: true,
			},
			sends: [
				{
					method: 'POST',
					path: '/customers/search',
					query: { limit: '1000' },
					body: { name: 'acme corp' },
				},
			],
			outputs: [expect.objectContaining({ customer_id: customerId, name: 'Acme Corporation' })],
		},
		{
			title: 'Search by Name with the words swapped: sent as typed, and the API finds no customer',
			parameters: {
				resource: 'customer',
				operation: 'search',
				searchFields: { name: 'corp acme' },
				returnAll: true,
			},
			sends: [
				{
					method: 'POST',
					path: '/customers/search',
					query: { limit: '1000' },
					body: { name: 'corp acme' },
				},
			],
			outputs: [],
		},
		{
			title:
				'Get Many with a limit asks the API for that many and returns each customer as an item',
			parameters: { resource: 'customer', operation: 'getMany', limit: 3 },
			sends: [{ method: 'GET', path: '/customers', query: { limit: '3' } }],
			outputs: [
				expect.objectContaining({ customer_id: customerId, name: customerName }),
				expect.objectContaining({ customer_id: expect.stringMatching(UUID) }),
				expect.objectContaining({ customer_id: expect.stringMatching(UUID) }),
			],
		},
		{
			title: 'Get Many with Return All returns every customer',
			parameters: { resource: 'customer', operation: 'getMany', returnAll: true },
			sends: [{ method: 'GET', path: '/customers', query: { limit: '1000' } }],
			outputs: (customers) => {
				expect(customers).toHaveLength(Number(customerCount));
				expect(new Set(customers.map((customer) => customer.customer_id)).size).toBe(
					customers.length,
				);
			},
		},
	]);
});
