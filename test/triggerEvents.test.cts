/**
 * The trigger through n8n-core against the sandbox: several events in one trigger,
 * each family's source read once per poll; Customer Updated, Subscription Updated, Paused,
 * Resumed, Ending Soon and Renewal Due, each silent on its first poll, emitted once, and with
 * Fetch Test Event that changes nothing.
 */
import type { IDataObject } from 'n8n-workflow';
import { runBilling, useSandbox } from './helpers/billing.cjs';
import { activeTrigger, apiRequests } from './helpers/trigger.cjs';
import type { Poller } from './harness/index.cjs';
import type { TriggerState } from '../nodes/SubscriptionBilling/trigger/state/triggerState';
import { withMissingExamples } from '../nodes/SubscriptionBilling/trigger/events/samples';
import {
	CUSTOMER_LIST_EVENTS,
	INVOICE_FAMILY_EVENTS,
	type TriggerEvent,
} from '../nodes/SubscriptionBilling/trigger/events/catalog';

// Pages of 5 customers, so a listing of the 12 seeded customers takes three requests.
const sandbox = useSandbox({ maxPageSize: 5 });
beforeEach(() => sandbox.clearRequests());

const LISTING = [
	'GET /customers?limit=1000',
	'GET /customers?limit=5&offset=5',
	'GET /customers?limit=5&offset=10',
];
const subscriptionOf = (item: IDataObject) => item.subscription as IDataObject;
const liveSubscriptions = () =>
	[...(sandbox.state.subscriptions as Map<string, { status: string }>).values()].filter(
		(s) => !['INACTIVE', 'SUPERSEDED', 'TERMINATED'].includes(s.status),
	);
const detailReads = () =>
	apiRequests(sandbox).filter((request) => /^GET \/subscriptions\/[^/?]+$/.test(request));

