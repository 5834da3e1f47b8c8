/**
 * n8n restarted while the trigger learns, through n8n-core against the sandbox, with n8n's own
 * save points (test/harness/poll.cts): without durable cursors the state is saved after the
 * activation poll and after a poll that emits; with durable cursors after every scheduled poll.
 * Changes made after publishing at records already read, then a restart at any poll: each
 * change reported exactly once.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { useSandbox } from './helpers/billing.cjs';
import { activeTrigger, apiRequests, restartedTrigger } from './helpers/trigger.cjs';
import { moveClock } from './helpers/clock.cjs';
import type { Poller } from './harness/index.cjs';

// Pages of 5 customers: a sweep under Requests Per Poll 10 spans several polls.
const sandbox = useSandbox({ maxPageSize: 5 });
const ENDED = ['INACTIVE', 'SUPERSEDED', 'TERMINATED'];
/** Polls after the restart: more than two passes or sweeps at these sizes. */
const POLLS_AFTER = 10;

interface Subscription {
	subscription_id: string;
	customer_id: string;
	status: string;
}

const quantityOf = (id: string) =>
	(sandbox.state.subscriptions as Map<string, { line_items: Array<{ quantity: number }> }>).get(id)!
		.line_items[0].quantity;
const customersInListOrder = () => [...(sandbox.state.customers as Map<string, unknown>).keys()];

/** Running subscriptions in the order of the customer list (by customer, then as created). */
function liveInListOrder(): string[] {
	const subscriptions = [...(sandbox.state.subscriptions as Map<string, Subscription>).values()];
	return customersInListOrder().flatMap((customerId) =>
		subscriptions
			.filter((s) => s.customer_id === customerId && !ENDED.includes(s.status))
			.map((s) => s.subscription_id),
	);
}

/** An item as `event record-id`. */
function reported(item: IDataObject): string {
	const id = item.invoice
		? (item.invoice as IDataObject).invoice_id
		: (item.subscription as IDataObject).subscription_id;
	return `${String(item.event)} ${String(id)}`;
}

async function poll(trigger: Poller): Promise<string[]> {
	const { items, error } = await trigger.poll();
	if (error) throw error;
	return (items ?? []).map(reported);
}

/**
 * Published (the activation poll), `restartAfter` scheduled polls, the changes, n8n restarted,
 * then polls: everything the trigger reported, from the activation on.
 */
async function restartDuringLearning(
	parameters: INodeParameters,
	restartAfter: number,
	durableCursors: boolean,
	change: () => string[],
): Promise<{ reported: string[]; expected: string[] }> {
	const trigger = activeTrigger(sandbox, parameters, undefined, { durableCursors });
	const activation = await trigger.activate();
	if (activation.error) throw activation.error;
	const all = (activation.items ?? []).map(reported);
	for (let n = 0; n < restartAfter; n++) all.push(...(await poll(trigger)));
	const expected = change();
	const restarted = await restartedTrigger(trigger);
	all.push(...restarted.items.map(reported));
	for (let n = 0; n < POLLS_AFTER; n++) all.push(...(await poll(restarted.trigger)));
	return { reported: all.sort(), expected: expected.sort() };
}

/** Each restart index: before the first scheduled poll, then after each poll of what was the learning window. */
const RESTARTS = [0, 1, 2, 3].flatMap((restartAfter) => [
	{ restartAfter, durableCursors: false },
	// With durable cursors n8n saves the activation poll's state only when it emits: the first scheduled poll saves it (docs/trigger.md).
	...(restartAfter > 0 ? [{ restartAfter, durableCursors: true }] : []),
]);

