import { useSandbox } from './helpers/billing.cjs';

// The sandbox's invoice timeline (test/sandbox/world/invoiceTimeline.js) over HTTP, as the API shows it.
const sandbox = useSandbox();
const admin = () => ({ 'X-SANDBOX-ADMIN-TOKEN': sandbox.adminToken });

async function act(action: string, body: object) {
	const response = await fetch(
		`${sandbox.baseUrl.replace(/\/api\/v2$/, '')}/__sandbox/world/${action}`,
		{
			method: 'POST',
			headers: { 'Content-Type': 'application/json', ...admin() },
			body: JSON.stringify(body),
		},
	);
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function invoice(id: string): Promise<Record<string, unknown>> {
	const response = await fetch(`${sandbox.baseUrl}/invoices/search`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', 'X-SERVICE-KEY': sandbox.apiKey },
		body: JSON.stringify({ customer_id: sandbox.fixtures.customerId, invoice_ids: [id] }),
	});
	return ((await response.json()) as { results: Array<Record<string, unknown>> }).results[0];
}

test('failed payments, a refund and a second payment appear on the invoice as the API lists payments', async () => {
	const { body } = await act('issue-invoice', {
		customer_id: sandbox.fixtures.customerId,
		amount: 30,
	});
	const id = body.invoice_id as string;
	expect(await act('refund-invoice', { invoice_id: id })).toEqual({
		status: 400,
		body: { error: expect.objectContaining({ code: 'ERR_BAD_REQUEST' }) },
	});
	const failed = await act('fail-payment', { invoice_id: id, error: 'card_declined' });
	expect(failed).toEqual({
		status: 200,
		body: expect.objectContaining({ invoice_id: id, status: 'OPEN', attempts: 1 }),
	});
	expect((await invoice(id)).payments).toEqual([
		expect.objectContaining({
			payment_id: failed.body.payment_id,
			paid_amount: 30,
			error: 'card_declined',
		}),
	]);

	await act('pay-invoice', { invoice_id: id });
	expect(await act('refund-invoice', { invoice_id: id })).toEqual({
		status: 200,
		body: expect.objectContaining({ status: 'OPEN' }),
	});
	const refunded = await invoice(id);
	expect(refunded).toMatchObject({ fully_paid_at: null, remaining_amount: 30 });
	expect(
		(refunded.payments as Array<Record<string, unknown>>).map((payment) => [
			payment.paid_amount,
			payment.error,
		]),
	).toEqual([
		[30, 'card_declined'],
		[30, null],
		[-30, null],
	]);
	await act('pay-invoice', { invoice_id: id });
	const paidAgain = (await invoice(id)).payments as Array<Record<string, unknown>>;
	expect(paidAgain.map((payment) => payment.paid_amount)).toEqual([30, 30, -30, 30]);
	expect(new Set(paidAgain.map((payment) => payment.payment_id)).size).toBe(4);
});

test('an invoice issued in the future reaches its issue time', async () => {
	const ahead = new Date(Date.now() + 14 * 86_400_000).toISOString();
	const { body } = await act('issue-invoice', {
		customer_id: sandbox.fixtures.customerId,
		amount: 5,
		issued_at: ahead,
	});
	expect(
		Date.parse((await invoice(body.invoice_id as string)).issued_at as string),
	).toBeGreaterThan(Date.now());
	expect((await act('pass-issue-time', { invoice_id: body.invoice_id })).status).toBe(200);
	expect(
		Date.parse((await invoice(body.invoice_id as string)).issued_at as string),
	).toBeLessThanOrEqual(Date.now());
});