describe('several events in one trigger', () => {
	test('one reading of the customer list and of the invoices for all events; each item names its event', async () => {
		const customer_id = sandbox.fixtures.customerId;
		const trigger = activeTrigger(sandbox, {
			events: [
				'newCustomer',
				'customerUpdated',
				'subscriptionUpdated',
				'subscriptionStatusChanged',
				'subscriptionPaused',
				'subscriptionEndingSoon',
				'newInvoice',
				'invoicePaid',
			],
			scope: 'customer',
			customerId: { __rl: true, mode: 'list', value: customer_id },
			endingSoonDays: 30,
		});
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		const invoiceRequests = (requests: string[]) =>
			requests.filter((request) => request.startsWith(`GET /customers/${customer_id}/invoices`));
		// Publishing: the customer list once, and the API's clock read for the invoice events' start.
		expect(apiRequests(sandbox).filter((request) => request.startsWith('GET /customers?'))).toEqual(
			[...LISTING, 'GET /customers?limit=1'],
		);

		const created = sandbox.world.createCustomer({ name: 'Nova Trading' });
		sandbox.world.updateCustomer({
			customer_id: sandbox.fixtures.bigCustomerId,
			tax_id: 'GB123456789',
		});
		sandbox.world.pauseSubscription({ subscription_id: sandbox.fixtures.subscriptionId });
		sandbox.world.updateSubscription({
			subscription_id: sandbox.fixtures.noPhasesSubscriptionId,
			ends_in_days: 10,
		});
		const invoice = sandbox.world.issueInvoice({ customer_id, amount: 40 });
		sandbox.clearRequests();
		const { items, error } = await trigger.poll();
		expect(error).toBeUndefined();
		const endsAt = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
		expect(items?.map((item) => item.event)).toEqual([
			'newCustomer',
			'customerUpdated',
			'subscriptionUpdated',
			'subscriptionUpdated',
			'subscriptionStatusChanged',
			'subscriptionPaused',
			'subscriptionEndingSoon',
			'newInvoice',
		]);
		expect(items).toEqual([
			expect.objectContaining({
				customer: expect.objectContaining({ customer_id: created.customer_id }),
			}),
			expect.objectContaining({
				changed_fields: ['tax_id'],
				changes: { tax_id: { previous: null, current: 'GB123456789' } },
			}),
			expect.objectContaining({
				changed_fields: ['status'],
				subscription: expect.objectContaining({ subscription_id: sandbox.fixtures.subscriptionId }),
			}),
			expect.objectContaining({
				changed_fields: ['ends_at'],
				changes: { ends_at: { previous: '2026-12-31', current: endsAt } },
			}),
			expect.objectContaining({ previous_status: 'ACTIVE', status: 'PAUSED' }),
			expect.objectContaining({
				previous_status: 'ACTIVE',
				status: 'PAUSED',
				subscription: expect.objectContaining({ subscription_id: sandbox.fixtures.subscriptionId }),
			}),
			expect.objectContaining({
				ends_at: endsAt,
				days_left: 10,
				subscription: expect.objectContaining({
					subscription_id: sandbox.fixtures.noPhasesSubscriptionId,
				}),
			}),
			expect.objectContaining({
				invoice: expect.objectContaining({ invoice_id: invoice.invoice_id }),
			}),
		]);
		// The customer list once (three pages) for six customer-list events; the invoices of the
		// customer once per invoice event until the invoice family reads them once for all.
		const requests = apiRequests(sandbox);
		expect(requests.filter((request) => request.startsWith('GET /customers?'))).toEqual(LISTING);
		// (the customer's first visit, which reads every invoice once: three pages, as the sandbox here
		// answers at most 5 a page, as it does the list)
		expect([...new Set(invoiceRequests(requests))]).toEqual([
			`GET /customers/${customer_id}/invoices?ordering=-issued_at&limit=1000`,
			`GET /customers/${customer_id}/invoices?ordering=-issued_at&limit=5&offset=5`,
			`GET /customers/${customer_id}/invoices?ordering=-issued_at&limit=5&offset=10`,
		]);
		expect(
			requests.filter(
				(request) =>
					!request.startsWith('GET /customers?') &&
					!invoiceRequests([request]).length &&
					!request.startsWith('POST /invoices/search'),
			),
		).toEqual([]);

		expect((await trigger.poll()).items).toBeNull();
	});

	test('no event chosen: an error that names Events, and nothing is sent', async () => {
		const trigger = activeTrigger(sandbox, { events: [] });
		const { error } = await trigger.poll();
		expect(error?.message).toBe('Events: choose at least one event');
		expect(apiRequests(sandbox)).toEqual([]);
	});

	test('an event added to the selection starts silently; the others carry on from their state', async () => {
		const trigger = activeTrigger(sandbox, { events: ['newCustomer'] });
		await trigger.poll();
		const before = sandbox.world.createCustomer({ name: 'Before The Change' });
		const saved = JSON.parse(JSON.stringify(trigger.workflow.staticData)) as IDataObject;
		sandbox.world.updateCustomer({
			customer_id: sandbox.fixtures.customerId,
			legal_name: 'Acme Corporation Inc.',
		});
		const widened = activeTrigger(sandbox, { events: ['newCustomer', 'customerUpdated'] }, saved);
		expect(
			(await widened.poll()).items?.map((item) => [
				item.event,
				(item.customer as IDataObject).customer_id,
			]),
		).toEqual([['newCustomer', before.customer_id]]);
		sandbox.world.updateCustomer({
			customer_id: sandbox.fixtures.customerId,
			legal_name: 'Acme Corporation LLC',
		});
		expect((await widened.poll()).items).toEqual([
			expect.objectContaining({
				event: 'customerUpdated',
				changes: { legal_name: { current: 'Acme Corporation LLC' } },
			}),
		]);
	});
});