describe('Subscription Updated with Compare Detail Fields and Renewal Due: n8n restarted during the first pass', () => {
	beforeEach(() => {
		// 25 or more running subscriptions: a pass of 10 reads a poll would span three polls.
		const customers = customersInListOrder();
		for (let n = 0; liveInListOrder().length < 25; n++)
			sandbox.world.createSubscription({ customer_id: customers[n % customers.length] });
	});
	const parameters = {
		events: ['subscriptionUpdated', 'subscriptionRenewalDue'],
		subscriptionDetails: true,
		renewalDueDays: 7,
		subscriptionReadsPerPoll: 10,
	};

	test.each(RESTARTS)(
		'restarted after $restartAfter scheduled polls (durable cursors: $durableCursors): two quantity changes and a renewal due, each once',
		async ({ restartAfter, durableCursors }) => {
			const live = liveInListOrder();
			const { reported: all, expected } = await restartDuringLearning(
				parameters,
				restartAfter,
				durableCursors,
				() => {
					// Read by what were the first pass's second and third polls.
					for (const subscription_id of [live[12], live[22]])
						sandbox.world.updateSubscription({
							subscription_id,
							quantity: quantityOf(subscription_id) + 1,
						});
					sandbox.world.updateSubscription({ subscription_id: live[15], renews_in_days: 3 });
					return [
						`subscriptionUpdated ${live[12]}`,
						`subscriptionUpdated ${live[22]}`,
						`subscriptionUpdated ${live[15]}`,
						`subscriptionRenewalDue ${live[15]}`,
					];
				},
			);
			expect(all).toEqual(expected);
		},
	);

	test.each([
		['a first pass longer than publishing may take, without a restart', false],
		[
			'a first pass longer than publishing may take, n8n restarted after a silent scheduled poll (not saved)',
			true,
		],
	])(
		'%s: the rest in the scheduled polls; a renewal entering the window once (its date says when); a detail change once where the pass had read the subscription, none where it had not (the window the editor states)',
		async (_when, restart) => {
			const live = liveInListOrder();
			// Renews in 8 days at publishing: outside the window of 7 until two days later.
			sandbox.world.updateSubscription({ subscription_id: live[15], renews_in_days: 8 });
			// The activation poll's first read takes past its time for learning (10 s of the test's clock).
			sandbox.world.onRequest(
				(request) => /^\/api\/v2\/subscriptions\/[^/]+$/.test(request.path),
				() => moveClock(11_000),
			);
			let trigger = activeTrigger(sandbox, parameters);
			const activation = await trigger.activate();
			if (activation.error) throw activation.error;
			const all = (activation.items ?? []).map(reported);
			const subscriptionGets = () =>
				sandbox.requests.filter((request) =>
					/^\/api\/v2\/subscriptions\/[^/]+$/.test(request.path),
				);
			// The reads in flight (4 at a time) when its time ran out; the pass goes on from the fifth.
			expect(subscriptionGets().map((request) => request.path.split('/').at(-1))).toEqual(
				live.slice(0, 4),
			);
			if (restart) all.push(...(await poll(trigger)));
			// Changed after publishing: one the activation poll had read, one not read yet, and a
			// renewal date moved into the window before the pass read it (the window too).
			for (const subscription_id of [live[3], live[22]])
				sandbox.world.updateSubscription({
					subscription_id,
					quantity: quantityOf(subscription_id) + 1,
				});
			sandbox.world.updateSubscription({ subscription_id: live[18], renews_in_days: 3 });
			moveClock(2 * 86_400_000);
			if (restart) {
				const restarted = await restartedTrigger(trigger);
				all.push(...restarted.items.map(reported));
				trigger = restarted.trigger;
			}
			for (let n = 0; n < POLLS_AFTER; n++) all.push(...(await poll(trigger)));
			expect(all.sort()).toEqual(
				[`subscriptionRenewalDue ${live[15]}`, `subscriptionUpdated ${live[3]}`].sort(),
			);
		},
	);
});

