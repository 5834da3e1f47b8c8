import type { IDataObject } from 'n8n-workflow';
import { forEachConcurrently } from '../concurrency';
import { fingerprint } from '../state/fingerprint';
import type { InvoiceState, InvoiceSweep } from '../state/triggerState';
import { customerPage, readCustomerList, type CustomerPage } from './customerList';
import { mostRecentInvoice, visitCustomer, type Visit } from './customerInvoices';
import { InvoiceTable } from '../state/invoiceTable';
import type { InvoiceFamilyEvent } from './catalog';
import type { PollInput } from './types';

/** Customers whose invoices are read at the same time; the request budget (shared/transport.ts) paces them. */
const PARALLEL_CUSTOMERS = 16;

export interface InvoicePollOptions {
	/** The settings (parameters.ts): the look-back window and, over all customers, a poll's request budget. */
	lookBackMs: number;
	requestsPerPoll: number;
	/** Events added to the selection since the state was written: they only learn at first. */
	added: readonly InvoiceFamilyEvent[];
	/** The poll reads the whole customer list anyway (customer-list events selected): the sweep takes its customers from that reading. */
	customerListRead: boolean;
}

/** `*`: All Customers. */
export function watchedCustomer(customerId: string | undefined): string {
	return customerId ?? '*';
}

/** Where this poll starts: the sweep in progress, a new one, or the first (silent) one. */
function startingSweep(
	previous: InvoiceSweep | undefined,
	now: number,
	lookBackMs: number,
): InvoiceSweep {
	if (!previous) return { startedAt: now, lookBackMs, nextCustomer: 0 };
	if (previous.nextCustomer !== undefined) return { ...previous };
	return {
		startedAt: now,
		lookBackMs,
		previous: { startedAt: previous.startedAt, lookBackMs: previous.lookBackMs },
		nextCustomer: 0,
	};
}

/**
 * One poll of the invoice events `events` for one customer or (customerId undefined) all: every
 * event from the same reads, one state for all of them (`previous`: for the same customers, or
 * undefined). With all customers, the poll visits customers in the customer list's order from
 * where the last poll stopped, until its request budget is spent; the next poll resumes there.
 */
export async function pollInvoiceEvents(
	input: PollInput,
	previous: InvoiceState | undefined,
	events: InvoiceFamilyEvent[],
	customerId: string | undefined,
	options: InvoicePollOptions,
): Promise<{ items: IDataObject[]; state: InvoiceState }> {
	const { lookBackMs, requestsPerPoll } = options;
	const now = input.now.getTime();
	const sweep = startingSweep(previous?.sweep, now, lookBackMs);
	const table = InvoiceTable.read(previous?.customers);
	const learning = learningAt(
		{ nextCustomer: sweep.nextCustomer, learning: previous?.learning },
		events,
		options.added,
	);
	const start = sweep.nextCustomer ?? 0;
	let spent = 0;
	let visiting = 0;
	const visit: Visit = {
		api: input.api,
		events,
		now: input.now,
		floor: sweep.previous
			? sweep.previous.startedAt - Math.min(sweep.previous.lookBackMs, sweep.lookBackMs)
			: sweep.startedAt - sweep.lookBackMs,
		keepFrom: sweep.startedAt - sweep.lookBackMs,
		baseline: sweep.previous === undefined,
		learning: new Set(),
		spend: () => spent++,
	};
	let page: CustomerPage;
	if (customerId) page = { ids: [customerId], end: true };
	else
		page = await customerPage(input.api, start, {
			fromList: options.customerListRead,
			want: requestsPerPoll,
			spend: () => spent++,
		});

	const found = new Map<string, IDataObject[]>();
	const visited = await forEachConcurrently(
		page.ids.map((id, index) => ({ id, position: start + index })),
		customerId ? 1 : PARALLEL_CUSTOMERS,
		async ({ id, position }) => {
			visiting++;
			const print = fingerprint(id);
			const atCustomer = { ...visit, learning: learningAtPosition(learning, position) };
			const { items, entry } = await visitCustomer(atCustomer, id, table.get(print));
			found.set(id, items);
			table.set(print, entry);
			visiting--;
		},
		() => customerId !== undefined || spent + visiting < requestsPerPoll,
	);
	if (page.end && visited === page.ids.length) delete sweep.nextCustomer;
	else sweep.nextCustomer = start + visited;
	const state: InvoiceState = {
		events,
		customer: watchedCustomer(customerId),
		sweep,
		customers: table.store(),
	};
	const learningLeft = learningAfter(learning, sweep.nextCustomer);
	if (learningLeft) state.learning = learningLeft;
	// Items in the order of the customer list, whatever order the requests finished in.
	const items = page.ids.flatMap((id) => found.get(id) ?? []);
	return { items, state };
}

/** Fetch Test Event: the most recent matching invoice, looking at the newest customers first. */
export async function sampleInvoice(
	input: PollInput,
	event: InvoiceFamilyEvent,
	customerId: string | undefined,
): Promise<IDataObject[]> {
	const ids = customerId
		? [customerId]
		: (await readCustomerList(input.api)).customers
				.map((customer) => String(customer.customer_id))
				.reverse();
	for (const id of ids) {
		const item = await mostRecentInvoice(input.api, id, event, input.now);
		if (item) return [item];
	}
	return [];
}

/**
 * An event added while the family was running: at each customer its first visit only remembers,
 * as the first sweep does for all events. `from`: the offset in the customer list its first sweep
 * had reached when it was added (it learns from there to the end); `nextSweep`: that sweep has
 * ended, and the customers before `from` are still to learn.
 */
interface Learning {
	from: number;
	nextSweep: boolean;
}

/** The sweep's `learning`: per event added to the selection, where it still learns. */
type LearningEvents = Partial<Record<InvoiceFamilyEvent, Learning>>;

/** The learning events still selected, and the events just added (learning from where the sweep stands). */
function learningAt(
	sweep: { nextCustomer?: number; learning?: LearningEvents },
	events: InvoiceFamilyEvent[],
	added: readonly InvoiceFamilyEvent[],
): LearningEvents {
	const learning: LearningEvents = {};
	for (const event of events) {
		const entry =
			sweep.learning?.[event] ??
			(added.includes(event) ? { from: sweep.nextCustomer ?? 0, nextSweep: false } : undefined);
		if (entry) learning[event] = entry;
	}
	return learning;
}

/** The events that only remember at the customer at `position` of the sweep. */
function learningAtPosition(learning: LearningEvents, position: number): Set<InvoiceFamilyEvent> {
	const events = Object.entries(learning) as Array<[InvoiceFamilyEvent, Learning]>;
	return new Set(
		events
			.filter(([, { from, nextSweep }]) => (nextSweep ? position < from : position >= from))
			.map(([event]) => event),
	);
}

/** What is left to learn once the poll has visited customers up to `nextCustomer` (undefined: the sweep ended). */
function learningAfter(
	learning: LearningEvents,
	nextCustomer: number | undefined,
): LearningEvents | undefined {
	const left: LearningEvents = {};
	for (const [event, entry] of Object.entries(learning) as Array<[InvoiceFamilyEvent, Learning]>) {
		if (nextCustomer !== undefined && !(entry.nextSweep && nextCustomer >= entry.from))
			left[event] = entry;
		else if (nextCustomer === undefined && !entry.nextSweep && entry.from > 0)
			left[event] = { from: entry.from, nextSweep: true };
	}
	return Object.keys(left).length > 0 ? left : undefined;
}
