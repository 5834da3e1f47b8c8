import { runBilling, useSandbox } from './helpers/billing.cjs';

const sandbox = useSandbox();

test('a wrong API key fails with the API code and message, and the key is not in the error', async () => {
	const run = await runBilling(
		sandbox,
		{ resource: 'subscription', operation: 'get', subscriptionId: sandbox.fixtures.subscriptionId },
		{ apiKey: 'wrong-key-0123456789' },
	);
	expect(run.items).toHaveLength(0);
	expect(run.error?.message).toBe('ERR_UNAUTHORIZED: Invalid or missing API key.');
	expect(run.error?.description).toContain('HTTP 401');
	// What to check: the key and the environment of the credential.
	expect(run.error?.description).toMatch(/check the API Key of the Subscription Billing API credential, and that it belongs to the environment chosen in its Environment/);
	expect(run.error?.httpCode).toBe('401');
	expect(JSON.stringify(run.error)).not.toContain('wrong-key-0123456789');
	expect(sandbox.requests[0].headers['x-service-key']).toBe('wrong-key-0123456789');
});

test('a missing subscription fails with ERR_NOT_FOUND and the error id of the API', async () => {
	const run = await runBilling(sandbox, { resource: 'subscription', operation: 'get', subscriptionId: 'no-such-subscription' });
	expect(run.error?.message).toMatch(/^ERR_NOT_FOUND: /);
	expect(run.error?.description).toMatch(/HTTP 404 .*error id [0-9a-f-]{36}$/);
	expect(run.error?.context?.itemIndex).toBe(0);
});

test('a missing customer fails with ERR_NOT_FOUND', async () => {
	const run = await runBilling(sandbox, {
		resource: 'invoice',
		operation: 'getManyForCustomer',
		customerId: 'no-such-customer',
		returnAll: true,
	});
	expect(run.error?.message).toMatch(/^ERR_NOT_FOUND: /);
	expect(run.error?.description).toContain('HTTP 404 from GET /api/v2/customers/no-such-customer/invoices');
});

test('a body the API rejects fails with ERR_BAD_REQUEST and its message', async () => {
	const run = await runBilling(sandbox, {
		resource: 'paymentMethod',
		operation: 'setDefault',
		subscriptionId: sandbox.fixtures.subscriptionId,
		paymentMethodId: sandbox.fixtures.foreignPaymentMethodId,
	});
	expect(run.error?.message).toMatch(/^ERR_BAD_REQUEST: .*payment_method_id|^ERR_BAD_REQUEST: /);
	expect(run.error?.description).toContain('HTTP 400');
});

test('a duplicate customer name is the API\'s 400, surfaced with its message', async () => {
	const run = await runBilling(sandbox, { resource: 'customer', operation: 'create', name: sandbox.fixtures.customerName });
	expect(run.error?.message).toMatch(/^ERR_BAD_REQUEST: .+/);
	expect(sandbox.requests).toHaveLength(1);
});

test('with Continue On Fail, failing items become error items paired with their input and the others go on', async () => {
	const ids = [sandbox.fixtures.subscriptionId, 'no-such-subscription', '../escape', sandbox.fixtures.noPhasesSubscriptionId];
	const run = await runBilling(
		sandbox,
		{ resource: 'subscription', operation: 'get', subscriptionId: '={{ $json.id }}' },
		{ items: ids.map((id) => ({ id })), continueOnFail: true },
	);
	expect(run.error).toBeUndefined();
	expect(run.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
	expect(run.json[0].subscription_id).toBe(ids[0]);
	expect(run.json[3].subscription_id).toBe(ids[3]);
	expect(String(run.json[1].error)).toMatch(/^ERR_NOT_FOUND: /);
	expect(String(run.json[2].error)).toBe('Subscription in item 2: "../escape" may contain only letters, digits and hyphens');
	expect(sandbox.requests.map((request) => request.path)).toEqual(
		expect.arrayContaining([`/api/v2/subscriptions/${ids[0]}`, '/api/v2/subscriptions/no-such-subscription', `/api/v2/subscriptions/${ids[3]}`]),
	);
	expect(sandbox.requests).toHaveLength(3);
});
