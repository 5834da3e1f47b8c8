import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from './helpers/billing.cjs';
import { activeTrigger, apiRequests, publishedAndSwept } from './helpers/trigger.cjs';

// Invoice Payment Failed (issue 21): a payment with an error appears on an invoice.
const sandbox = useSandbox();
beforeEach(() => sandbox.clearRequests());

const oneCustomer = (customerId: string) => ({
	scope: 'customer',
	customerId: { __rl: true, mode: 'id', value: customerId },
});
const summary = (item: IDataObject) => [
	item.event,
	(item.invoice as IDataObject).invoice_id,
	item.error,
	item.attempt_count,
	(item.payment as IDataObject).payment_id,
];

function openInvoiceOf(customerId: string): string {
	const list = (
		sandbox.state.invoicesByCustomer as Map<
			string,
			Array<{ invoice_id: string; paidMs: number | null; remaining: number }>
		>
	).get(customerId)!;
	return list.find((entry) => entry.paidMs === null && entry.remaining > 0)!.invoice_id;
}

test('one customer: each failed attempt once, with the error, the attempt count and the invoice; failures before activation are not reported', async () => {
	const customer_id = sandbox.fixtures.customerId;
	const { invoice_id } = sandbox.world.issueInvoice({
		customer_id,
		amount: 80,
		issued_at: new Date(Date.now() - 120_000).toISOString(),
	});
	// a minute before publishing (a failure in the same second as publishing would be reported)
	sandbox.world.failPayment({
		invoice_id,
		error: 'insufficient_funds',
		paid_at: new Date(Date.now() - 60_000).toISOString(),
	});
	const trigger = activeTrigger(sandbox, {
		events: ['invoicePaymentFailed'],
		...oneCustomer(customer_id),
	});
	expect((await trigger.poll()).items).toBeNull();

	const second = sandbox.world.failPayment({ invoice_id, error: 'card_declined' });
	sandbox.clearRequests();
	const { items } = await trigger.poll();
	expect(items?.map(summary)).toEqual([
		['invoicePaymentFailed', invoice_id, 'card_declined', 2, second.payment_id],
	]);
	expect(items![0]).toEqual({
		event: 'invoicePaymentFailed',
		customer_id,
		subscription_id: (sandbox.state.invoicesById as Map<string, IDataObject>).get(invoice_id)!
			.subscription_id,
		invoice_id,
		detected_at: expect.stringMatching(/Z$/),
		error: 'card_declined',
		attempt_count: 2,
		payment: expect.objectContaining({
			payment_id: second.payment_id,
			paid_amount: 80,
			error: 'card_declined',
		}),
		invoice: expect.objectContaining({
			invoice_id,
			status: 'OPEN',
			remaining_amount: 80,
			payments: [
				expect.objectContaining({ error: 'insufficient_funds' }),
				expect.objectContaining({ error: 'card_declined' }),
			],
		}),
	});
	// The customer's first visit reads every invoice once (1,000 a page) to find the open ones.
	expect(apiRequests(sandbox)).toEqual([
		`GET /customers/${customer_id}/invoices?ordering=-issued_at&limit=1000`,
	]);
	expect((await trigger.poll()).items).toBeNull();

	// Two more attempts between polls, then a payment that succeeds: the two failures, nothing else.
	const third = sandbox.world.failPayment({ invoice_id, error: 'expired_card' });
	const fourth = sandbox.world.failPayment({ invoice_id, error: 'do_not_honor' });
	sandbox.world.payInvoice({ invoice_id });
	expect((await trigger.poll()).items?.map(summary)).toEqual([
		['invoicePaymentFailed', invoice_id, 'expired_card', 3, third.payment_id],
		['invoicePaymentFailed', invoice_id, 'do_not_honor', 4, fourth.payment_id],
	]);
	expect((await trigger.poll()).items).toBeNull();
});

