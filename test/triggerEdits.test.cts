/**
 * A running trigger edited between polls (issue 28 §5): adding or removing an event never drops or
 * repeats a change of an event that stays selected, and an added event emits nothing from before
 * it was added. Renaming the node: the same with and without a restart of n8n in between.
 * Each edit is what n8n does when a published workflow is saved: the node keeps its id, the next
 * activation polls with the new parameters and the static data saved so far.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { useSandbox } from './helpers/billing.cjs';
import { moveClock } from './helpers/clock.cjs';
import { activeTrigger, apiRequests, triggerOfNewProcess } from './helpers/trigger.cjs';
import type { Poller } from './harness/index.cjs';
import { skippedPollsWaiting } from '../nodes/SubscriptionBilling/trigger/pollLock';
import type { TriggerState } from '../nodes/SubscriptionBilling/trigger/state/triggerState';

const sandbox = useSandbox();
beforeEach(() => sandbox.clearRequests());

const DEFAULT_NAME = 'Subscription Billing Trigger';
const oneCustomer = (customerId: string) => ({
	scope: 'customer',
	customerId: { __rl: true, mode: 'id', value: customerId },
});
const saved = (trigger: Poller) =>
	JSON.parse(JSON.stringify(trigger.workflow.staticData)) as IDataObject;

let nodes = 0;
/** A published trigger with a node id of its own; `edit` saves it (as `from` left it) with new parameters. */
function published(parameters: INodeParameters) {
	const nodeId = `edited-trigger-${++nodes}`;
	const trigger = activeTrigger(sandbox, parameters, undefined, { nodeId });
	const edit = (changed: INodeParameters, from = trigger) =>
		activeTrigger(sandbox, { ...parameters, ...changed }, saved(from), { nodeId });
	return { trigger, edit };
}

/** What an item is about, in a form that names it: event and record id (and the error of a failed payment). */
function summary(item: IDataObject): string[] {
	const record = (item.invoice ?? item.subscription ?? item.customer) as IDataObject;
	const id = String(record.invoice_id ?? record.subscription_id ?? record.customer_id);
	return item.error ? [String(item.event), id, String(item.error)] : [String(item.event), id];
}

