/** The sandbox world's customer and subscription changes (test/sandbox/world/customerChanges.js), over HTTP as the demo and end-to-end tests use them. */
import { useSandbox } from './helpers/billing.cjs';

const sandbox = useSandbox();

async function act(action: string, body: object) {
	const response = await fetch(
		`${sandbox.baseUrl.replace(/\/api\/v2$/, '')}/__sandbox/world/${action}`,
		{
			method: 'POST',
			headers: { 'Content-Type': 'application/json', 'X-SANDBOX-ADMIN-TOKEN': sandbox.adminToken },
			body: JSON.stringify(body),
		},
	);
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function api(path: string): Promise<Record<string, unknown>> {
	const response = await fetch(`${sandbox.baseUrl}${path}`, {
		headers: { 'X-SERVICE-KEY': sandbox.apiKey },
	});
	expect(response.status).toBe(200);
	return (await response.json()) as Record<string, unknown>;
}

const listed = async (customerId: string) =>
	((await api('/customers?limit=1000')).results as Array<Record<string, unknown>>).find(
		(c) => c.customer_id === customerId,
	)!;

test('update-customer: the customer list shows the new values; bad input is a 400 that changes nothing', async () => {
	const id = sandbox.fixtures.customerId;
	expect(
		await act('update-customer', {
			customer_id: id,
			tax_id: 'US-99',
			address: { city: 'Chicago' },
		}),
	).toEqual({ status: 200, body: { customer_id: id, changed: ['tax_id', 'address'] } });
	expect(await listed(id)).toMatchObject({
		tax_id: 'US-99',
		address: { city: 'Chicago', country: 'US' },
	});
	expect((await act('update-customer', { customer_id: id, address: { town: 'x' } })).status).toBe(
		400,
	);
	expect(
		(await act('update-customer', { customer_id: id, name: sandbox.fixtures.bigCustomerName }))
			.status,
	).toBe(400);
	expect((await act('update-customer', { customer_id: id })).status).toBe(400);
	expect(await listed(id)).toMatchObject({
		name: sandbox.fixtures.customerName,
		address: { city: 'Chicago' },
	});
});

test('pause-subscription and resume-subscription: status and pauses as the API shows them', async () => {
	const id = sandbox.fixtures.noPhasesSubscriptionId;
	expect(await act('pause-subscription', { subscription_id: id })).toEqual({
		status: 200,
		body: { subscription_id: id, previous_status: 'ACTIVE', status: 'PAUSED' },
	});
	expect((await act('pause-subscription', { subscription_id: id })).status).toBe(400);
	let detail = await api(`/subscriptions/${id}`);
	expect(detail).toMatchObject({
		status: 'PAUSED',
		pauses: [{ paused_at: expect.stringMatching(/Z$/), resume_at: null }],
	});
	expect(
		(await act('resume-subscription', { subscription_id: id, status: 'SCHEDULED' })).status,
	).toBe(400);
	expect(await act('resume-subscription', { subscription_id: id })).toEqual({
		status: 200,
		body: { subscription_id: id, previous_status: 'PAUSED', status: 'ACTIVE' },
	});
	detail = await api(`/subscriptions/${id}`);
	expect(detail).toMatchObject({
		status: 'ACTIVE',
		pauses: [{ resume_at: expect.stringMatching(/Z$/) }],
	});
	expect((await act('resume-subscription', { subscription_id: id })).status).toBe(400);
});

test('update-subscription: name and dates in the customer list, renewal, auto-renewal and quantity in Subscription Get', async () => {
	const id = sandbox.fixtures.noPhasesSubscriptionId;
	const today = new Date().toISOString().slice(0, 10);
	const inTen = new Date(Date.parse(`${today}T00:00:00Z`) + 10 * 86_400_000)
		.toISOString()
		.slice(0, 10);
	const changed = await act('update-subscription', {
		subscription_id: id,
		name: 'Renamed',
		ends_in_days: 10,
		renews_at: '2030-01-01',
		auto_renews: true,
		quantity: 3,
	});
	expect(changed).toEqual({
		status: 200,
		body: {
			subscription_id: id,
			changed: ['name', 'ends_at', 'renews_at', 'auto_renews', 'quantity'],
		},
	});
	const summary = (
		(await listed(sandbox.fixtures.customerId)).subscriptions as Array<Record<string, unknown>>
	).find((s) => s.subscription_id === id);
	expect(summary).toMatchObject({ name: 'Renamed', ends_at: inTen });
	const detail = await api(`/subscriptions/${id}`);
	expect(detail).toMatchObject({ renews_at: '2030-01-01', auto_renews: true });
	expect((detail.line_items as Array<Record<string, unknown>>)[0]).toMatchObject({ quantity: 3 });
	for (const bad of [
		{ ends_at: '2030-13-01x' },
		{ ends_in_days: 1.5 },
		{ quantity: 0 },
		{ auto_renews: 'yes' },
		{ ends_at: null },
		{},
	]) {
		expect((await act('update-subscription', { subscription_id: id, ...bad })).status).toBe(400);
	}
	expect((await act('update-subscription', { subscription_id: 'nope', name: 'x' })).status).toBe(
		404,
	);
});