describe('one reading of the customer list for both families (All Customers)', () => {
	const customerListings = () =>
		apiRequests(sandbox).filter((request) => /^GET \/customers(\?|$)/.test(request));
	const invoiceVisits = () =>
		apiRequests(sandbox).filter((request) => /^GET \/customers\/[^/]+\/invoices\?/.test(request));
	const sweepAt = (trigger: Poller) =>
		(trigger.nodeStaticData.trigger as TriggerState).invoices?.sweep.nextCustomer;
	const customers = () => [...(sandbox.state.customers as Map<string, unknown>).keys()];

	/** One poll; what it emitted, with the customer list's requests and the customers whose invoices it read. */
	async function pollCounted(trigger: Poller) {
		sandbox.clearRequests();
		const { items, error } = await trigger.poll();
		expect(error).toBeUndefined();
		return {
			items: (items ?? []).map((item) => [
				item.event,
				((item.invoice ?? item.customer) as IDataObject)[
					item.invoice ? 'invoice_id' : 'customer_id'
				],
			]),
			listings: customerListings(),
			visits: invoiceVisits().length,
		};
	}

	test('customer and invoice events: one pass over the customer list (three pages) a poll, not one per family', async () => {
		const trigger = activeTrigger(sandbox, { events: ['newCustomer', 'newInvoice'], scope: 'all' });
		// Publishing: the list once and the API's clock; the customers' first visits come after.
		const first = await pollCounted(trigger);
		expect(first).toEqual({
			items: [],
			listings: [...LISTING, 'GET /customers?limit=1'],
			visits: 0,
		});
		const created = sandbox.world.createCustomer({ name: 'Listed Once' });
		const issued = sandbox.world.issueInvoice({ customer_id: created.customer_id, amount: 5 });
		const second = await pollCounted(trigger);
		expect(second.items).toEqual([
			['newCustomer', created.customer_id],
			['newInvoice', issued.invoice_id],
		]);
		expect(second.listings).toEqual(LISTING);
		expect(second.visits).toBe(customers().length);
		expect(await pollCounted(trigger)).toEqual({
			items: [],
			listings: LISTING,
			visits: customers().length,
		});
	});

	test('with the invoice sweep mid-way (Requests Per Poll 10, 12 customers): still one pass a poll; the sweep resumes in the same reading and reports each invoice once', async () => {
		const trigger = activeTrigger(sandbox, {
			events: ['newCustomer', 'newInvoice'],
			scope: 'all',
			requestsPerPoll: 10,
		});
		// Publishing reads the list and the API's clock; the first sweep then takes polls of at most
		// 10 visits, each reading the list once.
		expect((await pollCounted(trigger)).visits).toBe(0);
		let visits = 0;
		do {
			const poll = await pollCounted(trigger);
			expect(poll).toEqual({ items: [], listings: LISTING, visits: expect.any(Number) });
			expect(poll.visits).toBeLessThanOrEqual(10);
			visits += poll.visits;
		} while (sweepAt(trigger) !== undefined);
		expect(visits).toBe(customers().length);
		// Mid-way through the next sweep, every customer issues an invoice and a customer is created.
		const opening = await pollCounted(trigger);
		expect(opening.listings).toEqual(LISTING);
		expect(sweepAt(trigger)).toBeGreaterThan(0);
		const issued = customers().map(
			(customer_id) => sandbox.world.issueInvoice({ customer_id, amount: 6 }).invoice_id,
		);
		const created = sandbox.world.createCustomer({ name: 'Created Mid-Sweep' });
		const items: unknown[][] = [];
		for (let sweeps = 0; sweeps < 2; sweeps++) {
			do {
				const poll = await pollCounted(trigger);
				expect(poll.listings).toEqual(LISTING);
				expect(poll.visits).toBeLessThanOrEqual(10);
				items.push(...poll.items);
			} while (sweepAt(trigger) !== undefined);
		}
		expect(items.filter(([event]) => event === 'newCustomer')).toEqual([
			['newCustomer', created.customer_id],
		]);
		expect(
			items
				.filter(([event]) => event === 'newInvoice')
				.map(([, id]) => id)
				.sort(),
		).toEqual([...issued].sort());
	});
});

describe('Customer Updated', () => {
	test('each changed field with its new value, once (no previous value: the fields are remembered as hashes); a new customer is not an update', async () => {
		const trigger = activeTrigger(sandbox, { events: ['customerUpdated'] });
		expect((await trigger.poll()).items).toBeNull();
		const id = sandbox.fixtures.customerId;
		const before = (sandbox.state.customers as Map<string, IDataObject>).get(id)!;
		const oldAddress = { ...(before.address as IDataObject) };
		sandbox.world.updateCustomer({
			customer_id: id,
			name: 'Acme Corp',
			address: { city: 'Chicago' },
		});
		sandbox.world.createCustomer({ name: 'Brand New Ltd' });
		const { items } = await trigger.poll();
		expect(items).toEqual([
			{
				event: 'customerUpdated',
				customer_id: id,
				detected_at: expect.stringMatching(/Z$/),
				changed_fields: ['name', 'address'],
				changes: {
					name: { current: 'Acme Corp' },
					address: { current: { ...oldAddress, city: 'Chicago' } },
				},
				customer: expect.objectContaining({ customer_id: id, name: 'Acme Corp' }),
			},
		]);
		expect(apiRequests(sandbox)).toEqual([...LISTING, ...LISTING]);
		expect((await trigger.poll()).items).toBeNull();
	});
});