/** Waits for a condition, checking once per turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

async function itemsOf(trigger: Poller): Promise<string[][]> {
	const { items, error } = await trigger.poll();
	expect(error).toBeUndefined();
	return (items ?? []).map(summary);
}

const customerListings = () =>
	apiRequests(sandbox).filter((request) => /^GET \/customers(\?|$)/.test(request));
const invoiceReads = (customerId: string) =>
	apiRequests(sandbox).filter((request) =>
		request.startsWith(`GET /customers/${customerId}/invoices?`),
	);
const activeSubscriptions = () =>
	[
		...(
			sandbox.state.subscriptions as Map<string, { subscription_id: string; status: string }>
		).values(),
	]
		.filter((s) => s.status === 'ACTIVE')
		.map((s) => s.subscription_id);
const customersInListOrder = () => [...(sandbox.state.customers as Map<string, unknown>).keys()];
const invoiceFamily = (trigger: Poller) =>
	(trigger.nodeStaticData.trigger as TriggerState).invoices!;

describe('an event added or removed while changes are pending', () => {
	test("the issue's case: Invoice Paid and Subscription Paused added while a payment failure and a new customer are pending: both emitted once, nothing from before the added events", async () => {
		const customer_id = sandbox.fixtures.customerId;
		const watched = sandbox.world.issueInvoice({ customer_id, amount: 20 });
		const toPay = sandbox.world.issueInvoice({ customer_id, amount: 30 });
		const { trigger, edit } = published({
			events: ['newCustomer', 'invoicePaymentFailed'],
			scope: 'all',
		});
		expect(await itemsOf(trigger)).toEqual([]);

		const failure = sandbox.world.failPayment({
			invoice_id: watched.invoice_id,
			error: 'card_declined',
		});
		const created = sandbox.world.createCustomer({ name: 'Pending Customer' });
		// Changes of the events about to be added, from before they are: never reported.
		sandbox.world.payInvoice({ invoice_id: toPay.invoice_id });
		const [paused, later] = activeSubscriptions();
		sandbox.world.pauseSubscription({ subscription_id: paused });
		// The edit a second later: the API's times are to the second.
		moveClock(1000);
		const edited = edit({
			events: ['newCustomer', 'invoicePaymentFailed', 'invoicePaid', 'subscriptionPaused'],
		});
		sandbox.clearRequests();
		expect(await itemsOf(edited)).toEqual([
			['newCustomer', created.customer_id],
			['invoicePaymentFailed', watched.invoice_id, 'card_declined'],
		]);
		expect(failure.invoice_id).toBe(watched.invoice_id);
		// One reading of the customer list for both families, and the API's clock read for the moment
		// Invoice Paid reports from; its first visit reads every invoice once (1,000 a page).
		expect(customerListings()).toEqual(['GET /customers?limit=1000', 'GET /customers?limit=1']);
		expect(invoiceReads(customer_id)).toEqual([
			`GET /customers/${customer_id}/invoices?ordering=-issued_at&limit=1000`,
		]);
		expect(invoiceFamily(edited).events).toEqual(['invoicePaymentFailed', 'invoicePaid']);

		const again = sandbox.world.failPayment({
			invoice_id: watched.invoice_id,
			error: 'expired_card',
		});
		sandbox.world.payInvoice({ invoice_id: watched.invoice_id });
		sandbox.world.pauseSubscription({ subscription_id: later });
		sandbox.clearRequests();
		expect(await itemsOf(edited)).toEqual([
			['subscriptionPaused', later],
			['invoicePaymentFailed', watched.invoice_id, 'expired_card'],
			['invoicePaid', watched.invoice_id],
		]);
		expect(again.invoice_id).toBe(watched.invoice_id);
		expect(invoiceReads(customer_id)).toEqual([
			`GET /customers/${customer_id}/invoices?ordering=-issued_at&limit=100`,
		]);
		expect(await itemsOf(edited)).toEqual([]);
	});

	test('a subscription status change pending while an invoice event is added: the change once; the added Invoice Overdue only from then on', async () => {
		const customer_id = sandbox.fixtures.customerId;
		const dueBefore = sandbox.world.issueInvoice({ customer_id, amount: 11 });
		const dueAfter = sandbox.world.issueInvoice({ customer_id, amount: 12 });
		const { trigger, edit } = published({
			events: ['subscriptionStatusChanged', 'newInvoice'],
			...oneCustomer(customer_id),
		});
		expect(await itemsOf(trigger)).toEqual([]);

		const [subscription_id] = activeSubscriptions();
		sandbox.world.setSubscriptionStatus({ subscription_id, status: 'TERMINATING' });
		const issued = sandbox.world.issueInvoice({ customer_id, amount: 13 });
		sandbox.world.passDueDate({ invoice_id: dueBefore.invoice_id });
		const edited = edit({ events: ['subscriptionStatusChanged', 'newInvoice', 'invoiceOverdue'] });
		expect(await itemsOf(edited)).toEqual([
			['subscriptionStatusChanged', subscription_id],
			['newInvoice', issued.invoice_id],
		]);
		sandbox.world.passDueDate({ invoice_id: dueAfter.invoice_id });
		expect(await itemsOf(edited)).toEqual([['invoiceOverdue', dueAfter.invoice_id]]);
		expect(await itemsOf(edited)).toEqual([]);
	});

	test('an invoice event pending while a customer event is removed: the invoice event once, the removed event never', async () => {
		const customer_id = sandbox.fixtures.customerId;
		const open = sandbox.world.issueInvoice({ customer_id, amount: 14 });
		const { trigger, edit } = published({
			events: ['newCustomer', 'customerUpdated', 'invoicePaid'],
			scope: 'all',
		});
		expect(await itemsOf(trigger)).toEqual([]);

		sandbox.world.payInvoice({ invoice_id: open.invoice_id });
		const created = sandbox.world.createCustomer({ name: 'Another Pending Customer' });
		sandbox.world.updateCustomer({ customer_id, legal_name: 'Acme Corporation Holdings' });
		const edited = edit({ events: ['newCustomer', 'invoicePaid'] });
		sandbox.clearRequests();
		expect(await itemsOf(edited)).toEqual([
			['newCustomer', created.customer_id],
			['invoicePaid', open.invoice_id],
		]);
		// The customer's first visit since publishing: every invoice read once.
		expect(invoiceReads(customer_id)).toEqual([
			`GET /customers/${customer_id}/invoices?ordering=-issued_at&limit=1000`,
		]);
		sandbox.world.updateCustomer({ customer_id, legal_name: 'Acme Corporation Group' });
		expect(await itemsOf(edited)).toEqual([]);
	});

	test('an invoice event removed while the others have changes pending: theirs once; added back, it starts from then', async () => {
		const customer_id = sandbox.fixtures.customerId;
		const failing = sandbox.world.issueInvoice({ customer_id, amount: 15 });
		const paying = sandbox.world.issueInvoice({ customer_id, amount: 16 });
		const payingLater = sandbox.world.issueInvoice({ customer_id, amount: 17 });
		const { trigger, edit } = published({
			events: ['newInvoice', 'invoicePaid', 'invoicePaymentFailed'],
			...oneCustomer(customer_id),
		});
		expect(await itemsOf(trigger)).toEqual([]);

		const issued = sandbox.world.issueInvoice({ customer_id, amount: 18 });
		sandbox.world.failPayment({ invoice_id: failing.invoice_id, error: 'insufficient_funds' });
		sandbox.world.payInvoice({ invoice_id: paying.invoice_id });
		const narrowed = edit({ events: ['newInvoice', 'invoicePaymentFailed'] });
		expect(await itemsOf(narrowed)).toEqual([
			['invoicePaymentFailed', failing.invoice_id, 'insufficient_funds'],
			['newInvoice', issued.invoice_id],
		]);
		expect(await itemsOf(narrowed)).toEqual([]);

		// Invoice Paid chosen again, with a payment made while it was not selected: not reported.
		sandbox.world.payInvoice({ invoice_id: payingLater.invoice_id });
		moveClock(1000);
		const widened = edit(
			{ events: ['newInvoice', 'invoicePaid', 'invoicePaymentFailed'] },
			narrowed,
		);
		const next = sandbox.world.issueInvoice({ customer_id, amount: 19 });
		expect(await itemsOf(widened)).toEqual([['newInvoice', next.invoice_id]]);
		sandbox.world.payInvoice({ invoice_id: next.invoice_id });
		sandbox.world.failPayment({ invoice_id: failing.invoice_id, error: 'card_declined' });
		expect(await itemsOf(widened)).toEqual([
			['invoicePaymentFailed', failing.invoice_id, 'card_declined'],
			['invoicePaid', next.invoice_id],
		]);
		expect(await itemsOf(widened)).toEqual([]);
	});

	test('Subscription Paused added next to Subscription Status Changed (one memory of statuses): the pending change once, as a status change only', async () => {
		const { trigger, edit } = published({ events: ['subscriptionStatusChanged'] });
		expect(await itemsOf(trigger)).toEqual([]);
		const [first, second] = activeSubscriptions();
		sandbox.world.pauseSubscription({ subscription_id: first });
		const edited = edit({ events: ['subscriptionStatusChanged', 'subscriptionPaused'] });
		expect(await itemsOf(edited)).toEqual([['subscriptionStatusChanged', first]]);
		sandbox.world.pauseSubscription({ subscription_id: second });
		expect(await itemsOf(edited)).toEqual([
			['subscriptionStatusChanged', second],
			['subscriptionPaused', second],
		]);
		expect(await itemsOf(edited)).toEqual([]);
	});

	test("with All Customers, an event added mid-sweep learns at each customer's first visit since, in this sweep and the next; the events already selected carry on", async () => {
		const customers = customersInListOrder();
		const first = customers[0];
		const last = customers.at(-1)!;
		const open = {
			[first]: sandbox.world.issueInvoice({ customer_id: first, amount: 21 }),
			[last]: sandbox.world.issueInvoice({ customer_id: last, amount: 22 }),
		};
		const { trigger, edit } = published({
			events: ['newInvoice'],
			scope: 'all',
			requestsPerPoll: 10,
		});
		const sweepAt = (poller: Poller) => invoiceFamily(poller).sweep.nextCustomer;
		// The first sweep (silent), then the first poll of the next, which stops before the last customers.
		do expect(await itemsOf(trigger)).toEqual([]);
		while (sweepAt(trigger) !== undefined);
		expect(await itemsOf(trigger)).toEqual([]);
		const resumeAt = sweepAt(trigger)!;
		expect(resumeAt).toBeGreaterThan(0);
		expect(resumeAt).toBeLessThan(customers.length - 1);

		// Pending at a customer already visited in this sweep and at one not yet visited.
		const issued = [first, last].map(
			(customer_id) => sandbox.world.issueInvoice({ customer_id, amount: 23 }).invoice_id,
		);
		for (const customer_id of [first, last])
			sandbox.world.failPayment({
				invoice_id: open[customer_id].invoice_id,
				error: 'card_declined',
			});
		moveClock(1000);
		const edited = edit({ events: ['newInvoice', 'invoicePaymentFailed'] });
		const polls: string[][][] = [];
		do polls.push(await itemsOf(edited));
		while (invoiceFamily(edited).learning !== undefined);
		// New Invoice reports each customer's invoice at its visit; no failure from before the edit.
		expect(polls.flat()).toEqual([
			['newInvoice', issued[1]],
			['newInvoice', issued[0]],
		]);

		for (const customer_id of [first, last])
			sandbox.world.failPayment({
				invoice_id: open[customer_id].invoice_id,
				error: 'expired_card',
			});
		const after: string[][] = [];
		do after.push(...(await itemsOf(edited)));
		while (sweepAt(edited) !== undefined);
		do after.push(...(await itemsOf(edited)));
		while (sweepAt(edited) !== undefined);
		expect(after.sort()).toEqual(
			[
				['invoicePaymentFailed', open[first].invoice_id, 'expired_card'],
				['invoicePaymentFailed', open[last].invoice_id, 'expired_card'],
			].sort(),
		);
	});
});

describe('renaming the trigger node', () => {
	const RENAMED = 'Billing Events';
	const parameters = { events: ['newCustomer', 'invoicePaymentFailed'], scope: 'all' };

	/** The trigger published under its default name, with one change reported and one pending. */
	async function beforeRename() {
		const nodeId = `renamed-trigger-${++nodes}`;
		const open = sandbox.world.issueInvoice({
			customer_id: sandbox.fixtures.customerId,
			amount: 24,
		});
		const trigger = activeTrigger(sandbox, parameters, undefined, { nodeId });
		expect(await itemsOf(trigger)).toEqual([]);
		const reported = sandbox.world.createCustomer({ name: 'Reported Before The Rename' });
		expect(await itemsOf(trigger)).toEqual([['newCustomer', reported.customer_id]]);
		const pending = sandbox.world.createCustomer({ name: 'Pending At The Rename' });
		sandbox.world.failPayment({ invoice_id: open.invoice_id, error: 'card_declined' });
		return { nodeId, open, pending, staticData: saved(trigger) };
	}

	test.each([
		['without a restart of n8n', false],
		['after a restart of n8n', true],
	])(
		"n8n keeps static data under the node's name: the renamed trigger starts over, %s",
		async (_when, restarted) => {
			const { nodeId, open, staticData } = await beforeRename();
			// Saved and published again (a second later): n8n hands the node what it keeps under the
			// new name (nothing yet).
			moveClock(1000);
			const renamed = activeTrigger(sandbox, parameters, staticData, {
				nodeId,
				nodeName: RENAMED,
				nodeType: restarted ? triggerOfNewProcess() : undefined,
			});
			sandbox.clearRequests();
			expect(await itemsOf(renamed)).toEqual([]);
			// A first poll: the customer list and the API's clock read, no customer's invoices yet.
			expect(customerListings()).toEqual(['GET /customers?limit=1000', 'GET /customers?limit=1']);
			expect(invoiceReads(sandbox.fixtures.customerId)).toEqual([]);
			expect(renamed.workflow.staticData[`node:${DEFAULT_NAME}`]).toEqual(
				staticData[`node:${DEFAULT_NAME}`],
			);

			const created = sandbox.world.createCustomer({ name: 'After The Rename' });
			sandbox.world.failPayment({ invoice_id: open.invoice_id, error: 'expired_card' });
			expect(await itemsOf(renamed)).toEqual([
				['newCustomer', created.customer_id],
				['invoicePaymentFailed', open.invoice_id, 'expired_card'],
			]);
			expect(await itemsOf(renamed)).toEqual([]);
		},
	);

	test('a poll of the renamed trigger that overlaps the last poll under the old name waits for it, and then starts over too', async () => {
		const { nodeId, open, staticData } = await beforeRename();
		moveClock(1000);
		const before = activeTrigger(sandbox, parameters, staticData, { nodeId });
		const held = sandbox.world.holdRequests((request) => request.path.endsWith('/customers'));
		const slow = before.poll();
		await held.arrived;
		const renamed = activeTrigger(sandbox, parameters, staticData, { nodeId, nodeName: RENAMED });
		const overlapping = renamed.poll();
		await until(() => skippedPollsWaiting() === 1);
		held.release();
		expect((await slow).items).not.toBeNull();
		expect((await overlapping).items).toBeNull();
		expect(renamed.nodeStaticData).toEqual({});
		expect(await itemsOf(renamed)).toEqual([]);
		sandbox.world.failPayment({ invoice_id: open.invoice_id, error: 'expired_card' });
		expect(await itemsOf(renamed)).toEqual([
			['invoicePaymentFailed', open.invoice_id, 'expired_card'],
		]);
	});

	test.each([
		['without a restart of n8n', false],
		['after a restart of n8n', true],
	])(
		"with durable cursors n8n keeps the state under the node's id: the renamed trigger carries on, %s",
		async (_when, restarted) => {
			const { nodeId, open, pending, staticData } = await beforeRename();
			const handed = { [`node:${RENAMED}`]: staticData[`node:${DEFAULT_NAME}`] } as IDataObject;
			const renamed = activeTrigger(sandbox, parameters, handed, {
				nodeId,
				nodeName: RENAMED,
				nodeType: restarted ? triggerOfNewProcess() : undefined,
			});
			expect(await itemsOf(renamed)).toEqual([
				['newCustomer', pending.customer_id],
				['invoicePaymentFailed', open.invoice_id, 'card_declined'],
			]);
			expect(await itemsOf(renamed)).toEqual([]);
		},
	);
});

