import type { IDataObject } from 'n8n-workflow';
import { runBilling, useSandbox } from './helpers/billing.cjs';

const sandbox = useSandbox();

function onlyRequest() {
	expect(sandbox.requests).toHaveLength(1);
	return sandbox.requests[0];
}

describe('Customer', () => {
	test('Create sends the name, the additional fields and the nested address', async () => {
		const run = await runBilling(sandbox, {
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
		});
		expect(run.error).toBeUndefined();
		const request = onlyRequest();
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/api/v2/customers');
		expect(request.headers['x-service-key']).toBe(sandbox.apiKey);
		expect(request.contentType).toMatch(/^application\/json/);
		expect(request.body).toEqual({
			name: 'Globex Onboarding Ltd',
			legal_name: 'Globex Onboarding Limited',
			external_id: 'crm-9001',
			processor_customer_id: 'cus_9001',
			tax_id: 'GB123456789',
			address: { line_1: '1 High Street', city: 'London', zip: 'N1 9GU', country: 'GB' },
		});
		expect(run.json).toHaveLength(1);
		expect(run.json[0]).toMatchObject({ name: 'Globex Onboarding Ltd', external_id: 'crm-9001' });
		expect(run.json[0].customer_id).toMatch(/^[0-9a-f-]{36}$/);
		expect(run.items[0].pairedItem).toEqual({ item: 0 });
	});

	test('Update sends only the fields given to the customer path', async () => {
		const run = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'update',
			customerId: sandbox.fixtures.customerId,
			updateFields: { taxId: 'DE999', address: { city: 'Berlin' } },
		});
		expect(run.error).toBeUndefined();
		const request = onlyRequest();
		expect(request.method).toBe('PATCH');
		expect(request.path).toBe(`/api/v2/customers/${sandbox.fixtures.customerId}`);
		expect(request.body).toEqual({ tax_id: 'DE999', address: { city: 'Berlin' } });
		expect(run.json[0]).toMatchObject({ customer_id: sandbox.fixtures.customerId, tax_id: 'DE999' });
	});

	test('Search by external ID finds exactly that customer', async () => {
		const run = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'search',
			searchFields: { externalId: sandbox.fixtures.customerExternalId },
			returnAll: true,
		});
		expect(run.error).toBeUndefined();
		const request = onlyRequest();
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/api/v2/customers/search');
		expect(request.body).toEqual({ external_id: sandbox.fixtures.customerExternalId });
		expect(request.query).toEqual({ limit: '1000' });
		expect(run.json).toHaveLength(1);
		expect(run.json[0].customer_id).toBe(sandbox.fixtures.customerId);
	});

	test('Search by part of the name is case-insensitive and returns each customer as an item', async () => {
		const run = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'search',
			searchFields: { name: 'acme' },
			returnAll: true,
		});
		expect(run.error).toBeUndefined();
		expect(run.json.length).toBeGreaterThan(1);
		for (const customer of run.json) expect(String(customer.name).toLowerCase()).toContain('acme');
	});
});

describe('Invoice', () => {
	test("Get Many for Customer lists the customer's invoices sorted as asked", async () => {
		const run = await runBilling(sandbox, {
			resource: 'invoice',
			operation: 'getManyForCustomer',
			customerId: sandbox.fixtures.customerId,
			returnAll: true,
			options: { ordering: 'due_at' },
		});
		expect(run.error).toBeUndefined();
		const request = onlyRequest();
		expect(request.method).toBe('GET');
		expect(request.path).toBe(`/api/v2/customers/${sandbox.fixtures.customerId}/invoices`);
		expect(request.query).toEqual({ ordering: 'due_at', limit: '1000' });
		expect(run.json.length).toBeGreaterThan(1);
		const dueDates = run.json.map((invoice) => String(invoice.due_at));
		expect([...dueDates].sort()).toEqual(dueDates);
		for (const invoice of run.json) expect(invoice.customer_id).toBe(sandbox.fixtures.customerId);
	});
});

describe('Subscription', () => {
	test('Get returns the full subscription detail', async () => {
		const run = await runBilling(sandbox, {
			resource: 'subscription',
			operation: 'get',
			subscriptionId: sandbox.fixtures.subscriptionId,
			output: 'raw',
		});
		expect(run.error).toBeUndefined();
		const request = onlyRequest();
		expect(request.method).toBe('GET');
		expect(request.path).toBe(`/api/v2/subscriptions/${sandbox.fixtures.subscriptionId}`);
		expect(run.json).toHaveLength(1);
		expect(run.json[0]).toMatchObject({ subscription_id: sandbox.fixtures.subscriptionId });
		expect(Array.isArray(run.json[0].line_items)).toBe(true);
		expect(Array.isArray(run.json[0].billing_schedule)).toBe(true);
	});

	test('Get Sign URL posts the redirect URL and returns the signing URL', async () => {
		const run = await runBilling(sandbox, {
			resource: 'subscription',
			operation: 'getSignUrl',
			subscriptionId: sandbox.fixtures.openOrderSubscriptionId,
			redirectUrl: 'https://example.com/thanks',
		});
		expect(run.error).toBeUndefined();
		const request = onlyRequest();
		expect(request.method).toBe('POST');
		expect(request.path).toMatch(/^\/api\/v2\/subscriptions\/[\w-]+\/sign$/);
		expect(request.body).toEqual({ redirect_url: 'https://example.com/thanks' });
		expect(typeof run.json[0].url).toBe('string');
	});
});

