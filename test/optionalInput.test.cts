/**
 * Where the contract is silent the node is not stricter than it, and it never sends a value the
 * user did not give: an optional redirect URL, added-but-empty customer fields, a usage value
 * with no default, and the sort order of plans as the editor shows it.
 */
import type { IDataObject } from 'n8n-workflow';
import { SubscriptionBilling } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { runBilling, useSandbox, type BillingRun } from './helpers/billing.cjs';

const sandbox = useSandbox();

const REFUSED = 'Nothing was sent to the API for this item. Correct the value and run again.';

function expectRefusedBeforeSending(run: BillingRun, message: string): void {
	expect(run.items).toHaveLength(0);
	expect(run.error?.message).toBe(message);
	expect(run.error?.description).toBe(REFUSED);
	expect(sandbox.requests).toHaveLength(0);
}

function customerNamed(name: string): IDataObject | undefined {
	return [...(sandbox.state.customers as Map<string, IDataObject>).values()].find((customer) => customer.name === name);
}

describe('Subscription → Get Sign URL: the redirect URL is optional', () => {
	test('left empty, the body is an empty JSON object and the signing URL comes back', async () => {
		const { openOrderSubscriptionId } = sandbox.fixtures;
		const run = await runBilling(sandbox, { resource: 'subscription', operation: 'getSignUrl', subscriptionId: openOrderSubscriptionId });
		expect(run.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		const [request] = sandbox.requests;
		expect({ method: request.method, path: request.path, query: request.query }).toEqual({
			method: 'POST',
			path: `/api/v2/subscriptions/${openOrderSubscriptionId}/sign`,
			query: {},
		});
		expect(request.contentType).toBe('application/json');
		expect(request.rawBody).toBe('{}');
		expect(request.status).toBe(200);
		expect(run.json).toEqual([{ url: expect.stringMatching(new RegExp(`/sign/subscription-${openOrderSubscriptionId}$`)) }]);
	});

	test('an expression that gives nothing is the same as leaving it empty', async () => {
		const { openOrderSubscriptionId } = sandbox.fixtures;
		const run = await runBilling(
			sandbox,
			{ resource: 'subscription', operation: 'getSignUrl', subscriptionId: openOrderSubscriptionId, redirectUrl: '={{ $json.returnTo }}' },
			{ items: [{}] },
		);
		expect(run.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.rawBody)).toEqual(['{}']);
		expect(run.json).toHaveLength(1);
	});

	test('given, it is sent and the signer returns to it', async () => {
		const { openOrderSubscriptionId } = sandbox.fixtures;
		const run = await runBilling(sandbox, {
			resource: 'subscription',
			operation: 'getSignUrl',
			subscriptionId: openOrderSubscriptionId,
			redirectUrl: 'https://example.com/thank-you',
		});
		expect(run.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([{ redirect_url: 'https://example.com/thank-you' }]);
		expect(String(run.json[0].url)).toContain(`redirect_url=${encodeURIComponent('https://example.com/thank-you')}`);
	});

	test('an upgrade sign URL still needs one (the public reference requires it): refused before sending', async () => {
		const { subscriptionId, upgradeOrderId } = sandbox.fixtures;
		const run = await runBilling(sandbox, {
			resource: 'subscriptionUpgrade',
			operation: 'getSignUrl',
			subscriptionId,
			orderId: upgradeOrderId,
			redirectUrl: '={{ "" }}',
		});
		expectRefusedBeforeSending(run, 'Redirect URL in item 0: is required');
	});
});

describe('Customer → Create and Update leave added-but-empty fields out', () => {
	test('Create sends only the fields with a value, and the customer has no empty legal name', async () => {
		const run = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'create',
			name: 'Empty Fields Ltd',
			additionalFields: { legalName: '', taxId: '', externalId: 'crm-77', address: { city: 'Oslo', line1: '', zip: '' } },
		});
		expect(run.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([{ name: 'Empty Fields Ltd', external_id: 'crm-77', address: { city: 'Oslo' } }]);
		expect(run.json[0]).toMatchObject({ name: 'Empty Fields Ltd', legal_name: null, tax_id: null, external_id: 'crm-77' });
		expect(customerNamed('Empty Fields Ltd')).toMatchObject({ legal_name: null, tax_id: null, address: { city: 'Oslo' } });
	});

	test('Create with an address whose fields are all empty sends no address', async () => {
		const run = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'create',
			name: 'No Address Ltd',
			additionalFields: { address: { line1: '', country: '' } },
		});
		expect(run.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([{ name: 'No Address Ltd' }]);
		expect(customerNamed('No Address Ltd')).toMatchObject({ address: null });
	});

	test('Update sends only the fields with a value and keeps the others as they were', async () => {
		const { customerId } = sandbox.fixtures;
		const before = { ...(sandbox.state.customers as Map<string, IDataObject>).get(customerId) };
		const run = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'update',
			customerId,
			updateFields: { legalName: '', taxId: 'NO-123' },
		});
		expect(run.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([{ tax_id: 'NO-123' }]);
		expect(run.json[0]).toMatchObject({ tax_id: 'NO-123', legal_name: before.legal_name });
	});

	test('Update whose only fields are empty is refused before sending', async () => {
		const run = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'update',
			customerId: sandbox.fixtures.customerId,
			updateFields: { legalName: '', address: { city: '' } },
		});
		expect(run.items).toHaveLength(0);
		expect(run.error?.message).toMatch(/^Update Fields in item 0: give at least one of /);
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('Usage → Update: the value has no default', () => {
	function usageValue(transactionId: string): unknown {
		return ((sandbox.state.usage as Map<string, IDataObject>).get(transactionId) as IDataObject).value;
	}

	test('the editor shows an empty, required Value on create and update (a default of null, which its number box keeps; "" would be stored as 0)', () => {
		const value = new SubscriptionBilling().description.properties.find((property) => property.name === 'value');
		expect(value).toMatchObject({ displayName: 'Value', type: 'number', required: true, default: null });
		expect(value?.displayOptions?.show).toMatchObject({ resource: ['usage'], operation: ['create', 'update'] });
	});

	test('left at its default, it is refused, naming Value and the item; nothing is sent', async () => {
		const { usageTransactionId } = sandbox.fixtures;
		const before = usageValue(usageTransactionId);
		const run = await runBilling(sandbox, { resource: 'usage', operation: 'update', transactionId: usageTransactionId });
		expectRefusedBeforeSending(run, 'Value in item 0: is required');
		expect(usageValue(usageTransactionId)).toBe(before);
	});

	test('an expression that gives no value is refused, naming Value and the item; nothing is sent', async () => {
		const { usageTransactionId } = sandbox.fixtures;
		const before = usageValue(usageTransactionId);
		const run = await runBilling(
			sandbox,
			{ resource: 'usage', operation: 'update', transactionId: usageTransactionId, value: '={{ $json.quantity }}' },
			{ items: [{ note: 'no quantity here' }] },
		);
		expectRefusedBeforeSending(run, 'Value in item 0: is required');
		expect(usageValue(usageTransactionId)).toBe(before);
	});

	test('a value of 0 given on purpose is sent and applied', async () => {
		const { usageTransactionId } = sandbox.fixtures;
		const run = await runBilling(sandbox, { resource: 'usage', operation: 'update', transactionId: usageTransactionId, value: 0 });
		expect(run.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body)).toEqual([{ transaction_id: usageTransactionId, value: 0 }]);
		expect(usageValue(usageTransactionId)).toBe(0);
		expect(run.json).toHaveLength(1);
	});
});