describe('Subscription Updated', () => {
	test('list fields: name, start, end, status with new values (previous values of the dates and the status, not of the hashed name), one item per subscription, once', async () => {
		const trigger = activeTrigger(sandbox, { events: ['subscriptionUpdated'] });
		await trigger.poll();
		const id = sandbox.fixtures.noPhasesSubscriptionId;
		sandbox.world.updateSubscription({
			subscription_id: id,
			name: 'Acme Corporation - Starter Plus',
			ends_at: '2027-06-30',
		});
		sandbox.world.setSubscriptionStatus({ subscription_id: id, status: 'TERMINATING' });
		sandbox.world.updateSubscription({
			subscription_id: sandbox.fixtures.subscriptionId,
			quantity: 40,
		});
		const { items } = await trigger.poll();
		expect(items).toEqual([
			{
				event: 'subscriptionUpdated',
				customer_id: sandbox.fixtures.customerId,
				subscription_id: id,
				detected_at: expect.any(String),
				changed_fields: ['name', 'ends_at', 'status'],
				changes: {
					name: { current: 'Acme Corporation - Starter Plus' },
					ends_at: { previous: '2026-12-31', current: '2027-06-30' },
					status: { previous: 'ACTIVE', current: 'TERMINATING' },
				},
				subscription: expect.objectContaining({
					subscription_id: id,
					customer: expect.objectContaining({ customer_id: sandbox.fixtures.customerId }),
				}),
			},
		]);
		// Without Compare Detail Fields no subscription is read: a quantity change is not seen.
		expect(detailReads()).toEqual([]);
		expect((await trigger.poll()).items).toBeNull();
	});

	test('Compare Detail Fields: renewal, auto-renewal, totals and line items through Subscription Get, 1 request per running subscription', async () => {
		const trigger = activeTrigger(sandbox, {
			events: ['subscriptionUpdated'],
			subscriptionDetails: true,
		});
		await trigger.poll();
		expect(detailReads()).toHaveLength(liveSubscriptions().length);
		const id = sandbox.fixtures.noPhasesSubscriptionId;
		sandbox.world.updateSubscription({
			subscription_id: id,
			quantity: 7,
			auto_renews: true,
			renews_at: '2027-01-01',
		});
		sandbox.clearRequests();
		const { items } = await trigger.poll();
		expect(items).toHaveLength(1);
		const [item] = items!;
		expect(item.changed_fields).toEqual(
			expect.arrayContaining(['renews_at', 'auto_renews', 'line_items']),
		);
		const changes = item.changes as Record<string, { previous: unknown; current: unknown }>;
		expect(changes.renews_at).toEqual({ previous: null, current: '2027-01-01' });
		expect(changes.auto_renews).toEqual({ previous: false, current: true });
		expect((changes.line_items.current as IDataObject[])[0]).toMatchObject({ quantity: 7 });
		expect(subscriptionOf(item).subscription_id).toBe(id);
		expect((item.detail as IDataObject).subscription_id).toBe(id);
		expect(apiRequests(sandbox).filter((request) => request.startsWith('GET /customers?'))).toEqual(
			LISTING,
		);
		expect(detailReads()).toHaveLength(liveSubscriptions().length);
		expect(detailReads()).not.toContain(
			`GET /subscriptions/${[...(sandbox.state.subscriptions as Map<string, { status: string; subscription_id: string }>).values()].find((s) => s.status === 'TERMINATED')?.subscription_id}`,
		);
		expect((await trigger.poll()).items).toBeNull();
	});

	test('a subscription read fails: the poll fails, the state stays, the next poll emits the change once', async () => {
		const trigger = activeTrigger(sandbox, {
			events: ['subscriptionUpdated'],
			subscriptionDetails: true,
		});
		await trigger.poll();
		const before = trigger.nodeStaticData;
		sandbox.world.updateSubscription({
			subscription_id: sandbox.fixtures.subscriptionId,
			quantity: 30,
		});
		sandbox.clearRequests();
		sandbox.setFaults({ on: [6], kinds: ['403'] });
		const failed = await trigger.poll();
		sandbox.setFaults(null);
		expect(failed.error?.message).toMatch(/ERR_FORBIDDEN/);
		expect(failed.error?.description).toMatch(/GET \/api\/v2\/subscriptions\//);
		expect(trigger.nodeStaticData).toEqual(before);
		expect(
			(await trigger.poll()).items?.map((item) => subscriptionOf(item).subscription_id),
		).toEqual([sandbox.fixtures.subscriptionId]);
		expect((await trigger.poll()).items).toBeNull();
	});
});

describe('Subscription Paused and Resumed', () => {
	test('named as such, each once; other status changes are neither', async () => {
		const trigger = activeTrigger(sandbox, {
			events: ['subscriptionPaused', 'subscriptionResumed'],
		});
		await trigger.poll();
		const id = sandbox.fixtures.subscriptionId;
		const paused = sandbox.fixtures.pausedSubscriptionId;
		sandbox.world.pauseSubscription({ subscription_id: id });
		sandbox.world.resumeSubscription({ subscription_id: paused });
		sandbox.world.setSubscriptionStatus({
			subscription_id: sandbox.fixtures.noPhasesSubscriptionId,
			status: 'TERMINATING',
		});
		const { items } = await trigger.poll();
		expect(
			items?.map((item) => [
				item.event,
				subscriptionOf(item).subscription_id,
				item.previous_status,
				item.status,
			]),
		).toEqual([
			['subscriptionPaused', id, 'ACTIVE', 'PAUSED'],
			['subscriptionResumed', paused, 'PAUSED', 'ACTIVE'],
		]);
		expect((await trigger.poll()).items).toBeNull();
		sandbox.world.resumeSubscription({ subscription_id: id, status: 'TERMINATING' });
		sandbox.world.pauseSubscription({ subscription_id: paused });
		expect(
			(await trigger.poll()).items?.map((item) => [
				item.event,
				subscriptionOf(item).subscription_id,
				item.status,
			]),
		).toEqual([
			['subscriptionPaused', paused, 'PAUSED'],
			['subscriptionResumed', id, 'TERMINATING'],
		]);
	});
});

describe('Subscription Ending Soon', () => {
	test('Days Before End: once per subscription and end date; a moved end date is reported again', async () => {
		const trigger = activeTrigger(sandbox, {
			events: ['subscriptionEndingSoon'],
			endingSoonDays: 14,
		});
		const near = sandbox.fixtures.noPhasesSubscriptionId;
		const far = sandbox.fixtures.subscriptionId;
		// Already in the window when activated: not reported (the first poll only remembers).
		sandbox.world.updateSubscription({
			subscription_id: sandbox.fixtures.openOrderSubscriptionId,
			ends_in_days: 3,
		});
		expect((await trigger.poll()).items).toBeNull();
		sandbox.world.updateSubscription({ subscription_id: near, ends_in_days: 14 });
		sandbox.world.updateSubscription({ subscription_id: far, ends_in_days: 15 });
		const { items } = await trigger.poll();
		expect(items).toEqual([
			{
				event: 'subscriptionEndingSoon',
				customer_id: sandbox.fixtures.customerId,
				subscription_id: near,
				detected_at: expect.any(String),
				ends_at: new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10),
				days_left: 14,
				subscription: expect.objectContaining({ subscription_id: near, status: 'ACTIVE' }),
			},
		]);
		expect(apiRequests(sandbox)).toEqual([...LISTING, ...LISTING]);
		expect((await trigger.poll()).items).toBeNull();
		sandbox.world.updateSubscription({ subscription_id: near, ends_in_days: 5 });
		sandbox.world.updateSubscription({ subscription_id: far, ends_in_days: 14 });
		expect(
			(await trigger.poll()).items?.map((item) => [
				subscriptionOf(item).subscription_id,
				item.days_left,
			]),
		).toEqual([
			[far, 14],
			[near, 5],
		]);
		// A subscription that ended is not ending soon.
		sandbox.world.setSubscriptionStatus({ subscription_id: far, status: 'TERMINATED' });
		sandbox.world.updateSubscription({ subscription_id: far, ends_in_days: 2 });
		expect((await trigger.poll()).items).toBeNull();
	});
});

