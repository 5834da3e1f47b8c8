import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from './helpers/billing.cjs';
import { InvoiceTable } from '../nodes/SubscriptionBilling/trigger/state/invoiceTable';
import type { TriggerState } from '../nodes/SubscriptionBilling/trigger/state/triggerState';
import { activeTrigger, apiRequests } from './helpers/trigger.cjs';
import { moveClock } from './helpers/clock.cjs';

// Pages of 5 customers, so a listing of the 12 seeded customers takes three requests.
const sandbox = useSandbox({ maxPageSize: 5 });
beforeEach(() => sandbox.clearRequests());

const invoice = (item: IDataObject) => item.invoice as IDataObject;

function openInvoicesOf(customerId: string): Array<{ invoice_id: string; status: string }> {
	const invoices =
		(
			sandbox.state.invoicesByCustomer as Map<
				string,
				Array<{ invoice_id: string; status: string; paidMs: number | null; remaining: number }>
			>
		).get(customerId) ?? [];
	return invoices.filter((entry) => entry.paidMs === null && entry.remaining > 0);
}

describe('first poll', () => {
	test.each([['newCustomer'], ['newSubscription'], ['subscriptionStatusChanged']])(
		'%s: remembers where things stand and emits nothing',
		async (event) => {
			const trigger = activeTrigger(sandbox, { events: [event] });
			const first = await trigger.poll();
			expect(first.error).toBeUndefined();
			expect(first.items).toBeNull();
			expect(trigger.nodeStaticData.trigger).toMatchObject({ format: 2 });
			expect(apiRequests(sandbox).slice(0, 3)).toEqual([
				'GET /customers?limit=1000',
				'GET /customers?limit=5&offset=5',
				'GET /customers?limit=5&offset=10',
			]);
			const second = await trigger.poll();
			expect(second.items).toBeNull();
		},
	);

	test.each([['newInvoice'], ['invoicePaid'], ['invoiceOverdue']])(
		"%s: notes the API's time (one request, whatever the number of customers) and emits nothing; the first visits report nothing from before it",
		async (event) => {
			const trigger = activeTrigger(sandbox, { events: [event], scope: 'all' });
			const first = await trigger.poll();
			expect(first.error).toBeUndefined();
			expect(first.items).toBeNull();
			expect(apiRequests(sandbox)).toEqual(['GET /customers?limit=1']);
			const { sweep } = (trigger.nodeStaticData.trigger as TriggerState).invoices!;
			expect(sweep).toEqual({
				startedAt: expect.any(Number),
				lookBackMs: 7 * 86_400_000,
				nextCustomer: 0,
				since: expect.any(Number),
				polls: 0,
			});
			// the sandbox's Date header: its clock, to the second
			expect(Date.now() - sweep.since!).toBeGreaterThanOrEqual(0);
			expect(Date.now() - sweep.since!).toBeLessThan(5000);
			expect(sweep.since! % 1000).toBe(0);
			sandbox.clearRequests();
			const second = await trigger.poll();
			expect(second.items).toBeNull();
			expect(apiRequests(sandbox).slice(0, 3)).toEqual([
				'GET /customers?limit=1000',
				'GET /customers?limit=5&offset=5',
				'GET /customers?limit=5&offset=10',
			]);
			// What a user reads of their own account's pass in n8n's log.
			expect(second.logs).toContainEqual(
				expect.stringMatching(
					/^\[info\] Subscription Billing Trigger "Subscription Billing Trigger" in workflow "Harness trigger workflow" \(harness-workflow\): a pass over all 12 customers ended: 1 poll, 0 min \d+ s since it started\. A change is reported within one pass; Requests Per Poll sets how many polls a pass takes\./,
				),
			);
			expect((await trigger.poll()).items).toBeNull();
		},
	);
});