test('unpublished, changes made meanwhile, published again: each change is reported once, from the state n8n saved', async () => {
	const parameters = {
		events: ['newCustomer', 'subscriptionStatusChanged', 'invoicePaid'],
		scope: 'all',
		requestsPerPoll: 10,
	};
	const { trigger } = published(parameters);
	expect((await trigger.activate()).items).toBeNull();
	for (let poll = 0; poll < 5; poll++) expect((await trigger.poll()).items).toBeNull();

	// unpublished: n8n stops polling and keeps the static data it saved
	const customer = sandbox.world.createCustomer({ name: 'Joined while unpublished' });
	sandbox.world.pauseSubscription({ subscription_id: sandbox.fixtures.subscriptionId });
	const invoice = sandbox.world.issueInvoice({
		customer_id: sandbox.fixtures.customerId,
		amount: 5,
	});
	sandbox.world.payInvoice({ invoice_id: invoice.invoice_id });

	const again = trigger.restarted(triggerOfNewProcess());
	const reported: string[] = [];
	const collect = (items: IDataObject[] | null) =>
		reported.push(...(items ?? []).map((item) => `${String(item.event)} ${summary(item)[1]}`));
	collect((await again.activate('activate')).items);
	for (let poll = 0; poll < 10; poll++) collect((await again.poll()).items);
	expect(reported.sort()).toEqual(
		[
			`invoicePaid ${invoice.invoice_id}`,
			`newCustomer ${customer.customer_id}`,
			`subscriptionStatusChanged ${sandbox.fixtures.subscriptionId}`,
		].sort(),
	);
});