describe('Subscription Renewal Due', () => {
	test('renews_at from Subscription Get, Days Before Renewal ahead, once per subscription and renewal date', async () => {
		const trigger = activeTrigger(sandbox, {
			events: ['subscriptionRenewalDue'],
			renewalDueDays: 7,
		});
		expect((await trigger.poll()).items).toBeNull();
		expect(detailReads()).toHaveLength(liveSubscriptions().length);
		const id = sandbox.fixtures.subscriptionId;
		sandbox.world.updateSubscription({ subscription_id: id, renews_in_days: 7 });
		sandbox.world.updateSubscription({
			subscription_id: sandbox.fixtures.noPhasesSubscriptionId,
			renews_in_days: 8,
		});
		sandbox.clearRequests();
		const { items } = await trigger.poll();
		expect(items).toEqual([
			{
				event: 'subscriptionRenewalDue',
				customer_id: sandbox.fixtures.customerId,
				subscription_id: id,
				detected_at: expect.any(String),
				renews_at: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
				days_left: 7,
				auto_renews: true,
				subscription: expect.objectContaining({ subscription_id: id }),
				detail: expect.objectContaining({
					subscription_id: id,
					accounts_payable_emails: expect.any(Array),
				}),
			},
		]);
		expect(apiRequests(sandbox)).toEqual([...LISTING, ...detailReads()]);
		expect(detailReads()).toHaveLength(liveSubscriptions().length);
		expect((await trigger.poll()).items).toBeNull();
	});
});