describe('Renewal Due added to a trigger that compares detail fields: n8n restarted during its first pass', () => {
	beforeEach(() => {
		const customers = customersInListOrder();
		for (let n = 0; liveInListOrder().length < 25; n++)
			sandbox.world.createSubscription({ customer_id: customers[n % customers.length] });
	});

	test.each([0, 1, 2, 3])(
		'restarted after %i scheduled polls: a renewal due at a subscription its first pass read late, once',
		async (restartAfter) => {
			const live = liveInListOrder();
			const parameters = {
				events: ['subscriptionUpdated'],
				subscriptionDetails: true,
				renewalDueDays: 7,
				subscriptionReadsPerPoll: 10,
			};
			const running = activeTrigger(sandbox, parameters, undefined, { nodeId: 'renewals-added' });
			await running.activate();
			await poll(running);
			// Saved and published again with Renewal Due: the node keeps its id and static data.
			const edited = activeTrigger(
				sandbox,
				{ ...parameters, events: ['subscriptionUpdated', 'subscriptionRenewalDue'] },
				running.saved,
				{ nodeId: 'renewals-added' },
			);
			const activation = await edited.activate('update');
			if (activation.error) throw activation.error;
			const all = (activation.items ?? []).map(reported);
			for (let n = 0; n < restartAfter; n++) all.push(...(await poll(edited)));
			sandbox.world.updateSubscription({ subscription_id: live[21], renews_in_days: 4 });
			const restarted = await restartedTrigger(edited);
			all.push(...restarted.items.map(reported));
			for (let n = 0; n < POLLS_AFTER; n++) all.push(...(await poll(restarted.trigger)));
			expect(all.sort()).toEqual([
				`subscriptionRenewalDue ${live[21]}`,
				`subscriptionUpdated ${live[21]}`,
			]);
		},
	);
});

describe('Invoice Paid and Invoice Payment Failed over All Customers: n8n restarted during the first sweep', () => {
	const parameters = {
		events: ['invoicePaid', 'invoicePaymentFailed'],
		scope: 'all',
		requestsPerPoll: 10,
	};

	test.each(RESTARTS)(
		'restarted after $restartAfter scheduled polls (durable cursors: $durableCursors): an invoice paid and a payment failed at the last customers, each once',
		async ({ restartAfter, durableCursors }) => {
			const customers = customersInListOrder();
			// Open invoices at the customers the sweep visits last.
			const paid = sandbox.world.issueInvoice({
				customer_id: customers.at(-1)!,
				amount: 40,
			}).invoice_id;
			const failing = sandbox.world.issueInvoice({
				customer_id: customers.at(-2)!,
				amount: 50,
			}).invoice_id;
			const { reported: all, expected } = await restartDuringLearning(
				parameters,
				restartAfter,
				durableCursors,
				() => {
					sandbox.world.payInvoice({ invoice_id: paid });
					sandbox.world.failPayment({ invoice_id: failing, error: 'card_declined' });
					return [`invoicePaid ${paid}`, `invoicePaymentFailed ${failing}`];
				},
			);
			expect(all).toEqual(expected);
		},
	);
});

describe('an invoice event added to a running trigger: n8n restarted during its learning', () => {
	test.each(RESTARTS)(
		'restarted after $restartAfter scheduled polls (durable cursors: $durableCursors): a failed payment at the last customer, once',
		async ({ restartAfter, durableCursors }) => {
			const customers = customersInListOrder();
			const failing = sandbox.world.issueInvoice({
				customer_id: customers.at(-1)!,
				amount: 60,
			}).invoice_id;
			const parameters = { events: ['invoicePaid'], scope: 'all', requestsPerPoll: 10 };
			const running = activeTrigger(sandbox, parameters, undefined, {
				durableCursors,
				nodeId: 'edited-trigger',
			});
			await running.activate();
			for (let n = 0; n < 3; n++) await poll(running);
			// Invoice Payment Failed added: saved and published again (the node keeps its id and static data).
			const edited = activeTrigger(
				sandbox,
				{ ...parameters, events: ['invoicePaid', 'invoicePaymentFailed'] },
				running.saved,
				{ durableCursors, nodeId: 'edited-trigger' },
			);
			const activation = await edited.activate('update');
			if (activation.error) throw activation.error;
			const all = (activation.items ?? []).map(reported);
			for (let n = 0; n < restartAfter; n++) all.push(...(await poll(edited)));
			const payment = sandbox.world.failPayment({
				invoice_id: failing,
				error: 'insufficient_funds',
			});
			expect(payment.payment_id).toEqual(expect.any(String));
			const restarted = await restartedTrigger(edited);
			all.push(...restarted.items.map(reported));
			for (let n = 0; n < POLLS_AFTER; n++) all.push(...(await poll(restarted.trigger)));
			expect(all).toEqual([`invoicePaymentFailed ${failing}`]);
		},
	);
});