test('all customers: a failure on an old open invoice (found by Invoice Search) and on an invoice that appeared with one, each once', async () => {
	const trigger = activeTrigger(sandbox, { events: ['invoicePaymentFailed'], scope: 'all' });
	await publishedAndSwept(trigger);
	const old = openInvoiceOf(sandbox.fixtures.bigCustomerId);
	const failedOld = sandbox.world.failPayment({ invoice_id: old });
	const fresh = sandbox.world.issueInvoice({
		customer_id: sandbox.fixtures.customerId,
		amount: 12,
	});
	const failedFresh = sandbox.world.failPayment({
		invoice_id: fresh.invoice_id,
		error: 'processing_error',
	});
	sandbox.clearRequests();
	const { items } = await trigger.poll();
	expect(items?.map(summary)).toEqual([
		['invoicePaymentFailed', fresh.invoice_id, 'processing_error', 1, failedFresh.payment_id],
		['invoicePaymentFailed', old, 'card_declined', 1, failedOld.payment_id],
	]);
	expect(
		apiRequests(sandbox).filter((request) => request.startsWith('POST /invoices/search')),
	).not.toHaveLength(0);
	expect((await trigger.poll()).items).toBeNull();
});

test('Fetch Test Event: the most recent failed payment, state untouched', async () => {
	const customer_id = sandbox.fixtures.customerId;
	const trigger = activeTrigger(sandbox, {
		events: ['invoicePaymentFailed'],
		...oneCustomer(customer_id),
	});
	expect((await trigger.fetchTestEvent()).items).toEqual([
		{
			event: 'invoicePaymentFailed',
			no_example:
				'Invoice Payment Failed: no example to show. Fetch Test Event found no invoice with a failed payment in the newest 100 invoices of the chosen customer; ' +
				'to see one here, wait until a payment attempt on an invoice fails, then fetch again. ' +
				'To test the steps after the trigger on another customer who has one: choose that customer and fetch again, pin the item (the pin in the output panel), then choose the customer to watch again. ' +
				'Test runs use the pinned item; the published workflow does not. This item is not an event and has no IDs: once the workflow is active, ' +
				'each Invoice Payment Failed is emitted as an item with the keys event, customer_id, subscription_id, invoice_id, detected_at, error, attempt_count, payment, invoice (invoice is the invoice as the API returns it).',
		},
	]);
	await trigger.poll();
	const before = trigger.nodeStaticData;
	const { invoice_id } = sandbox.world.issueInvoice({ customer_id, amount: 9 });
	const failed = sandbox.world.failPayment({ invoice_id, error: 'card_declined' });
	const manual = await trigger.fetchTestEvent();
	expect(manual.error).toBeUndefined();
	expect(manual.items?.map(summary)).toEqual([
		['invoicePaymentFailed', invoice_id, 'card_declined', 1, failed.payment_id],
	]);
	expect(trigger.nodeStaticData).toEqual(before);
	expect((await trigger.poll()).items?.map(summary)).toEqual([
		['invoicePaymentFailed', invoice_id, 'card_declined', 1, failed.payment_id],
	]);
});

test('Fetch Test Event of Invoice Overdue and Invoice Payment Failed with no failed payment anywhere: the overdue example, and an item saying Payment Failed has none', async () => {
	const trigger = activeTrigger(sandbox, {
		events: ['invoiceOverdue', 'invoicePaymentFailed'],
		scope: 'all',
	});
	const manual = await trigger.fetchTestEvent();
	expect(manual.error).toBeUndefined();
	expect(manual.items).toEqual([
		expect.objectContaining({
			event: 'invoiceOverdue',
			invoice: expect.objectContaining({ status: 'PAST_DUE' }),
		}),
		{
			event: 'invoicePaymentFailed',
			no_example: expect.stringMatching(
				/^Invoice Payment Failed: no example to show\. Fetch Test Event found no invoice with a failed payment in the newest 100 invoices of each customer; to see one here, /,
			),
		},
	]);
	expect(trigger.nodeStaticData).toEqual({});
});