describe('the first visits after publishing (All Customers, over several polls)', () => {
	const lastCustomer = () => [...(sandbox.state.customers as Map<string, unknown>).keys()].at(-1)!;
	const summary = (item: IDataObject) => [item.event, invoice(item).invoice_id];

	test("each change made after publishing is reported once, from the invoices' own times, at a customer not yet visited; the same changes made before are not", async () => {
		const customer_id = lastCustomer();
		const issue = (amount: number) =>
			sandbox.world.issueInvoice({ customer_id, amount }).invoice_id as string;
		const before = { paid: issue(31), failed: issue(32), due: issue(33) };
		const after = { paid: issue(34), failed: issue(35), due: issue(36) };
		sandbox.world.payInvoice({ invoice_id: before.paid });
		sandbox.world.failPayment({ invoice_id: before.failed, error: 'card_declined' });
		sandbox.world.passDueDate({ invoice_id: before.due });
		const trigger = activeTrigger(sandbox, {
			events: ['newInvoice', 'invoicePaymentFailed', 'invoicePaid', 'invoiceOverdue'],
			scope: 'all',
			requestsPerPoll: 10,
		});
		expect((await trigger.poll()).items).toBeNull();
		// Later than publishing, before the sweep reaches the customer listed last.
		moveClock(2000);
		const issued = issue(37);
		sandbox.world.payInvoice({ invoice_id: after.paid });
		sandbox.world.failPayment({ invoice_id: after.failed, error: 'expired_card' });
		sandbox.world.passDueDate({ invoice_id: after.due });
		const items: IDataObject[] = [];
		let polls = 0;
		do {
			items.push(...((await trigger.poll()).items ?? []));
			polls++;
		} while (
			(trigger.nodeStaticData.trigger as TriggerState).invoices!.sweep.nextCustomer !== undefined
		);
		expect(polls).toBeGreaterThan(1);
		expect(items.map(summary).sort()).toEqual(
			[
				['newInvoice', issued],
				['invoicePaymentFailed', after.failed],
				['invoicePaid', after.paid],
				['invoiceOverdue', after.due],
			].sort(),
		);
		expect(items.find((item) => item.event === 'invoicePaymentFailed')).toMatchObject({
			error: 'expired_card',
			customer_id,
		});
		// The next sweep: nothing again.
		do expect((await trigger.poll()).items).toBeNull();
		while (
			(trigger.nodeStaticData.trigger as TriggerState).invoices!.sweep.nextCustomer !== undefined
		);
	});
});

describe('New Customer', () => {
	test('a customer created after activation is emitted once', async () => {
		const trigger = activeTrigger(sandbox, { events: ['newCustomer'] });
		expect((await trigger.poll()).items).toBeNull();
		const created = sandbox.world.createCustomer({ name: 'Nova Trading', external_id: 'EXT-NOVA' });
		sandbox.clearRequests();
		const { items } = await trigger.poll();
		expect(items).toEqual([
			{
				event: 'newCustomer',
				customer_id: created.customer_id,
				detected_at: expect.stringMatching(/Z$/),
				customer: expect.objectContaining({
					customer_id: created.customer_id,
					name: 'Nova Trading',
					external_id: 'EXT-NOVA',
				}),
			},
		]);
		expect(apiRequests(sandbox)).toEqual([
			'GET /customers?limit=1000',
			'GET /customers?limit=5&offset=5',
			'GET /customers?limit=5&offset=10',
		]);
		expect((await trigger.poll()).items).toBeNull();
	});
});