describe('Subscription Recast', () => {
	test('Delete soft-deletes the order: stage CLOSED_DELETE, the order is kept', async () => {
		const { subscriptionId, recastOrderId } = sandbox.fixtures;
		const run = await runBilling(sandbox, {
			resource: 'subscriptionRecast',
			operation: 'delete',
			subscriptionId,
			orderId: recastOrderId,
		});
		expect(run.error).toBeUndefined();
		const request = onlyRequest();
		expect(request.method).toBe('DELETE');
		expect(request.path).toBe(`/api/v2/subscriptions/${subscriptionId}/recast/${recastOrderId}`);
		expect(run.json[0]).toMatchObject({ deleted: true, order_id: recastOrderId });
		expect(typeof run.json[0].message).toBe('string');

		const list = await runBilling(sandbox, { resource: 'subscriptionRecast', operation: 'getMany', subscriptionId, returnAll: true });
		const order = list.json.find((entry) => entry.order_id === recastOrderId);
		expect(order).toMatchObject({ stage: 'CLOSED_DELETE' });
	});
});

describe('Payment Method', () => {
	test("Set Default makes an attached payment method the customer's default", async () => {
		const { subscriptionId, paymentMethodId } = sandbox.fixtures;
		const run = await runBilling(sandbox, {
			resource: 'paymentMethod',
			operation: 'setDefault',
			subscriptionId,
			paymentMethodId,
		});
		expect(run.error).toBeUndefined();
		const request = onlyRequest();
		expect(request.method).toBe('PUT');
		expect(request.path).toBe(`/api/v2/subscriptions/${subscriptionId}/payment-methods/default`);
		expect(request.body).toEqual({ payment_method_id: paymentMethodId });
		expect(run.json).toEqual([{ subscription_id: subscriptionId, default_payment_method_id: paymentMethodId }]);
	});
});

describe('Usage', () => {
	test('Update sends transaction id, value and key/value properties', async () => {
		const run = await runBilling(sandbox, {
			resource: 'usage',
			operation: 'update',
			transactionId: sandbox.fixtures.usageTransactionId,
			value: 42.5,
			propertiesInput: 'fields',
			propertiesUi: { pair: [{ key: 'region', value: 'eu' }, { key: 'source', value: 'n8n' }] },
		});
		expect(run.error).toBeUndefined();
		const request = onlyRequest();
		expect(request.method).toBe('PATCH');
		expect(request.path).toBe('/api/v2/usage');
		expect(request.body).toEqual({
			transaction_id: sandbox.fixtures.usageTransactionId,
			value: 42.5,
			properties: { region: 'eu', source: 'n8n' },
		});
		// The API answers only a message: the item also shows what was written.
		expect(run.json).toEqual([
			{
				message: 'Usage entry updated successfully.',
				transaction_id: sandbox.fixtures.usageTransactionId,
				value: 42.5,
				properties: { region: 'eu', source: 'n8n' },
			},
		]);
		expect((sandbox.state.usage as Map<string, IDataObject>).get(sandbox.fixtures.usageTransactionId)).toMatchObject({
			value: 42.5,
			properties: { region: 'eu', source: 'n8n' },
		});
	});

	test('Update without properties writes only the value, and the item shows only what was written', async () => {
		const before = (sandbox.state.usage as Map<string, IDataObject>).get(sandbox.fixtures.usageTransactionId)!.properties;
		const run = await runBilling(sandbox, { resource: 'usage', operation: 'update', transactionId: sandbox.fixtures.usageTransactionId, value: 9 });
		expect(run.error).toBeUndefined();
		expect(onlyRequest().body).toEqual({ transaction_id: sandbox.fixtures.usageTransactionId, value: 9 });
		expect(run.json).toEqual([{ message: 'Usage entry updated successfully.', transaction_id: sandbox.fixtures.usageTransactionId, value: 9 }]);
		expect((sandbox.state.usage as Map<string, IDataObject>).get(sandbox.fixtures.usageTransactionId)!.properties).toEqual(before);
	});

	test('Update takes properties as JSON', async () => {
		const run = await runBilling(sandbox, {
			resource: 'usage',
			operation: 'update',
			transactionId: sandbox.fixtures.usageTransactionId,
			value: 7,
			propertiesInput: 'json',
			propertiesJson: '{"seats": 3, "tags": ["a"]}',
		});
		expect(run.error).toBeUndefined();
		expect(onlyRequest().body).toEqual({
			transaction_id: sandbox.fixtures.usageTransactionId,
			value: 7,
			properties: { seats: 3, tags: ['a'] },
		});
	});

	test('Delete sends the transaction id as a JSON body and reports the deletion', async () => {
		const run = await runBilling(sandbox, {
			resource: 'usage',
			operation: 'delete',
			transactionId: sandbox.fixtures.usageTransactionId,
		});
		expect(run.error).toBeUndefined();
		const request = onlyRequest();
		expect(request.method).toBe('DELETE');
		expect(request.path).toBe('/api/v2/usage');
		expect(request.contentType).toMatch(/^application\/json/);
		expect(request.body).toEqual({ transaction_id: sandbox.fixtures.usageTransactionId });
		expect(run.json[0]).toMatchObject({ deleted: true, transaction_id: sandbox.fixtures.usageTransactionId });
	});
});

describe('Many input items', () => {
	test('each item gives its own request and its output is paired with it', async () => {
		const ids = ['crm-a', 'crm-b', 'crm-c'];
		const run = await runBilling(
			sandbox,
			{
				resource: 'customer',
				operation: 'create',
				name: '={{ "Batch customer " + $json.externalId }}',
				additionalFields: { externalId: '={{ $json.externalId }}' },
			},
			{ items: ids.map((externalId) => ({ externalId })) },
		);
		expect(run.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body?.external_id).sort()).toEqual(ids);
		expect(run.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(run.json.map((customer) => customer.external_id)).toEqual(ids);
	});
});
