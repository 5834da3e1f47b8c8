/**
 * Invoice Changes From → A Date and Time (issue 55): the invoice events catch up from a moment the
 * user picks. Through n8n-core against the sandbox, with records dated before and after the moment
 * at the customers the first sweep visits first and last, over several polls (pages of 5
 * customers, Requests Per Poll 10): each change after it once, with the items and keys of any
 * poll, nothing from before; under a restart, edits and Fetch Test Event.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { useSandbox } from './helpers/billing.cjs';
import { moveClock } from './helpers/clock.cjs';
import {
	activeTrigger,
	apiRequests,
	restartedTrigger,
	triggerOfNewProcess,
} from './helpers/trigger.cjs';
import type { Poller } from './harness/index.cjs';
import type { TriggerState } from '../nodes/SubscriptionBilling/trigger/state/triggerState';

const sandbox = useSandbox({ maxPageSize: 5 });
beforeEach(() => sandbox.clearRequests());

const DAY = 86_400_000;
const EVERY_INVOICE_EVENT = ['newInvoice', 'invoicePaymentFailed', 'invoicePaid', 'invoiceOverdue'];
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const customersInListOrder = () => [...(sandbox.state.customers as Map<string, unknown>).keys()];
const sweepOf = (trigger: Poller) =>
	(trigger.nodeStaticData.trigger as TriggerState).invoices!.sweep;

/** Catch up from `from` (an ISO string, or a wall time as n8n's date picker stores it). */
const catchUp = (from: string, more: INodeParameters = {}): INodeParameters => ({
	events: EVERY_INVOICE_EVENT,
	scope: 'all',
	requestsPerPoll: 10,
	invoicesFrom: 'date',
	invoicesFromDate: from,
	...more,
});

/** An item as `event invoice-id`. */
const reported = (item: IDataObject) =>
	`${String(item.event)} ${String((item.invoice as IDataObject).invoice_id)}`;

/**
 * At `customer_id`: one change of each event three to one days ago, either side of a moment two
 * days and a half ago; returns the items a catch-up from that moment owes (the later ones).
 */
function datedChanges(customer_id: string): string[] {
	const issue = (daysAgo: number, due_in_days = 30) =>
		sandbox.world.issueInvoice({
			customer_id,
			amount: 10,
			issued_at: ago(daysAgo * DAY),
			due_in_days,
		}).invoice_id;
	const before = { paid: issue(5), failed: issue(5), due: issue(40) };
	sandbox.world.payInvoice({ invoice_id: before.paid, paid_at: ago(3 * DAY) });
	sandbox.world.failPayment({ invoice_id: before.failed, paid_at: ago(3 * DAY) });
	issue(3);
	const after = { paid: issue(5), failed: issue(5), due: issue(32), issued: issue(1) };
	sandbox.world.payInvoice({ invoice_id: after.paid, paid_at: ago(1 * DAY) });
	sandbox.world.failPayment({ invoice_id: after.failed, paid_at: ago(2 * DAY) });
	return [
		`invoicePaid ${after.paid}`,
		`invoicePaymentFailed ${after.failed}`,
		`invoiceOverdue ${after.due}`,
		`newInvoice ${after.issued}`,
	];
}
const MOMENT_MS = 2.5 * DAY;

async function poll(trigger: Poller): Promise<IDataObject[]> {
	const { items, error } = await trigger.poll();
	if (error) throw error;
	return items ?? [];
}

/** Polls until the sweep under way ends: the items of each poll, and n8n's log. */
async function sweep(trigger: Poller): Promise<{ polls: IDataObject[][]; logs: string[] }> {
	const polls: IDataObject[][] = [];
	const logs: string[] = [];
	do {
		const { items, error, logs: lines } = await trigger.poll();
		if (error) throw error;
		polls.push(items ?? []);
		logs.push(...lines);
	} while (sweepOf(trigger).nextCustomer !== undefined);
	return { polls, logs };
}