describe("with durable cursors, an invoice event added by an edit learns within n8n's poll budget", () => {
	test('learning spread over scheduled polls, each saved; restarted while it learns: a failed payment at a customer already learned, once', async () => {
		const last = customersInListOrder().at(-1)!;
		const failing = sandbox.world.issueInvoice({ customer_id: last, amount: 70 }).invoice_id;
		const parameters = { events: ['invoicePaid'], scope: 'all', requestsPerPoll: 10 };
		const options = { durableCursors: true, nodeId: 'budgeted-trigger', pollBudgetMs: 1 };
		const running = activeTrigger(sandbox, parameters, undefined, options);
		await running.activate();
		// One step a poll (the budget is spent by the first): the next sweep stops mid-way.
		expect(await poll(running)).toEqual([]);
		// Saved again with Invoice Payment Failed: n8n 2.41 runs no activation poll (the poll job is unchanged).
		const edited = activeTrigger(
			sandbox,
			{ ...parameters, events: ['invoicePaid', 'invoicePaymentFailed'] },
			running.saved,
			options,
		);
		expect((await edited.activate('update')).items).toBeNull();
		// Its first poll learns from where the sweep stood to the list's end (the last customer included), then stops.
		expect(await poll(edited)).toEqual([]);
		expect(
			(edited.saved['node:Subscription Billing Trigger'] as IDataObject).trigger,
		).toMatchObject({ invoices: { learning: { invoicePaymentFailed: { nextSweep: true } } } });
		sandbox.world.failPayment({ invoice_id: failing, error: 'insufficient_funds' });
		const restarted = await restartedTrigger(edited);
		const all = restarted.items.map(reported);
		for (let n = 0; n < POLLS_AFTER; n++) all.push(...(await poll(restarted.trigger)));
		expect(all).toEqual([`invoicePaymentFailed ${failing}`]);
	});
});

