import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from './helpers/billing.cjs';
import { activeTrigger, apiRequests, publishedAndSwept } from './helpers/trigger.cjs';
import type { Poller } from './harness/index.cjs';
import type { Sandbox as SandboxServer } from './sandbox/index.cjs';
import { heldBudgets } from '../nodes/SubscriptionBilling/shared/requestBudget';
import { InvoiceTable } from '../nodes/SubscriptionBilling/trigger/state/invoiceTable';
import type { TriggerState } from '../nodes/SubscriptionBilling/trigger/state/triggerState';

// Issue 20 §2: all customers under a request budget per poll. Pages of 5 customers; 12 customers.
const sandbox = useSandbox({ maxPageSize: 5 });
beforeEach(() => sandbox.clearRequests());

const BUDGET = 10;
/** The sandbox's own type: its rate limit and latency (limits.js). */
const server = () => sandbox as unknown as SandboxServer;
const invoiceIdOf = (item: IDataObject) => (item.invoice as IDataObject).invoice_id as string;
const customersInListOrder = () => [...(sandbox.state.customers as Map<string, unknown>).keys()];
const invoiceState = (trigger: Poller) =>
	(trigger.nodeStaticData.trigger as TriggerState).invoices!;

async function pollOnce(trigger: Poller): Promise<{ items: string[]; requests: number }> {
	sandbox.clearRequests();
	const { items, error } = await trigger.poll();
	expect(error).toBeUndefined();
	return { items: (items ?? []).map(invoiceIdOf), requests: apiRequests(sandbox).length };
}

/** Polls until the sweep in progress is done; each poll's items and request count. */
async function finishSweep(trigger: Poller): Promise<Array<{ items: string[]; requests: number }>> {
	const polls = [];
	while (invoiceState(trigger).sweep.nextCustomer !== undefined)
		polls.push(await pollOnce(trigger));
	return polls;
}

/** One whole sweep from its first poll. */
async function pollSweep(trigger: Poller): Promise<Array<{ items: string[]; requests: number }>> {
	return [await pollOnce(trigger), ...(await finishSweep(trigger))];
}

test('a sweep spans several polls under Requests Per Poll, each resuming where the last stopped; changes before and behind the cursor, each once', async () => {
	const customers = customersInListOrder();
	const trigger = activeTrigger(sandbox, {
		events: ['newInvoice'],
		scope: 'all',
		requestsPerPoll: BUDGET,
	});
	// Publishing notes the API's time (one request); the first sweep then visits the customers under
	// Requests Per Poll like any sweep, each first visit reporting what changed since (nothing here).
	const first = await pollSweep(trigger);
	expect(first[0]).toEqual({ items: [], requests: 1 });
	expect(first.length).toBeGreaterThan(2);
	expect(first.flatMap((poll) => poll.items)).toEqual([]);
	expect(Math.max(...first.map((poll) => poll.requests))).toBeLessThanOrEqual(BUDGET + 3);

	// Second sweep: the first poll visits the first customers; then every customer issues an invoice.
	sandbox.clearRequests();
	const opening = await trigger.poll();
	expect(opening.items).toBeNull();
	expect(apiRequests(sandbox)[0]).toBe('GET /customers?limit=1000');
	const resumeAt = invoiceState(trigger).sweep.nextCustomer!;
	expect(resumeAt).toBeGreaterThan(0);
	expect(resumeAt).toBeLessThan(customers.length);
	const issued = customers.map(
		(customer_id) => sandbox.world.issueInvoice({ customer_id, amount: 3 }).invoice_id,
	);
	sandbox.clearRequests();
	const resumed = await trigger.poll();
	expect(apiRequests(sandbox)[0]).toBe(`GET /customers?offset=${resumeAt}&limit=1000`);
	// Customers not yet visited in this sweep report theirs now, the others in the next sweep.
	const rest = [
		...(resumed.items ?? []).map(invoiceIdOf),
		...(await finishSweep(trigger)).flatMap((poll) => poll.items),
	];
	const next = (await pollSweep(trigger)).flatMap((poll) => poll.items);
	expect(rest).toEqual(issued.slice(resumeAt));
	expect(next).toEqual(issued.slice(0, resumeAt));
	expect((await pollSweep(trigger)).flatMap((poll) => poll.items)).toEqual([]);
});

test('the state is bounded: sweep after sweep it keeps the same size; only customers with invoices in the look-back window take room', async () => {
	const trigger = activeTrigger(sandbox, {
		events: ['newInvoice'],
		scope: 'all',
		requestsPerPoll: BUDGET,
	});
	await pollSweep(trigger);
	const [one, two] = customersInListOrder();
	sandbox.world.issueInvoice({ customer_id: one, amount: 1 });
	sandbox.world.issueInvoice({ customer_id: two, amount: 2 });
	await pollSweep(trigger);
	await pollSweep(trigger);
	const size = JSON.stringify(trigger.nodeStaticData.trigger).length;
	for (let sweep = 0; sweep < 3; sweep++) await pollSweep(trigger);
	expect(JSON.stringify(trigger.nodeStaticData.trigger).length).toBe(size);
	expect(InvoiceTable.read(invoiceState(trigger).customers).rows.size).toBe(2);
});

test("a 429 slows the poll through the request budget (the action node's): no poll fails, nothing is missed or doubled", async () => {
	const trigger = activeTrigger(sandbox, { events: ['newInvoice'], scope: 'all' });
	await publishedAndSwept(trigger);
	const customers = customersInListOrder();
	const issued = customers
		.slice(0, 6)
		.map((customer_id) => sandbox.world.issueInvoice({ customer_id, amount: 4 }).invoice_id);
	// At most 3 requests in flight, 20 a second; more are answered 429 with Retry-After.
	server().setLimits({ maxInFlight: 3, ratePerSecond: 20, burst: 5 });
	sandbox.clearRequests();
	try {
		const { items, error } = await trigger.poll();
		expect(error).toBeUndefined();
		expect(items?.map(invoiceIdOf)).toEqual(issued);
		const stats = server().limits.stats();
		expect(stats.limited + stats.rejectedInFlight).toBeGreaterThan(0);
		// Each request was answered; the 429s were repeated, none given up on.
		const answered = sandbox.requests.filter(
			(request) => request.path.startsWith('/api/v2/') && request.status === 200,
		).length;
		expect(answered).toBe(3 + customers.length);
		// What the budget learned stays with the trigger for its next poll (polls run outside executions).
		expect(heldBudgets()).toBeGreaterThan(0);
		const again = customers
			.slice(6)
			.map((customer_id) => sandbox.world.issueInvoice({ customer_id, amount: 5 }).invoice_id);
		const next = await trigger.poll();
		expect(next.error).toBeUndefined();
		expect(next.items?.map(invoiceIdOf)).toEqual(again);
	} finally {
		server().setLimits(null);
	}
});