describe('a catch-up from a chosen moment over All Customers', () => {
	test("each change after the moment once, at the customers visited first and last, over several polls; nothing from before; the items and keys of any poll; n8n's log says when it ended", async () => {
		const customers = customersInListOrder();
		const [first, last] = [customers[0], customers.at(-1)!];
		const owedFirst = datedChanges(first);
		const owedLast = datedChanges(last);
		const from = ago(MOMENT_MS);
		const trigger = activeTrigger(sandbox, catchUp(from));
		const publishing = await trigger.activate();
		expect(publishing.items).toBeNull();
		// Publishing notes the moment chosen: nothing read.
		expect(apiRequests(sandbox)).toEqual([]);
		expect(sweepOf(trigger)).toMatchObject({ since: Date.parse(from), catchUp: true });

		const { polls, logs } = await sweep(trigger);
		expect(polls.length).toBeGreaterThan(1);
		expect(polls[0].map(reported).sort()).toEqual(owedFirst.sort());
		expect(polls.at(-1)!.map(reported).sort()).toEqual(owedLast.sort());
		expect(polls.flat().map(reported).sort()).toEqual([...owedFirst, ...owedLast].sort());
		expect(logs.join('\n')).toContain(
			`It was the catch-up from ${from}: every invoice change since then has been reported, once.`,
		);
		expect(sweepOf(trigger)).not.toHaveProperty('catchUp');
		expect(sweepOf(trigger)).not.toHaveProperty('since');

		// The same events after the catch-up, at a customer in the middle: the same keys.
		const middle = customers[6];
		const open = sandbox.world.issueInvoice({ customer_id: middle, amount: 5 }).invoice_id;
		sandbox.world.failPayment({ invoice_id: open });
		sandbox.world.passDueDate({ invoice_id: open });
		const next = (await sweep(trigger)).polls.flat();
		sandbox.world.payInvoice({ invoice_id: open });
		next.push(...(await sweep(trigger)).polls.flat());
		expect(next.map(reported).sort()).toEqual(
			EVERY_INVOICE_EVENT.map((event) => `${event} ${open}`).sort(),
		);
		const keysOf = (items: IDataObject[], event: string) =>
			Object.keys(items.find((item) => item.event === event)!).sort();
		for (const event of EVERY_INVOICE_EVENT)
			expect(keysOf(polls.flat(), event)).toEqual(keysOf(next, event));
		expect((await sweep(trigger)).polls.flat()).toEqual([]);
	});

	test("One Customer: the catch-up is the first scheduled poll; a wall time without an offset (n8n's date picker) is read in the workflow's time zone", async () => {
		const customer_id = sandbox.fixtures.customerId;
		const invoice = (daysAgo: number) =>
			sandbox.world.issueInvoice({ customer_id, amount: 10, issued_at: ago(daysAgo * DAY) })
				.invoice_id;
		const [earlier, later] = [invoice(5), invoice(5)];
		const moment = Date.now() - DAY;
		sandbox.world.payInvoice({ invoice_id: earlier, paid_at: ago(DAY + 3 * 3_600_000) });
		sandbox.world.payInvoice({ invoice_id: later, paid_at: ago(DAY - 3 * 3_600_000) });
		const trigger = activeTrigger(
			sandbox,
			catchUp('', {
				scope: 'customer',
				customerId: { __rl: true, mode: 'id', value: customer_id },
			}),
		);
		// The moment as a wall time in the workflow's zone (New York, UTC-4 in September).
		expect(trigger.workflow.timezone).toBe('America/New_York');
		const wall = new Date(moment - 4 * 3_600_000).toISOString().slice(0, 19);
		const zoned = activeTrigger(
			sandbox,
			catchUp(wall, {
				scope: 'customer',
				customerId: { __rl: true, mode: 'id', value: customer_id },
			}),
		);
		expect((await zoned.activate()).items).toBeNull();
		expect(sweepOf(zoned).since).toBe(Math.floor(moment / 1000) * 1000);
		expect((await poll(zoned)).map(reported)).toEqual([`invoicePaid ${later}`]);
		expect(await poll(zoned)).toEqual([]);
	});
});

test('New Invoice alone, with a look-back window shorter than the catch-up: its first visits read back to the moment', async () => {
	const last = customersInListOrder().at(-1)!;
	const issue = (daysAgo: number) =>
		sandbox.world.issueInvoice({ customer_id: last, amount: 4, issued_at: ago(daysAgo * DAY) })
			.invoice_id;
	issue(3);
	const owed = [issue(2), issue(0.5)];
	const trigger = activeTrigger(
		sandbox,
		catchUp(ago(MOMENT_MS), { events: ['newInvoice'], lookBackDays: 1 }),
	);
	await trigger.activate();
	const items = (await sweep(trigger)).polls.flat().map(reported);
	expect(items).toEqual(owed.map((id) => `newInvoice ${id}`));
	expect((await sweep(trigger)).polls.flat()).toEqual([]);
});

