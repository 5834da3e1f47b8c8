/**
 * Subscription Renewal Due and Subscription Updated's detail fields at any number of
 * subscriptions, through n8n-core against the sandbox: Subscription Get is sent for at most
 * Subscription Reads Per Poll running subscriptions a poll; a pass over all of them spans polls,
 * each resuming where the last stopped; renewals entering the window are read again first; every
 * renewal and detail change is reported once.
 */
import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from './helpers/billing.cjs';
import { activeTrigger, apiRequests } from './helpers/trigger.cjs';
import type { Poller } from './harness/index.cjs';

const sandbox = useSandbox();
const READS = 10;
const ENDED = ['INACTIVE', 'SUPERSEDED', 'TERMINATED'];

interface Subscription {
	subscription_id: string;
	customer_id: string;
	status: string;
}

/** Running subscriptions in the order of the customer list (by customer, then as created). */
function liveInListOrder(): string[] {
	const subscriptions = [...(sandbox.state.subscriptions as Map<string, Subscription>).values()];
	return [...(sandbox.state.customers as Map<string, unknown>).keys()].flatMap((customerId) =>
		subscriptions
			.filter((s) => s.customer_id === customerId && !ENDED.includes(s.status))
			.map((s) => s.subscription_id),
	);
}

const detailReads = () =>
	apiRequests(sandbox).flatMap(
		(request) => /^GET \/subscriptions\/([^/?]+)$/.exec(request)?.slice(1) ?? [],
	);

/** One poll: its items and the subscriptions it read. */
async function poll(trigger: Poller): Promise<{ items: IDataObject[]; reads: string[] }> {
	sandbox.clearRequests();
	const result = await trigger.poll();
	if (result.error) throw result.error;
	return { items: result.items ?? [], reads: detailReads() };
}

/** Polls until a pass over every running subscription is done (the last poll reads the list's last one). */
async function pass(trigger: Poller): Promise<{ items: IDataObject[]; reads: string[][] }> {
	const last = liveInListOrder().at(-1);
	const items: IDataObject[] = [];
	const reads: string[][] = [];
	for (let polls = 0; polls < 20; polls++) {
		const one = await poll(trigger);
		items.push(...one.items);
		reads.push(one.reads);
		if (one.reads.includes(last!)) return { items, reads };
	}
	throw new Error('the pass did not reach the last running subscription in 20 polls');
}

const renewing = (item: IDataObject) => [
	(item.subscription as IDataObject).subscription_id,
	item.renews_at,
	item.days_left,
];
const inDays = (days: number) =>
	new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

beforeEach(() => {
	// 25 or more running subscriptions: a pass of 10 reads a poll spans three polls.
	const customers = [...(sandbox.state.customers as Map<string, unknown>).keys()];
	for (let n = 0; liveInListOrder().length < 25; n++)
		sandbox.world.createSubscription({ customer_id: customers[n % customers.length] });
});

