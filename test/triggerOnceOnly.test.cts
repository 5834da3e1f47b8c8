import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from './helpers/billing.cjs';
import { activeTrigger, apiRequests, publishedAndSwept } from './helpers/trigger.cjs';
import { skippedPollsWaiting } from '../nodes/SubscriptionBilling/trigger/pollLock';

// Issue 20 §1: once only, whatever order the API answers in and whenever things happen.
// Pages of up to 100 invoices, as the trigger asks for them.
const sandbox = useSandbox();
beforeEach(() => sandbox.clearRequests());

const DAY_MS = 86_400_000;
const invoiceIdOf = (item: IDataObject) => (item.invoice as IDataObject).invoice_id as string;
const isoSecondsAgo = (seconds: number) =>
	new Date(Math.floor(Date.now() / 1000) * 1000 - seconds * 1000)
		.toISOString()
		.replace('.000Z', 'Z');
/** Waits for a condition, checking once per turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
const oneCustomer = (customerId: string) => ({
	scope: 'customer',
	customerId: { __rl: true, mode: 'id', value: customerId },
});

describe('doubled while paging', () => {
	test.each([
		['newInvoice', () => undefined],
		['invoicePaid', (id: string) => sandbox.world.payInvoice({ invoice_id: id })],
	])(
		'%s: 150 new invoices of one customer, one more issued while its second page is read: each once',
		async (event, afterIssue) => {
			const customer_id = sandbox.fixtures.customerId;
			const trigger = activeTrigger(sandbox, { events: [event], ...oneCustomer(customer_id) });
			await publishedAndSwept(trigger);
			// Issued an hour ago, one second apart: the newest first, 100 on the first page.
			const issued = Array.from(
				{ length: 150 },
				(_, n) =>
					sandbox.world.issueInvoice({
						customer_id,
						amount: n + 1,
						issued_at: isoSecondsAgo(3600 - n),
					}).invoice_id,
			);
			issued.forEach((id) => afterIssue(id));
			let late: string | undefined;
			sandbox.world.onRequest(
				(request) =>
					request.path.endsWith(`/customers/${customer_id}/invoices`) &&
					request.query.offset === '100',
				() => {
					late = sandbox.world.issueInvoice({ customer_id, amount: 999 }).invoice_id;
					afterIssue(late);
				},
			);
			sandbox.clearRequests();
			const { items, error } = await trigger.poll();
			expect(error).toBeUndefined();
			expect(late).toBeDefined();
			// The late invoice moved every later invoice one place down: the second page began with the first page's last.
			expect(apiRequests(sandbox)).toEqual([
				`GET /customers/${customer_id}/invoices?ordering=-issued_at&limit=100`,
				`GET /customers/${customer_id}/invoices?ordering=-issued_at&limit=100&offset=100`,
			]);
			const ids = items!.map(invoiceIdOf);
			expect(ids).toHaveLength(150);
			expect([...ids].sort()).toEqual([...issued].sort());
			expect((await trigger.poll()).items?.map(invoiceIdOf)).toEqual([late]);
			expect((await trigger.poll()).items).toBeNull();
		},
	);
});

describe('an issue time in the future', () => {
	test('a milestone invoice dated two weeks ahead does not hide the invoices issued before that date; it is reported when its issue time comes', async () => {
		const customer_id = sandbox.fixtures.customerId;
		const trigger = activeTrigger(sandbox, { events: ['newInvoice'], ...oneCustomer(customer_id) });
		await trigger.poll();
		const ahead = sandbox.world.issueInvoice({
			customer_id,
			amount: 500,
			issued_at: new Date(Date.now() + 14 * DAY_MS).toISOString(),
		});
		expect((await trigger.poll()).items).toBeNull();
		const ordinary = sandbox.world.issueInvoice({ customer_id, amount: 20 });
		expect((await trigger.poll()).items?.map(invoiceIdOf)).toEqual([ordinary.invoice_id]);
		const next = sandbox.world.issueInvoice({ customer_id, amount: 30 });
		expect((await trigger.poll()).items?.map(invoiceIdOf)).toEqual([next.invoice_id]);
		sandbox.world.passIssueTime({ invoice_id: ahead.invoice_id });
		expect((await trigger.poll()).items?.map(invoiceIdOf)).toEqual([ahead.invoice_id]);
		expect((await trigger.poll()).items).toBeNull();
	});

	test('its payment is reported even before its issue time', async () => {
		const customer_id = sandbox.fixtures.customerId;
		const trigger = activeTrigger(sandbox, {
			events: ['invoicePaid'],
			...oneCustomer(customer_id),
		});
		await trigger.poll();
		const ahead = sandbox.world.issueInvoice({
			customer_id,
			amount: 500,
			issued_at: new Date(Date.now() + 14 * DAY_MS).toISOString(),
		});
		expect((await trigger.poll()).items).toBeNull();
		sandbox.world.payInvoice({ invoice_id: ahead.invoice_id });
		expect(
			(await trigger.poll()).items?.map((item) => [invoiceIdOf(item), item.previous_status]),
		).toEqual([[ahead.invoice_id, 'OPEN']]);
	});
});

describe('an issue time in the past', () => {
	test('an invoice published late, within the look-back window, is reported once, and so is its payment; one older than the window is not', async () => {
		const customer_id = sandbox.fixtures.bigCustomerId;
		const scope = oneCustomer(customer_id);
		const newInvoices = activeTrigger(sandbox, {
			events: ['newInvoice'],
			...scope,
			lookBackDays: 7,
		});
		const payments = activeTrigger(sandbox, { events: ['invoicePaid'], ...scope, lookBackDays: 7 });
		await publishedAndSwept(newInvoices);
		await publishedAndSwept(payments);
		const today = sandbox.world.issueInvoice({ customer_id, amount: 1 });
		expect((await newInvoices.poll()).items?.map(invoiceIdOf)).toEqual([today.invoice_id]);
		const late = sandbox.world.issueInvoice({
			customer_id,
			amount: 2,
			issued_at: isoSecondsAgo(3 * 86_400),
		});
		const tooLate = sandbox.world.issueInvoice({
			customer_id,
			amount: 3,
			issued_at: isoSecondsAgo(8 * 86_400),
		});
		expect((await newInvoices.poll()).items?.map(invoiceIdOf)).toEqual([late.invoice_id]);
		expect((await newInvoices.poll()).items).toBeNull();

		expect((await payments.poll()).items).toBeNull();
		sandbox.world.payInvoice({ invoice_id: late.invoice_id });
		sandbox.world.payInvoice({ invoice_id: tooLate.invoice_id });
		expect((await payments.poll()).items?.map(invoiceIdOf)).toEqual([late.invoice_id]);
		expect((await payments.poll()).items).toBeNull();
	});

	test('with all customers, a back-dated invoice of any customer is reported once', async () => {
		const trigger = activeTrigger(sandbox, { events: ['newInvoice'], scope: 'all' });
		await trigger.poll();
		const recent = sandbox.world.issueInvoice({
			customer_id: sandbox.fixtures.customerId,
			amount: 1,
		});
		expect((await trigger.poll()).items?.map(invoiceIdOf)).toEqual([recent.invoice_id]);
		const backdated = sandbox.world.issueInvoice({
			customer_id: sandbox.fixtures.customerId,
			amount: 2,
			issued_at: isoSecondsAgo(2 * 86_400),
		});
		expect((await trigger.poll()).items?.map(invoiceIdOf)).toEqual([backdated.invoice_id]);
		expect((await trigger.poll()).items).toBeNull();
	});
});

describe('overlapping polls', () => {
	test('a poll that starts while the last one still runs reads nothing, emits nothing and says so in the log', async () => {
		const trigger = activeTrigger(sandbox, { events: ['newInvoice'], scope: 'all' });
		await trigger.poll();
		const issued = sandbox.world.issueInvoice({
			customer_id: sandbox.fixtures.bigCustomerId,
			amount: 5,
		});
		// The first poll is held on its customer list: slow, as with many customers.
		const held = sandbox.world.holdRequests((request) => request.path.endsWith('/customers'));
		const slow = trigger.poll();
		await held.arrived;
		sandbox.clearRequests();
		const overlapping = trigger.poll();
		await until(() => skippedPollsWaiting() === 1);
		held.release();
		const [first, second] = await Promise.all([slow, overlapping]);
		expect(first.items?.map(invoiceIdOf)).toEqual([issued.invoice_id]);
		expect(second.error).toBeUndefined();
		expect(second.items).toBeNull();
		expect(second.logs).toEqual([
			expect.stringMatching(
				/^\[warn\] Subscription Billing Trigger "Subscription Billing Trigger" in workflow "Harness trigger workflow" \(harness-workflow\): poll skipped, the previous poll of this trigger \(started .+Z\) is still running/,
			),
		]);
		// Since the first poll's customer list came in, only its invoice requests followed: the second poll sent none.
		expect(
			apiRequests(sandbox).filter(
				(request) => !/^GET \/customers\/[^/]+\/invoices\?/.test(request),
			),
		).toEqual([]);
		expect((await trigger.poll()).items).toBeNull();
	});
});

test('a poll handed the state from before the last poll that emitted (n8n 2.41 with durable cursors: saved after the execution) does not emit again', async () => {
	const parameters = { events: ['newInvoice'], ...oneCustomer(sandbox.fixtures.customerId) };
	const trigger = activeTrigger(sandbox, parameters, undefined, { nodeId: 'one-trigger' });
	await trigger.poll();
	const issued = sandbox.world.issueInvoice({
		customer_id: sandbox.fixtures.customerId,
		amount: 6,
	});
	const before = JSON.parse(JSON.stringify(trigger.workflow.staticData)) as IDataObject;
	expect((await trigger.poll()).items?.map(invoiceIdOf)).toEqual([issued.invoice_id]);
	// The next poll starts from the state its scheduler read before that poll's state was saved.
	const stale = activeTrigger(sandbox, parameters, before, { nodeId: 'one-trigger' });
	expect((await stale.poll()).items).toBeNull();
	const next = sandbox.world.issueInvoice({ customer_id: sandbox.fixtures.customerId, amount: 7 });
	expect((await stale.poll()).items?.map(invoiceIdOf)).toEqual([next.invoice_id]);
});

test('after n8n restarts with durable cursors: polls handed the state saved before the restart, while the first poll that emitted is not saved yet, do not emit again', async () => {
	const parameters = { events: ['newInvoice'], ...oneCustomer(sandbox.fixtures.customerId) };
	const earlier = activeTrigger(sandbox, parameters, undefined, { nodeId: 'restarted-trigger' });
	await earlier.poll();
	// What the process before the restart saved: its own marks.
	const saved = JSON.parse(
		JSON.stringify(earlier.workflow.staticData).replace(
			/"pollBoot":"[^"]+"/g,
			'"pollBoot":"process-before-restart"',
		),
	) as IDataObject;
	const handedSaved = () =>
		activeTrigger(sandbox, parameters, JSON.parse(JSON.stringify(saved)) as IDataObject, {
			nodeId: 'restarted-trigger',
		});
	const issued = sandbox.world.issueInvoice({
		customer_id: sandbox.fixtures.customerId,
		amount: 8,
	});
	expect((await handedSaved().poll()).items?.map(invoiceIdOf)).toEqual([issued.invoice_id]);
	expect((await handedSaved().poll()).items).toBeNull();
	const next = sandbox.world.issueInvoice({ customer_id: sandbox.fixtures.customerId, amount: 9 });
	expect((await handedSaved().poll()).items?.map(invoiceIdOf)).toEqual([next.invoice_id]);
	expect((await handedSaved().poll()).items).toBeNull();
});

test('a state this process has never seen (another n8n process polled meanwhile) is taken as it is', async () => {
	const parameters = { events: ['newInvoice'], ...oneCustomer(sandbox.fixtures.customerId) };
	const here = activeTrigger(sandbox, parameters, undefined, { nodeId: 'shared-trigger' });
	await here.poll();
	const elsewhere = activeTrigger(sandbox, parameters, undefined, { nodeId: 'elsewhere' });
	await elsewhere.poll();
	const issued = sandbox.world.issueInvoice({
		customer_id: sandbox.fixtures.customerId,
		amount: 10,
	});
	expect((await here.poll()).items?.map(invoiceIdOf)).toEqual([issued.invoice_id]);
	// Another process's state, from before that invoice: this process has not moved on from it.
	const fromElsewhere = JSON.parse(
		JSON.stringify(elsewhere.workflow.staticData).replace(
			/"pollBoot":"[^"]+"/g,
			'"pollBoot":"another-process"',
		),
	) as IDataObject;
	const handed = activeTrigger(sandbox, parameters, fromElsewhere, { nodeId: 'shared-trigger' });
	expect((await handed.poll()).items?.map(invoiceIdOf)).toEqual([issued.invoice_id]);
});

describe('paid, refunded, paid again', () => {
	test('Invoice Paid is reported each time the invoice becomes fully paid', async () => {
		const customer_id = sandbox.fixtures.customerId;
		const trigger = activeTrigger(sandbox, {
			events: ['invoicePaid'],
			...oneCustomer(customer_id),
		});
		await trigger.poll();
		const { invoice_id } = sandbox.world.issueInvoice({ customer_id, amount: 40 });
		expect((await trigger.poll()).items).toBeNull();
		sandbox.world.payInvoice({ invoice_id, paid_at: isoSecondsAgo(120) });
		const first = await trigger.poll();
		expect(first.items?.map((item) => [invoiceIdOf(item), item.previous_status])).toEqual([
			[invoice_id, 'OPEN'],
		]);
		sandbox.world.refundInvoice({ invoice_id });
		expect((await trigger.poll()).items).toBeNull();
		const paidAgainAt = isoSecondsAgo(60);
		sandbox.world.payInvoice({ invoice_id, paid_at: paidAgainAt });
		const again = await trigger.poll();
		expect(
			again.items?.map((item) => [
				invoiceIdOf(item),
				item.previous_status,
				(item.invoice as IDataObject).fully_paid_at,
			]),
		).toEqual([[invoice_id, 'OPEN', paidAgainAt]]);
		expect(
			((again.items![0].invoice as IDataObject).payments as IDataObject[]).map(
				(payment) => payment.paid_amount,
			),
		).toEqual([40, -40, 40]);
		expect((await trigger.poll()).items).toBeNull();
	});

	test('refunded and paid again between two polls, an old invoice found by Invoice Search: reported again', async () => {
		const customer_id = sandbox.fixtures.bigCustomerId;
		const trigger = activeTrigger(sandbox, {
			events: ['invoicePaid'],
			...oneCustomer(customer_id),
		});
		await publishedAndSwept(trigger);
		const open = (
			sandbox.state.invoicesByCustomer as Map<
				string,
				Array<{ invoice_id: string; paidMs: number | null; remaining: number }>
			>
		)
			.get(customer_id)!
			.find((entry) => entry.paidMs === null && entry.remaining > 0)!;
		sandbox.world.payInvoice({ invoice_id: open.invoice_id, paid_at: isoSecondsAgo(300) });
		expect((await trigger.poll()).items?.map(invoiceIdOf)).toEqual([open.invoice_id]);
		sandbox.world.refundInvoice({ invoice_id: open.invoice_id });
		sandbox.world.payInvoice({ invoice_id: open.invoice_id, paid_at: isoSecondsAgo(10) });
		sandbox.clearRequests();
		expect(
			(await trigger.poll()).items?.map((item) => [invoiceIdOf(item), item.previous_status]),
		).toEqual([[open.invoice_id, 'PAID']]);
		expect(apiRequests(sandbox)).toEqual([
			`GET /customers/${customer_id}/invoices?ordering=-issued_at&limit=100`,
			'POST /invoices/search?limit=1000',
		]);
		expect((await trigger.poll()).items).toBeNull();
	});
});
