import { useSandbox } from './helpers/billing.cjs';

const sandbox = useSandbox();

async function act(action: string, body: object, headers: Record<string, string>) {
	const response = await fetch(
		`${sandbox.baseUrl.replace(/\/api\/v2$/, '')}/__sandbox/world/${action}`,
		{
			method: 'POST',
			headers: { 'Content-Type': 'application/json', ...headers },
			body: JSON.stringify(body),
		},
	);
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test('the world routes live outside /api/v2 and need the admin token, never the API key', async () => {
	const body = { customer_id: sandbox.fixtures.customerId };
	const withKey = await act('issue-invoice', body, { 'X-SERVICE-KEY': sandbox.apiKey });
	expect(withKey.status).toBe(401);
	expect(withKey.body).toEqual({
		error: expect.objectContaining({
			code: 'ERR_UNAUTHORIZED',
			message: expect.stringContaining('X-SANDBOX-ADMIN-TOKEN'),
		}),
	});
	const withKeyAsToken = await act('issue-invoice', body, {
		'X-SANDBOX-ADMIN-TOKEN': sandbox.apiKey,
	});
	expect(withKeyAsToken.status).toBe(401);
	const underApi = await fetch(`${sandbox.baseUrl}/__sandbox/world/issue-invoice`, {
		method: 'POST',
		headers: {
			'Content-Type': 'application/json',
			'X-SERVICE-KEY': sandbox.apiKey,
			'X-SANDBOX-ADMIN-TOKEN': sandbox.adminToken,
		},
		body: JSON.stringify(body),
	});
	expect(underApi.status).toBe(404);
	expect(
		(sandbox.state.invoicesByCustomer as Map<string, unknown[]>).get(sandbox.fixtures.customerId),
	).toHaveLength(sandbox.fixtures.customerInvoiceCount as unknown as number);
});

test('issue, pay, let the due date pass and change a status over HTTP; the API shows each change', async () => {
	const admin = { 'X-SANDBOX-ADMIN-TOKEN': sandbox.adminToken };
	const issued = await act(
		'issue-invoice',
		{ customer_id: sandbox.fixtures.customerId, amount: 42.5 },
		admin,
	);
	expect(issued).toEqual({
		status: 200,
		body: expect.objectContaining({ customer_id: sandbox.fixtures.customerId, status: 'OPEN' }),
	});
	const id = issued.body.invoice_id as string;
	const read = async () => {
		const response = await fetch(`${sandbox.baseUrl}/invoices/search`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', 'X-SERVICE-KEY': sandbox.apiKey },
			body: JSON.stringify({ customer_id: sandbox.fixtures.customerId, invoice_ids: [id] }),
		});
		return ((await response.json()) as { results: Array<Record<string, unknown>> }).results[0];
	};
	expect(await read()).toMatchObject({
		invoice_id: id,
		grand_total: 42.5,
		remaining_amount: 42.5,
		fully_paid_at: null,
		status: 'OPEN',
	});
	expect((await act('pass-due-date', { invoice_id: id }, admin)).body).toMatchObject({
		status: 'PAST_DUE',
	});
	expect(Date.parse(String((await read()).due_at))).toBeLessThan(Date.now());
	expect((await act('pay-invoice', { invoice_id: id }, admin)).body).toMatchObject({
		status: 'PAID',
	});
	expect(await read()).toMatchObject({
		remaining_amount: 0,
		fully_paid_at: expect.stringMatching(/Z$/),
		status: 'PAID',
	});

	const changed = await act(
		'set-subscription-status',
		{ subscription_id: sandbox.fixtures.subscriptionId, status: 'PAUSED' },
		admin,
	);
	expect(changed.body).toEqual({
		subscription_id: sandbox.fixtures.subscriptionId,
		previous_status: 'ACTIVE',
		status: 'PAUSED',
	});
	const customer = await act('create-customer', { name: 'World Customer' }, admin);
	expect(customer.status).toBe(200);
	expect(
		(
			await act(
				'set-subscription-status',
				{ subscription_id: sandbox.fixtures.subscriptionId, status: 'ASLEEP' },
				admin,
			)
		).status,
	).toBe(400);
	expect((await act('unknown-action', {}, admin)).status).toBe(404);
});