describe('Fetch Test Event', () => {
	test('a sample for each selected event, with the shape of a real item; the state is untouched', async () => {
		sandbox.world.updateSubscription({
			subscription_id: sandbox.fixtures.noPhasesSubscriptionId,
			ends_in_days: 9,
			renews_in_days: 10,
		});
		const trigger = activeTrigger(sandbox, {
			events: [
				'customerUpdated',
				'subscriptionUpdated',
				'subscriptionPaused',
				'subscriptionResumed',
				'subscriptionEndingSoon',
				'subscriptionRenewalDue',
			],
			endingSoonDays: 30,
			renewalDueDays: 30,
		});
		await trigger.poll();
		const before = trigger.nodeStaticData;
		const manual = await trigger.fetchTestEvent();
		expect(manual.error).toBeUndefined();
		const byEvent = Object.fromEntries((manual.items ?? []).map((item) => [item.event, item]));
		expect(Object.keys(byEvent)).toEqual([
			'customerUpdated',
			'subscriptionUpdated',
			'subscriptionPaused',
			'subscriptionResumed',
			'subscriptionEndingSoon',
			'subscriptionRenewalDue',
		]);
		expect(byEvent.customerUpdated).toMatchObject({
			changed_fields: [
				'name',
				'legal_name',
				'external_id',
				'address',
				'processor_customer_id',
				'tax_id',
			],
			changes: { name: { previous: null } },
		});
		expect(byEvent.subscriptionUpdated).toMatchObject({
			changed_fields: ['name', 'starts_at', 'ends_at', 'status'],
		});
		expect(byEvent.subscriptionPaused).toMatchObject({ status: 'PAUSED', previous_status: null });
		expect(byEvent.subscriptionEndingSoon).toMatchObject({
			days_left: 9,
			subscription: { subscription_id: sandbox.fixtures.noPhasesSubscriptionId },
		});
		expect(byEvent.subscriptionRenewalDue).toMatchObject({
			days_left: 10,
			subscription: { subscription_id: sandbox.fixtures.noPhasesSubscriptionId },
		});
		expect(trigger.nodeStaticData).toEqual(before);
	});
});