describe('subscriptions', () => {
	test('New Subscription: the subscription with its customer, once', async () => {
		const trigger = activeTrigger(sandbox, { events: ['newSubscription'] });
		await trigger.poll();
		const created = sandbox.world.createSubscription({
			customer_id: sandbox.fixtures.customerId,
			name: 'Acme - Analytics',
			status: 'SCHEDULED',
		});
		const { items } = await trigger.poll();
		expect(items).toEqual([
			{
				event: 'newSubscription',
				customer_id: sandbox.fixtures.customerId,
				subscription_id: created.subscription_id,
				detected_at: expect.any(String),
				subscription: expect.objectContaining({
					subscription_id: created.subscription_id,
					name: 'Acme - Analytics',
					status: 'SCHEDULED',
					customer: {
						customer_id: sandbox.fixtures.customerId,
						name: sandbox.fixtures.customerName,
						external_id: sandbox.fixtures.customerExternalId,
					},
				}),
			},
		]);
		expect((await trigger.poll()).items).toBeNull();
	});

	test('Subscription Status Changed: previous and new status, each change once', async () => {
		const trigger = activeTrigger(sandbox, { events: ['subscriptionStatusChanged'] });
		await trigger.poll();
		const id = sandbox.fixtures.subscriptionId;
		sandbox.world.setSubscriptionStatus({ subscription_id: id, status: 'TERMINATING' });
		const { items } = await trigger.poll();
		expect(items).toEqual([
			expect.objectContaining({
				event: 'subscriptionStatusChanged',
				previous_status: 'ACTIVE',
				status: 'TERMINATING',
				subscription: expect.objectContaining({ subscription_id: id, status: 'TERMINATING' }),
			}),
		]);
		expect((await trigger.poll()).items).toBeNull();
		sandbox.world.setSubscriptionStatus({ subscription_id: id, status: 'TERMINATED' });
		expect((await trigger.poll()).items).toEqual([
			expect.objectContaining({ previous_status: 'TERMINATING', status: 'TERMINATED' }),
		]);
	});

	test('Only Changes To: other changes are remembered but not emitted', async () => {
		const trigger = activeTrigger(sandbox, {
			events: ['subscriptionStatusChanged'],
			statuses: ['PAUSED', 'TERMINATED'],
		});
		await trigger.poll();
		const id = sandbox.fixtures.subscriptionId;
		const paused = sandbox.fixtures.pausedSubscriptionId;
		sandbox.world.setSubscriptionStatus({ subscription_id: id, status: 'TERMINATING' });
		sandbox.world.setSubscriptionStatus({ subscription_id: paused, status: 'ACTIVE' });
		expect((await trigger.poll()).items).toBeNull();
		sandbox.world.setSubscriptionStatus({ subscription_id: id, status: 'TERMINATED' });
		sandbox.world.setSubscriptionStatus({ subscription_id: paused, status: 'PAUSED' });
		const { items } = await trigger.poll();
		expect(
			items?.map((item) => [
				(item.subscription as IDataObject).subscription_id,
				item.previous_status,
				item.status,
			]),
		).toEqual([
			[id, 'TERMINATING', 'TERMINATED'],
			[paused, 'ACTIVE', 'PAUSED'],
		]);
	});
});