describe('Subscription Renewal Due over a pass', () => {
	test('at most Subscription Reads Per Poll reads a poll, each running subscription once a pass; the first pass only learns, all in the first poll', async () => {
		const live = liveInListOrder();
		// In the window when the event is chosen, read at the pass's end: not reported.
		sandbox.world.updateSubscription({ subscription_id: live.at(-1)!, renews_in_days: 3 });
		const trigger = activeTrigger(sandbox, {
			events: ['subscriptionRenewalDue'],
			renewalDueDays: 7,
			subscriptionReadsPerPoll: READS,
		});
		// The first pass within the first poll (n8n saves a poll that emits nothing only at activation).
		const first = await pass(trigger);
		expect(first.items).toEqual([]);
		expect(first.reads).toHaveLength(1);
		expect(first.reads[0].sort()).toEqual([...live].sort());

		const second = await pass(trigger);
		expect(second.items).toEqual([]);
		expect(second.reads.map((reads) => reads.length)).toEqual([10, 10, live.length - 20]);
		expect(second.reads.flat().sort()).toEqual([...live].sort());
	});

	test('a renewal date moved into the window is reported once, within one pass, from a detail read that poll', async () => {
		const live = liveInListOrder();
		const trigger = activeTrigger(sandbox, {
			events: ['subscriptionRenewalDue'],
			renewalDueDays: 7,
			subscriptionReadsPerPoll: READS,
		});
		await pass(trigger);
		sandbox.world.updateSubscription({ subscription_id: live[2], renews_in_days: 5 });
		sandbox.world.updateSubscription({ subscription_id: live.at(-2)!, renews_in_days: 6 });
		const polls: Array<{ items: IDataObject[]; reads: string[] }> = [];
		for (let n = 0; n < 6; n++) polls.push(await poll(trigger));
		expect(polls.map(({ items }) => items.map(renewing))).toEqual([
			[[live[2], inDays(5), 5]],
			[],
			[[live.at(-2), inDays(6), 6]],
			[],
			[],
			[],
		]);
		for (const { items, reads } of polls)
			for (const item of items)
				expect(reads).toContain((item.subscription as IDataObject).subscription_id);
		expect(polls[0].items[0]).toMatchObject({
			auto_renews: expect.any(Boolean),
			detail: expect.objectContaining({ subscription_id: live[2], renews_at: inDays(5) }),
		});
	});

	test('a known renewal date that enters the window is read again first: reported at once if the API still says so, not if it moved', async () => {
		const live = liveInListOrder();
		const [soon, moved] = [live.at(-1)!, live.at(-3)!];
		sandbox.world.updateSubscription({ subscription_id: soon, renews_in_days: 9 });
		sandbox.world.updateSubscription({ subscription_id: moved, renews_in_days: 10 });
		const saved = activeTrigger(sandbox, {
			events: ['subscriptionRenewalDue'],
			renewalDueDays: 7,
			subscriptionReadsPerPoll: READS,
		});
		await pass(saved);
		// The pass stands at its start again; Days Before Renewal raised to 10 in the saved workflow
		// (n8n keeps the node's static data when the workflow is saved).
		const trigger = activeTrigger(
			sandbox,
			{ events: ['subscriptionRenewalDue'], renewalDueDays: 10, subscriptionReadsPerPoll: READS },
			{ 'node:Subscription Billing Trigger': saved.nodeStaticData },
		);
		sandbox.world.updateSubscription({ subscription_id: moved, renews_in_days: 40 });
		const next = await poll(trigger);
		expect(next.items.map(renewing)).toEqual([[soon, inDays(9), 9]]);
		expect(next.reads).toEqual(expect.arrayContaining([soon, moved]));
		expect(next.reads).toHaveLength(READS);
		const rest = await pass(trigger);
		expect(rest.items).toEqual([]);
		expect((await pass(trigger)).items).toEqual([]);
	});

	test('a date learned outside the window by the first pass that enters it later (Days Before Renewal raised) is reported', async () => {
		const live = liveInListOrder();
		sandbox.world.updateSubscription({ subscription_id: live[0], renews_in_days: 9 });
		const saved = activeTrigger(sandbox, {
			events: ['subscriptionRenewalDue'],
			renewalDueDays: 7,
			subscriptionReadsPerPoll: READS,
		});
		expect((await poll(saved)).items).toEqual([]);
		const trigger = activeTrigger(
			sandbox,
			{ events: ['subscriptionRenewalDue'], renewalDueDays: 9, subscriptionReadsPerPoll: READS },
			{ 'node:Subscription Billing Trigger': saved.nodeStaticData },
		);
		const rest = await pass(trigger);
		expect(rest.items.map(renewing)).toEqual([[live[0], inDays(9), 9]]);
		expect((await pass(trigger)).items).toEqual([]);
	});

	test('a poll that fails on a subscription read keeps the state: the pass resumes there and reports once', async () => {
		const live = liveInListOrder();
		const trigger = activeTrigger(sandbox, {
			events: ['subscriptionRenewalDue'],
			renewalDueDays: 7,
			subscriptionReadsPerPoll: READS,
		});
		await pass(trigger);
		await poll(trigger);
		const before = trigger.nodeStaticData;
		sandbox.world.updateSubscription({ subscription_id: live[12], renews_in_days: 2 });
		sandbox.clearRequests();
		sandbox.setFaults({ on: [3], kinds: ['403'] });
		const failed = await trigger.poll();
		sandbox.setFaults(null);
		expect(failed.error?.message).toMatch(/ERR_FORBIDDEN/);
		expect(trigger.nodeStaticData).toEqual(before);
		const after = await poll(trigger);
		expect(after.items.map(renewing)).toEqual([[live[12], inDays(2), 2]]);
		expect((await pass(trigger)).items).toEqual([]);
	});
});