describe('the moment is checked as the invoice events start from it, before any request', () => {
	test.each([
		[
			'more than 90 days ago',
			() => ago(91 * DAY),
			(from: string) =>
				`Catch Up From: ${from} is more than 90 days ago, the furthest the catch-up goes back: choose a later moment`,
		],
		[
			'after now',
			() => new Date(Date.now() + 3_600_000).toISOString(),
			(from: string) =>
				`Catch Up From: ${from} is after now: choose a moment in the past, or set Invoice Changes From to Publishing`,
		],
		[
			'not a date and time',
			() => 'last monday',
			() =>
				'Catch Up From: "last monday" is not a date and time: choose one, or set Invoice Changes From to Publishing',
		],
	])('%s: refused, naming the field and what to change', async (_case, from, message) => {
		const value = from();
		const { error } = await activeTrigger(sandbox, catchUp(value)).activate();
		expect(error?.message).toBe(message(value));
		expect(apiRequests(sandbox)).toEqual([]);
	});

	test('89 days and 23 hours ago: taken; the trigger goes on from it in its later polls, whatever its age then', async () => {
		const trigger = activeTrigger(sandbox, catchUp(ago(90 * DAY - 3_600_000)));
		expect((await trigger.activate()).error).toBeUndefined();
		moveClock(2 * 3_600_000);
		expect((await trigger.poll()).error).toBeUndefined();
	});
});

describe('the setting changed on a published trigger: no new catch-up', () => {
	let nodes = 0;
	const edited = (trigger: Poller, parameters: INodeParameters, nodeId: string) =>
		activeTrigger(sandbox, parameters, JSON.parse(JSON.stringify(trigger.saved)), { nodeId });

	test('published from Publishing, then set to a date before changes made before publishing: none reported; a later change once', async () => {
		const last = customersInListOrder().at(-1)!;
		datedChanges(last);
		const nodeId = `catch-up-edit-${++nodes}`;
		const parameters = { ...catchUp(''), invoicesFrom: 'publishing' };
		const trigger = activeTrigger(sandbox, parameters, undefined, { nodeId });
		await trigger.activate();
		expect((await sweep(trigger)).polls.flat()).toEqual([]);
		const changed = edited(trigger, catchUp(ago(MOMENT_MS)), nodeId);
		const items = ((await changed.activate('update')).items ?? []).map(reported);
		items.push(...(await sweep(changed)).polls.flat().map(reported));
		const open = sandbox.world.issueInvoice({ customer_id: last, amount: 7 }).invoice_id;
		items.push(...(await sweep(changed)).polls.flat().map(reported));
		expect(items).toEqual([`newInvoice ${open}`]);
	});

	test('moved earlier during the catch-up: the catch-up goes on from the moment it started from', async () => {
		const last = customersInListOrder().at(-1)!;
		const owed = datedChanges(last);
		const nodeId = `catch-up-edit-${++nodes}`;
		// From a day and a half ago: the failure two days ago is before it.
		const trigger = activeTrigger(sandbox, catchUp(ago(1.5 * DAY)), undefined, { nodeId });
		await trigger.activate();
		const all = (await poll(trigger)).map(reported);
		const changed = edited(trigger, catchUp(ago(MOMENT_MS)), nodeId);
		all.push(...((await changed.activate('update')).items ?? []).map(reported));
		if (sweepOf(changed).nextCustomer !== undefined)
			all.push(...(await sweep(changed)).polls.flat().map(reported));
		// The failure and the due date two days ago are before the moment it started from.
		expect(all.sort()).toEqual(
			owed.filter((line) => /^(invoicePaid|newInvoice) /.test(line)).sort(),
		);
	});
});

/** Each restart index: before the first scheduled poll, then after each poll of the catch-up. */
const RESTARTS = [0, 1, 2, 3].flatMap((restartAfter) => [
	{ restartAfter, durableCursors: false },
	...(restartAfter > 0 ? [{ restartAfter, durableCursors: true }] : []),
]);

describe('n8n restarted during the catch-up', () => {
	test.each(RESTARTS)(
		'restarted after $restartAfter scheduled polls (durable cursors: $durableCursors): each change after the moment once, and one made during the catch-up',
		async ({ restartAfter, durableCursors }) => {
			const customers = customersInListOrder();
			const owed = [...datedChanges(customers[0]), ...datedChanges(customers.at(-1)!)];
			const open = sandbox.world.issueInvoice({
				customer_id: customers.at(-1)!,
				amount: 9,
				issued_at: ago(4 * DAY),
			}).invoice_id;
			const trigger = activeTrigger(sandbox, catchUp(ago(MOMENT_MS)), undefined, {
				durableCursors,
			});
			const all = ((await trigger.activate()).items ?? []).map(reported);
			for (let n = 0; n < restartAfter; n++) all.push(...(await poll(trigger)).map(reported));
			sandbox.world.failPayment({ invoice_id: open });
			const restarted = await restartedTrigger(trigger);
			all.push(...restarted.items.map(reported));
			for (let n = 0; n < 8; n++) all.push(...(await poll(restarted.trigger)).map(reported));
			expect(all.sort()).toEqual([...owed, `invoicePaymentFailed ${open}`].sort());
		},
	);
});