describe('invoices of one customer', () => {
	const customerParameter = () => ({
		__rl: true,
		mode: 'list',
		value: sandbox.fixtures.customerId,
	});

	test('New Invoice: one request per poll; invoices sharing the newest timestamp are not lost', async () => {
		const customer_id = sandbox.fixtures.customerId;
		const trigger = activeTrigger(sandbox, {
			events: ['newInvoice'],
			scope: 'customer',
			customerId: customerParameter(),
		});
		await trigger.poll();
		// issued after publishing, in the same second (the first poll noted the API's time to the second)
		const issuedAt = new Date().toISOString().slice(0, 19) + 'Z';
		const a = sandbox.world.issueInvoice({ customer_id, issued_at: issuedAt, amount: 10 });
		const b = sandbox.world.issueInvoice({ customer_id, issued_at: issuedAt, amount: 20 });
		sandbox.clearRequests();
		const first = await trigger.poll();
		expect(
			first.items?.map((item) => [item.event, invoice(item).invoice_id, invoice(item).issued_at]),
		).toEqual([
			['newInvoice', a.invoice_id, issuedAt],
			['newInvoice', b.invoice_id, issuedAt],
		]);
		expect(apiRequests(sandbox)).toEqual([
			`GET /customers/${customer_id}/invoices?ordering=-issued_at&limit=100`,
		]);
		// A third invoice with the same timestamp, issued after the poll: still new, and only it.
		const c = sandbox.world.issueInvoice({ customer_id, issued_at: issuedAt, amount: 30 });
		expect((await trigger.poll()).items?.map((item) => invoice(item).invoice_id)).toEqual([
			c.invoice_id,
		]);
		expect((await trigger.poll()).items).toBeNull();
	});

	test('Invoice Paid: an old open invoice (found by Invoice Search) and a new one, each once, with the previous status', async () => {
		// The big customer's oldest open invoice is far below the first page of the newest invoices.
		const customer_id = sandbox.fixtures.bigCustomerId;
		const [old] = openInvoicesOf(customer_id).map((entry) => ({ ...entry }));
		expect(old).toBeDefined();
		const trigger = activeTrigger(sandbox, {
			events: ['invoicePaid'],
			scope: 'customer',
			customerId: { __rl: true, mode: 'id', value: customer_id },
		});
		// publishing notes the API's time; the first visit watches every open invoice
		expect((await trigger.poll()).items).toBeNull();
		expect((await trigger.poll()).items).toBeNull();
		const table = InvoiceTable.read(
			(trigger.nodeStaticData.trigger as TriggerState).invoices!.customers,
		);
		const remembered = table.get([...table.rows.keys()][0])!;
		expect(Object.keys(remembered.watched).sort()).toEqual(
			openInvoicesOf(customer_id)
				.map((entry) => entry.invoice_id)
				.sort(),
		);

		const fresh = sandbox.world.issueInvoice({ customer_id, amount: 99 });
		sandbox.world.payInvoice({ invoice_id: old.invoice_id });
		sandbox.clearRequests();
		const { items } = await trigger.poll();
		expect(
			items?.map((item) => [
				item.event,
				invoice(item).invoice_id,
				item.previous_status,
				invoice(item).status,
			]),
		).toEqual([['invoicePaid', old.invoice_id, old.status, 'PAID']]);
		expect(invoice(items![0]).fully_paid_at).toMatch(/Z$/);
		const requests = sandbox.requests.filter((request) => request.path.startsWith('/api/v2/'));
		// The search is paged like every list (this sandbox answers 5 results a page).
		expect(
			requests.map((request) => `${request.method} ${request.path}?${request.rawQuery}`),
		).toEqual([
			`GET /api/v2/customers/${customer_id}/invoices?ordering=-issued_at&limit=100`,
			'POST /api/v2/invoices/search?limit=1000',
			...requests
				.slice(2)
				.map((_, page) => `POST /api/v2/invoices/search?limit=5&offset=${5 * (page + 1)}`),
		]);
		expect(requests[1].body).toEqual({
			customer_id,
			invoice_ids: expect.arrayContaining([old.invoice_id]),
		});
		expect(requests[1].body?.invoice_ids).not.toContain(fresh.invoice_id);

		sandbox.world.payInvoice({ invoice_id: fresh.invoice_id });
		expect(
			(await trigger.poll()).items?.map((item) => [invoice(item).invoice_id, item.previous_status]),
		).toEqual([[fresh.invoice_id, 'OPEN']]);
		expect((await trigger.poll()).items).toBeNull();
	});

	test('Invoice Overdue: emitted once when the due date passes unpaid; a paid one never', async () => {
		const customer_id = sandbox.fixtures.customerId;
		const trigger = activeTrigger(sandbox, {
			events: ['invoiceOverdue'],
			scope: 'customer',
			customerId: customerParameter(),
		});
		await trigger.poll();
		const late = sandbox.world.issueInvoice({ customer_id, amount: 50 });
		const settled = sandbox.world.issueInvoice({ customer_id, amount: 60 });
		expect((await trigger.poll()).items).toBeNull();
		sandbox.world.payInvoice({ invoice_id: settled.invoice_id });
		sandbox.world.passDueDate({ invoice_id: late.invoice_id });
		sandbox.world.passDueDate({ invoice_id: settled.invoice_id });
		const { items } = await trigger.poll();
		expect(
			items?.map((item) => [
				item.event,
				invoice(item).invoice_id,
				item.previous_status,
				invoice(item).remaining_amount,
			]),
		).toEqual([['invoiceOverdue', late.invoice_id, 'OPEN', 50]]);
		expect((await trigger.poll()).items).toBeNull();
	});

	test('Fetch Test Event returns the most recent matching invoice and leaves the state alone', async () => {
		const customer_id = sandbox.fixtures.customerId;
		const trigger = activeTrigger(sandbox, {
			events: ['invoicePaid'],
			scope: 'customer',
			customerId: customerParameter(),
		});
		await trigger.poll();
		const before = trigger.nodeStaticData;
		const paid = sandbox.world.issueInvoice({ customer_id, amount: 5 });
		sandbox.world.payInvoice({ invoice_id: paid.invoice_id });
		const manual = await trigger.fetchTestEvent();
		expect(manual.error).toBeUndefined();
		expect(manual.items?.map((item) => [item.event, invoice(item).invoice_id])).toEqual([
			['invoicePaid', paid.invoice_id],
		]);
		expect(trigger.nodeStaticData).toEqual(before);
		// The active workflow still reports it: the test fetch consumed nothing.
		expect((await trigger.poll()).items?.map((item) => invoice(item).invoice_id)).toEqual([
			paid.invoice_id,
		]);
	});

	test('a customer ID that cannot be a path segment is refused before any request', async () => {
		const trigger = activeTrigger(sandbox, {
			events: ['newInvoice'],
			scope: 'customer',
			customerId: { __rl: true, mode: 'id', value: '../plans' },
		});
		const { error } = await trigger.poll();
		expect(error?.message).toBe(
			'Customer: "../plans" is not an ID (an ID has only letters, digits and hyphens)',
		);
		expect(apiRequests(sandbox)).toEqual([]);
	});

	// One policy for every setting (trigger/parameters.ts): a value outside the editor field's limits is an error naming the field, never clamped.
	test.each([
		[
			{ events: ['newInvoice'], scope: 'all', lookBackDays: '={{ 91 }}' },
			'Look-Back Window (Days): "91" is not a whole number from 1 to 90',
		],
		[
			{
				events: ['newInvoice'],
				scope: 'customer',
				customerId: { __rl: true, mode: 'id', value: 'any-customer' },
				lookBackDays: null,
			},
			'Look-Back Window (Days): "null" is not a whole number from 1 to 90',
		],
		[
			{ events: ['invoicePaid'], scope: 'all', requestsPerPoll: '={{ 5 }}' },
			'Requests Per Poll: "5" is not a whole number of at least 10',
		],
		[
			{ events: ['subscriptionRenewalDue'], subscriptionReadsPerPoll: 2.5 },
			'Subscription Reads Per Poll: "2.5" is not a whole number of at least 10',
		],
		[
			{ events: ['subscriptionEndingSoon'], endingSoonDays: '={{ -1 }}' },
			'Days Before End: "-1" is not a whole number from 0 to 366',
		],
		[
			{ events: ['subscriptionRenewalDue'], renewalDueDays: '={{ "soon" }}' },
			'Days Before Renewal: "soon" is not a whole number from 0 to 366',
		],
	])(
		'a setting the editor would not accept is refused before any request, naming the field: %j',
		async (parameters, message) => {
			const { error } = await activeTrigger(sandbox, parameters).poll();
			expect(error?.message).toBe(message);
			expect(apiRequests(sandbox)).toEqual([]);
		},
	);
});