describe('a saved state this code did not write', () => {
	test('is not read: the trigger restarts silently', async () => {
		const trigger = activeTrigger(
			sandbox,
			{ events: ['newCustomer'] },
			{
				'node:Subscription Billing Trigger': {
					trigger: { version: 1, watching: 'not json', data: {} },
				},
			},
		);
		sandbox.world.createCustomer({ name: 'Not A Flood' });
		expect((await trigger.poll()).items).toBeNull();
	});
});

describe('the IDs a follow-up step maps, at the top level of every item', () => {
	const ALL_EVENTS: TriggerEvent[] = [...CUSTOMER_LIST_EVENTS, ...INVOICE_FAMILY_EVENTS];
	const ID_KEYS: Record<string, string[]> = {
		customer: ['customer_id'],
		subscription: ['customer_id', 'subscription_id'],
		invoice: ['customer_id', 'subscription_id', 'invoice_id'],
	};
	const recordOf = (event: string) =>
		event.includes('Invoice') || event.startsWith('invoice')
			? 'invoice'
			: event.includes('ubscription')
				? 'subscription'
				: 'customer';

	/** The owner of a record as the sandbox's world holds it (not as the item shows it). */
	function worldIds(kind: string, id: string): IDataObject {
		if (kind === 'customer')
			return {
				customer_id: (sandbox.state.customers as Map<string, IDataObject>).get(id)!.customer_id,
			};
		if (kind === 'subscription')
			return {
				customer_id: (sandbox.state.subscriptions as Map<string, IDataObject>).get(id)!.customer_id,
				subscription_id: id,
			};
		const invoice = (sandbox.state.invoicesById as Map<string, IDataObject>).get(id)!;
		return {
			customer_id: invoice.customer_id,
			subscription_id: invoice.subscription_id ?? null,
			invoice_id: id,
		};
	}

	/** Each item: `event` and its IDs first, in that order, each the one the world holds for the record the item carries. */
	function expectTopLevelIds(items: IDataObject[]) {
		for (const item of items) {
			const kind = recordOf(String(item.event));
			const keys = ID_KEYS[kind];
			const record = item[kind] as IDataObject;
			expect(Object.keys(item).slice(0, keys.length + 1)).toEqual(['event', ...keys]);
			expect(Object.fromEntries(keys.map((key) => [key, item[key]]))).toEqual(
				worldIds(kind, String(record[`${kind}_id`])),
			);
		}
	}
	const idsOf = (items: IDataObject[], event: string) =>
		items
			.filter((item) => item.event === event)
			.map((item) => ID_KEYS[recordOf(event)].map((key) => item[key]));

	test('every event, polled and fetched: event, customer_id and the record’s IDs, whatever the event', async () => {
		const acme = sandbox.fixtures.customerId;
		const globex = sandbox.fixtures.bigCustomerId;
		const trigger = activeTrigger(sandbox, {
			events: ALL_EVENTS,
			scope: 'all',
			endingSoonDays: 30,
			renewalDueDays: 30,
		});
		expect((await trigger.poll()).items).toBeNull();

		const subscribed = sandbox.world.createCustomer({ name: 'Keys Subscribed' });
		const standalone = sandbox.world.createCustomer({ name: 'Keys Standalone' });
		const added = sandbox.world.createSubscription({ customer_id: subscribed.customer_id });
		sandbox.world.updateCustomer({ customer_id: globex, tax_id: 'GB999999973' });
		sandbox.world.pauseSubscription({ subscription_id: sandbox.fixtures.subscriptionId });
		sandbox.world.resumeSubscription({ subscription_id: sandbox.fixtures.pausedSubscriptionId });
		sandbox.world.updateSubscription({
			subscription_id: sandbox.fixtures.noPhasesSubscriptionId,
			ends_in_days: 10,
			renews_in_days: 9,
		});
		const failed = sandbox.world.issueInvoice({ customer_id: globex, amount: 30 });
		sandbox.world.failPayment({ invoice_id: failed.invoice_id });
		const paid = sandbox.world.issueInvoice({ customer_id: standalone.customer_id, amount: 20 });
		sandbox.world.payInvoice({ invoice_id: paid.invoice_id });
		const overdue = sandbox.world.issueInvoice({ customer_id: acme, amount: 10 });
		sandbox.world.passDueDate({ invoice_id: overdue.invoice_id });

		const { items, error } = await trigger.poll();
		expect(error).toBeUndefined();
		expect(new Set(items!.map((item) => item.event))).toEqual(new Set(ALL_EVENTS));
		expectTopLevelIds(items!);
		const [s1, s2, s3] = [
			sandbox.fixtures.subscriptionId,
			sandbox.fixtures.noPhasesSubscriptionId,
			sandbox.fixtures.pausedSubscriptionId,
		];
		const globexSubscription = worldIds('invoice', failed.invoice_id).subscription_id;
		expect(Object.fromEntries(ALL_EVENTS.map((event) => [event, idsOf(items!, event)]))).toEqual({
			newCustomer: [[subscribed.customer_id], [standalone.customer_id]],
			customerUpdated: [[globex]],
			newSubscription: [[subscribed.customer_id, added.subscription_id]],
			subscriptionUpdated: [
				[acme, s1],
				[acme, s2],
				[acme, s3],
			],
			subscriptionStatusChanged: [
				[acme, s1],
				[acme, s3],
			],
			subscriptionPaused: [[acme, s1]],
			subscriptionResumed: [[acme, s3]],
			subscriptionEndingSoon: [[acme, s2]],
			subscriptionRenewalDue: [[acme, s2]],
			newInvoice: expect.arrayContaining([
				[globex, globexSubscription, failed.invoice_id],
				[standalone.customer_id, null, paid.invoice_id],
				[acme, s1, overdue.invoice_id],
			]),
			invoicePaid: [[standalone.customer_id, null, paid.invoice_id]],
			invoiceOverdue: [[acme, s1, overdue.invoice_id]],
			invoicePaymentFailed: [[globex, globexSubscription, failed.invoice_id]],
		});

		// Fetch Test Event: a sample of every event, with the same keys
		const manual = await trigger.fetchTestEvent();
		expect(manual.error).toBeUndefined();
		expect(manual.items?.map((item) => item.event)).toEqual(ALL_EVENTS);
		expectTopLevelIds(manual.items!);

		// With nothing to show, the item says, for each event, the keys its items have, in their order
		const emitted = Object.fromEntries(
			items!.map((item) => [item.event, Object.keys(item).join(', ')]),
		);
		const told = Object.fromEntries(
			withMissingExamples(ALL_EVENTS, [], {
				list: 'the customer list',
				invoices: 'the invoices',
				otherCustomer: '',
			}).map((item) => [item.event, String(item.no_example)]),
		);
		for (const event of ALL_EVENTS)
			expect(told[event]).toContain(`emitted as an item with the keys ${emitted[event]}`);
	});

	test('a dunning trigger: one expression, {{ $json.customer_id }}, takes every item’s customer into the next step', async () => {
		const acme = sandbox.fixtures.customerId;
		const globex = sandbox.fixtures.bigCustomerId;
		const trigger = activeTrigger(sandbox, {
			events: [
				'invoicePaymentFailed',
				'invoiceOverdue',
				'subscriptionUpdated',
				'subscriptionStatusChanged',
			],
			scope: 'all',
		});
		await trigger.poll();
		const failed = sandbox.world.issueInvoice({ customer_id: globex, amount: 30 });
		sandbox.world.failPayment({ invoice_id: failed.invoice_id });
		const overdue = sandbox.world.issueInvoice({ customer_id: acme, amount: 10 });
		sandbox.world.passDueDate({ invoice_id: overdue.invoice_id });
		sandbox.world.pauseSubscription({ subscription_id: sandbox.fixtures.subscriptionId });
		const { items } = await trigger.poll();
		expect(items?.map((item) => [item.event, item.customer_id])).toEqual([
			['subscriptionUpdated', acme],
			['subscriptionStatusChanged', acme],
			['invoiceOverdue', acme],
			['invoicePaymentFailed', globex],
		]);
		sandbox.clearRequests();
		const next = await runBilling(
			sandbox,
			{
				resource: 'customer',
				operation: 'get',
				customerId: { __rl: true, mode: 'id', value: '={{ $json.customer_id }}' },
			},
			{ items: items! },
		);
		expect(next.error).toBeUndefined();
		expect(next.json.map((customer) => customer.customer_id)).toEqual([acme, acme, acme, globex]);
	});
});