test('events added and removed during the catch-up: the others go on, a removed one stops, an added one reports from when it was added', async () => {
	const customers = customersInListOrder();
	const [first, last] = [customers[0], customers.at(-1)!];
	const owedFirst = datedChanges(first);
	const owedLast = datedChanges(last);
	const parameters = catchUp(ago(MOMENT_MS), { events: ['invoicePaymentFailed', 'invoicePaid'] });
	const nodeId = 'catch-up-events-edited';
	const trigger = activeTrigger(sandbox, parameters, undefined, { nodeId });
	await trigger.activate();
	const all = (await poll(trigger)).map(reported);
	expect(all.sort()).toEqual(
		owedFirst.filter((line) => /^invoice(Paid|PaymentFailed) /.test(line)).sort(),
	);
	// Invoice Paid removed, Invoice Overdue added (a second later: the API's times are to the second).
	moveClock(1000);
	const edited = activeTrigger(
		sandbox,
		{ ...parameters, events: ['invoicePaymentFailed', 'invoiceOverdue'] },
		JSON.parse(JSON.stringify(trigger.saved)),
		{ nodeId },
	);
	all.push(...((await edited.activate('update')).items ?? []).map(reported));
	moveClock(2000);
	const late = sandbox.world.issueInvoice({ customer_id: last, amount: 8 }).invoice_id;
	sandbox.world.passDueDate({ invoice_id: late });
	for (let n = 0; n < 2; n++) all.push(...(await sweep(edited)).polls.flat().map(reported));
	expect(all.sort()).toEqual(
		[
			...owedFirst.filter((line) => /^invoice(Paid|PaymentFailed) /.test(line)),
			...owedLast.filter((line) => line.startsWith('invoicePaymentFailed ')),
			`invoiceOverdue ${late}`,
		].sort(),
	);
});

test('Fetch Test Event is unchanged: the same items as from Publishing, and nothing saved', async () => {
	const customer_id = sandbox.fixtures.customerId;
	datedChanges(customer_id);
	const scope = { scope: 'customer', customerId: { __rl: true, mode: 'id', value: customer_id } };
	const fromPublishing = await activeTrigger(sandbox, {
		...catchUp('', scope),
		invoicesFrom: 'publishing',
	}).fetchTestEvent();
	const trigger = activeTrigger(sandbox, catchUp(ago(MOMENT_MS), scope));
	const fetched = await trigger.fetchTestEvent();
	expect(fetched.error).toBeUndefined();
	const shown = (items: IDataObject[] | null) =>
		(items ?? []).map((item) => `${String(item.event)} ${String(item.invoice_id)}`);
	expect(shown(fetched.items)).toEqual(shown(fromPublishing.items));
	expect(fetched.items).toHaveLength(EVERY_INVOICE_EVENT.length);
	expect(trigger.nodeStaticData).toEqual({});
});

test('a catch-up whose state n8n did not save (n8n 1.123.81 keeps none for a workflow published through its publish endpoint): at the next start of n8n the invoice events start from then, nothing of the catch-up again', async () => {
	const customers = customersInListOrder();
	const owed = datedChanges(customers.at(-1)!);
	const parameters = catchUp(ago(MOMENT_MS));
	const trigger = activeTrigger(sandbox, parameters, undefined, { nodeId: 'catch-up-unsaved' });
	await trigger.activate();
	expect((await sweep(trigger)).polls.flat().map(reported).sort()).toEqual([...owed].sort());

	// n8n started again with no saved state for the trigger
	const started = activeTrigger(
		sandbox,
		parameters,
		{},
		{
			nodeId: 'catch-up-unsaved',
			nodeType: triggerOfNewProcess(),
		},
	);
	const all = ((await started.activate('init')).items ?? []).map(reported);
	moveClock(1000);
	const late = sandbox.world.issueInvoice({ customer_id: customers[0], amount: 7 }).invoice_id;
	sandbox.world.failPayment({ invoice_id: late });
	for (let n = 0; n < 2; n++) all.push(...(await sweep(started)).polls.flat().map(reported));
	expect(all.sort()).toEqual([`invoicePaymentFailed ${late}`, `newInvoice ${late}`].sort());
});