describe('invoices of all customers', () => {
	test('one request per customer per poll; a customer created later is covered too', async () => {
		const trigger = activeTrigger(sandbox, { events: ['newInvoice'], scope: 'all' });
		await trigger.poll();
		const customers = sandbox.fixtures.customerCount as unknown as number;
		const first = sandbox.world.issueInvoice({
			customer_id: sandbox.fixtures.bigCustomerId,
			amount: 1,
		});
		const newcomer = sandbox.world.createCustomer({ name: 'Late Arrival Inc' });
		const second = sandbox.world.issueInvoice({ customer_id: newcomer.customer_id, amount: 2 });
		sandbox.clearRequests();
		const { items } = await trigger.poll();
		expect(items?.map((item) => invoice(item).invoice_id)).toEqual([
			first.invoice_id,
			second.invoice_id,
		]);
		const requests = apiRequests(sandbox);
		expect(requests.filter((request) => request.startsWith('GET /customers?'))).toHaveLength(3);
		expect(
			requests.filter((request) =>
				/^GET \/customers\/[^/]+\/invoices\?ordering=-issued_at&limit=100$/.test(request),
			),
		).toHaveLength(customers + 1);
		expect(requests).toHaveLength(3 + customers + 1);
		expect((await trigger.poll()).items).toBeNull();
	});

	test('Fetch Test Event looks at the newest customers first and changes nothing', async () => {
		const trigger = activeTrigger(sandbox, { events: ['newInvoice'], scope: 'all' });
		await trigger.poll();
		const before = trigger.nodeStaticData;
		const manual = await trigger.fetchTestEvent();
		expect(manual.items).toHaveLength(1);
		expect(manual.items?.[0]).toMatchObject({
			event: 'newInvoice',
			invoice: expect.objectContaining({ invoice_id: expect.any(String) }),
		});
		expect(trigger.nodeStaticData).toEqual(before);
	});
});