describe('the poll n8n runs as it starts', () => {
	const parameters = {
		events: ['invoicePaid', 'invoicePaymentFailed'],
		scope: 'all',
		requestsPerPoll: 10,
	};

	test('a trigger that was polling reads nothing then (n8n activates the next workflow at once); its next scheduled poll goes on from the saved state and reports what changed meanwhile, once', async () => {
		const last = customersInListOrder().at(-1)!;
		const paying = sandbox.world.issueInvoice({ customer_id: last, amount: 70 }).invoice_id;
		const running = activeTrigger(sandbox, parameters);
		await running.activate();
		expect(await poll(running)).toEqual([]);
		const saved = running.saved;
		sandbox.world.payInvoice({ invoice_id: paying });
		const requestsBefore = apiRequests(sandbox).length;
		const restarted = await restartedTrigger(running);
		expect(restarted.items).toEqual([]);
		expect(apiRequests(sandbox).length).toBe(requestsBefore);
		expect(restarted.trigger.saved).toEqual(saved);
		const all: string[] = [];
		for (let n = 0; n < POLLS_AFTER; n++) all.push(...(await poll(restarted.trigger)));
		expect(apiRequests(sandbox).length).toBeGreaterThan(requestsBefore);
		expect(all).toEqual([`invoicePaid ${paying}`]);
	});

	/** What an item reports, as `event id` (the invoice's, else the subscription's, else the customer's). */
	const idOf = (item: IDataObject) =>
		`${String(item.event)} ${String(item.invoice_id ?? item.subscription_id ?? item.customer_id)}`;

	/** Saved data another version left in the node (n8n keeps it under `node:<name>`). */
	const nodeData = (data: IDataObject) => ({ 'node:Subscription Billing Trigger': data });
	const listOnly = async () => {
		const running = activeTrigger(sandbox, {
			events: ['newCustomer', 'subscriptionStatusChanged'],
		});
		await running.activate();
		await poll(running);
		return running.saved;
	};

	test.each([
		[
			'a state of format 1 (an older build)',
			async () =>
				nodeData({
					trigger: { format: 1, customers: 'x1y2', invoices: { sweep: { nextCustomer: 5 } } },
					pollBoot: 'older-build',
					pollSeq: 7,
				}),
		],
		[
			'a state of a later format (a newer build, downgraded since)',
			async () => nodeData({ trigger: { format: 3, families: {} }, pollBoot: 'newer-build' }),
		],
		['saved data of another shape', async () => nodeData({ cursor: '2026-01-01T00:00:00Z' })],
		['a state of this format without the invoice events, now selected', listOnly],
	])(
		'%s: polled then as at publishing; a new customer, a status change and an invoice paid before the first scheduled poll, each once',
		async (_saved, saved) => {
			const customers = customersInListOrder();
			const paying = sandbox.world.issueInvoice({ customer_id: customers.at(-1)!, amount: 80 });
			const parameters = {
				events: ['newCustomer', 'subscriptionStatusChanged', 'invoicePaid'],
				scope: 'all',
				requestsPerPoll: 10,
			};
			const stopped = activeTrigger(sandbox, parameters, await saved());
			const { trigger, items, logs } = await restartedTrigger(stopped);
			expect(items).toEqual([]);
			expect(logs.join('\n')).not.toContain('n8n started');
			moveClock(1000);
			const created = sandbox.world.createCustomer({ name: 'After The Restart' });
			const [subscription] = (sandbox.state.subscriptions as Map<string, Subscription>).values();
			sandbox.world.setSubscriptionStatus({
				subscription_id: subscription.subscription_id,
				status: subscription.status === 'PAUSED' ? 'ACTIVE' : 'PAUSED',
			});
			sandbox.world.payInvoice({ invoice_id: paying.invoice_id });
			const all: string[] = [];
			for (let n = 0; n < POLLS_AFTER; n++) {
				const { items: emitted, error } = await trigger.poll();
				if (error) throw error;
				all.push(...(emitted ?? []).map(idOf));
			}
			expect(all.sort()).toEqual(
				[
					`invoicePaid ${paying.invoice_id}`,
					`newCustomer ${created.customer_id}`,
					`subscriptionStatusChanged ${subscription.subscription_id}`,
				].sort(),
			);
		},
	);

	test("a state of another format at startup: n8n's log says the trigger starts over, naming the workflow", async () => {
		const stopped = activeTrigger(
			sandbox,
			parameters,
			nodeData({ trigger: { format: 1 }, pollBoot: 'older-build', pollSeq: 1 }),
		);
		const { logs } = await restartedTrigger(stopped);
		expect(logs).toEqual([
			'[warn] Subscription Billing Trigger "Subscription Billing Trigger" in workflow "Harness trigger workflow" (harness-workflow): the state saved in the node is not one this version of the package reads (another version saved it): the trigger starts over as when published, and reports what changes from this poll on. {"workflowId":"harness-workflow","node":"Subscription Billing Trigger"}',
		]);
	});

	test('a trigger with nothing saved (published while n8n was stopped) polls then as when published: it notes the API time', async () => {
		const requestsBefore = apiRequests(sandbox).length;
		const { error } = await activeTrigger(sandbox, parameters).activate('init');
		expect(error).toBeUndefined();
		expect(apiRequests(sandbox).slice(requestsBefore)).toEqual(['GET /customers?limit=1']);
	});

	test('only the first poll of a trigger in a process is taken for the one n8n runs as it starts: a trigger this process has polled polls as usual', async () => {
		const running = activeTrigger(sandbox, parameters);
		await running.activate();
		const requestsBefore = apiRequests(sandbox).length;
		expect((await running.activate('init')).error).toBeUndefined();
		expect(apiRequests(sandbox).length).toBeGreaterThan(requestsBefore);
	});
});