describe('Plan → Get Many: the sort the editor shows is the sort sent', () => {
	test('Sort is a top-level option whose default is Created, Newest First', () => {
		const sort = new SubscriptionBilling().description.properties.find((property) => property.name === 'ordering' && property.displayOptions?.show?.resource?.includes('plan'));
		expect(sort).toMatchObject({ displayName: 'Sort', type: 'options', default: '-created_at' });
		expect(sort?.options).toEqual(expect.arrayContaining([{ name: 'Created, Newest First', value: '-created_at' }]));
	});

	test('left at its default, ordering=-created_at is sent and the plans come newest first', async () => {
		const run = await runBilling(sandbox, { resource: 'plan', operation: 'getMany', returnAll: true });
		expect(run.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.query)).toEqual([{ ordering: '-created_at', limit: '1000' }]);
		const created = run.json.map((plan) => String(plan.created_at));
		expect(created.length).toBeGreaterThan(1);
		expect(created).toEqual([...created].sort().reverse());
	});

	test('Oldest First sends ordering=created_at and the plans come oldest first', async () => {
		const run = await runBilling(sandbox, { resource: 'plan', operation: 'getMany', ordering: 'created_at', limit: 2 });
		expect(run.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.query)).toEqual([{ ordering: 'created_at', limit: '2' }]);
		const created = run.json.map((plan) => String(plan.created_at));
		expect(created).toHaveLength(2);
		expect(created).toEqual([...created].sort());
	});
});