describe('a poll that fails part-way', () => {
	test("a transient fault is retried like the node's reads: the poll still succeeds, once", async () => {
		const trigger = activeTrigger(sandbox, { events: ['newCustomer'] });
		await trigger.poll();
		const created = sandbox.world.createCustomer({ name: 'After A Retry' });
		sandbox.clearRequests();
		sandbox.setFaults({ on: [2], kinds: ['500'] });
		const { items, error } = await trigger.poll();
		sandbox.setFaults(null);
		expect(error).toBeUndefined();
		expect(items?.map((item) => (item.customer as IDataObject).customer_id)).toEqual([
			created.customer_id,
		]);
		expect(sandbox.requests.map((request) => `${request.rawQuery} ${request.status}`)).toEqual([
			'limit=1000 200',
			'limit=5&offset=5 500',
			'limit=5&offset=5 200',
			'limit=5&offset=10 200',
		]);
	});

	test('customer list: its second page fails; the state stays, the next poll emits each change once', async () => {
		const trigger = activeTrigger(sandbox, { events: ['newCustomer'] });
		await trigger.poll();
		const before = trigger.nodeStaticData;
		const a = sandbox.world.createCustomer({ name: 'Page Two Failure A' });
		const b = sandbox.world.createCustomer({ name: 'Page Two Failure B' });
		sandbox.clearRequests();
		sandbox.setFaults({ on: [2], kinds: ['403'] });
		const failed = await trigger.poll();
		sandbox.setFaults(null);
		expect(failed.error?.message).toMatch(/ERR_FORBIDDEN/);
		expect(failed.error?.description).toMatch(/GET \/api\/v2\/customers/);
		const captured = JSON.stringify({
			error: { ...failed.error, message: failed.error?.message },
			logs: failed.logs,
		});
		expect(captured).not.toContain(sandbox.apiKey);
		expect(failed.items).toBeNull();
		expect(apiRequests(sandbox)).toEqual([
			'GET /customers?limit=1000',
			'GET /customers?limit=5&offset=5',
		]);
		expect(trigger.nodeStaticData).toEqual(before);
		const { items } = await trigger.poll();
		expect(items?.map((item) => (item.customer as IDataObject).customer_id)).toEqual([
			a.customer_id,
			b.customer_id,
		]);
		expect((await trigger.poll()).items).toBeNull();
	});

	test('invoices of all customers: a customer request fails; nothing skipped or doubled after', async () => {
		const trigger = activeTrigger(sandbox, { events: ['invoicePaid'], scope: 'all' });
		await trigger.poll();
		const before = trigger.nodeStaticData;
		const one = sandbox.world.issueInvoice({ customer_id: sandbox.fixtures.customerId, amount: 7 });
		const two = sandbox.world.issueInvoice({
			customer_id: sandbox.fixtures.bigCustomerId,
			amount: 8,
		});
		sandbox.world.payInvoice({ invoice_id: one.invoice_id });
		sandbox.world.payInvoice({ invoice_id: two.invoice_id });
		sandbox.clearRequests();
		sandbox.setFaults({ on: [5], kinds: ['403'] });
		const failed = await trigger.poll();
		sandbox.setFaults(null);
		expect(failed.error).toBeDefined();
		expect(trigger.nodeStaticData).toEqual(before);
		const { items } = await trigger.poll();
		expect(items?.map((item) => invoice(item).invoice_id).sort()).toEqual(
			[one.invoice_id, two.invoice_id].sort(),
		);
		expect((await trigger.poll()).items).toBeNull();
	});
});

test('restarted from its saved static data, the trigger neither repeats nor misses', async () => {
	const trigger = activeTrigger(sandbox, {
		events: ['newInvoice'],
		scope: 'customer',
		customerId: { __rl: true, mode: 'id', value: sandbox.fixtures.customerId },
	});
	await trigger.poll();
	const a = sandbox.world.issueInvoice({ customer_id: sandbox.fixtures.customerId, amount: 1 });
	expect((await trigger.poll()).items?.map((item) => invoice(item).invoice_id)).toEqual([
		a.invoice_id,
	]);
	const saved = trigger.workflow.staticData;
	const b = sandbox.world.issueInvoice({ customer_id: sandbox.fixtures.customerId, amount: 2 });
	const restarted = activeTrigger(
		sandbox,
		{
			events: ['newInvoice'],
			scope: 'customer',
			customerId: { __rl: true, mode: 'id', value: sandbox.fixtures.customerId },
		},
		JSON.parse(JSON.stringify(saved)),
	);
	expect((await restarted.poll()).items?.map((item) => invoice(item).invoice_id)).toEqual([
		b.invoice_id,
	]);
});