describe('Renewal Due added to a trigger that compares detail fields', () => {
	test('a renewal date already in the window when the event is added is not reported by it (Subscription Updated reports the change once); one that enters the window later is', async () => {
		const live = liveInListOrder();
		const before = activeTrigger(sandbox, {
			events: ['subscriptionUpdated'],
			subscriptionDetails: true,
			subscriptionReadsPerPoll: READS,
		});
		await pass(before);
		await pass(before);
		// Read by the edited trigger's pass in its last poll.
		const last = live.at(-1)!;
		const renewsBefore = (sandbox.state.subscriptions as Map<string, IDataObject>).get(
			last,
		)!.renews_at;
		sandbox.world.updateSubscription({ subscription_id: last, renews_in_days: 3 });

		const edited = activeTrigger(
			sandbox,
			{
				events: ['subscriptionUpdated', 'subscriptionRenewalDue'],
				subscriptionDetails: true,
				renewalDueDays: 7,
				subscriptionReadsPerPoll: READS,
			},
			{ 'node:Subscription Billing Trigger': before.nodeStaticData },
		);
		const firstPass = await pass(edited);
		expect(
			firstPass.items.map((item) => [
				item.event,
				(item.subscription as IDataObject).subscription_id,
				item.changes,
			]),
		).toEqual([
			['subscriptionUpdated', last, { renews_at: { previous: renewsBefore, current: inDays(3) } }],
		]);
		sandbox.world.updateSubscription({ subscription_id: live[5], renews_in_days: 4 });
		const next = await pass(edited);
		expect(
			next.items.map((item) => [item.event, (item.subscription as IDataObject).subscription_id]),
		).toEqual([
			['subscriptionUpdated', live[5]],
			['subscriptionRenewalDue', live[5]],
		]);
		expect((await pass(edited)).items).toEqual([]);
	});
});

describe('Subscription Updated with Compare Detail Fields over a pass', () => {
	test('a detail change is reported once within one pass; a listed change is read first and carries its detail', async () => {
		const live = liveInListOrder();
		const trigger = activeTrigger(sandbox, {
			events: ['subscriptionUpdated'],
			subscriptionDetails: true,
			subscriptionReadsPerPoll: READS,
		});
		const first = await pass(trigger);
		expect(first.items).toEqual([]);
		expect(first.reads).toHaveLength(1);
		expect(first.reads[0].sort()).toEqual([...live].sort());

		sandbox.world.updateSubscription({ subscription_id: live.at(-1)!, quantity: 9 });
		sandbox.world.updateSubscription({
			subscription_id: live.at(-2)!,
			name: 'Renamed in the list',
		});
		const next = await poll(trigger);
		expect(
			next.items.map((item) => [
				(item.subscription as IDataObject).subscription_id,
				item.changed_fields,
			]),
		).toEqual([[live.at(-2), ['name']]]);
		expect(next.items[0].detail).toMatchObject({ subscription_id: live.at(-2) });
		expect(next.reads).toHaveLength(READS);

		const rest = await pass(trigger);
		expect(
			rest.items.map((item) => [
				(item.subscription as IDataObject).subscription_id,
				item.changed_fields,
			]),
		).toEqual([[live.at(-1), expect.arrayContaining(['line_items'])]]);
		expect((await pass(trigger)).items).toEqual([]);
	});
});
