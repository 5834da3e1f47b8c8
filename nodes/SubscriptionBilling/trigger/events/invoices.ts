import type { IDataObject } from 'n8n-workflow';
import { forEachConcurrently } from '../concurrency';
import type { InvoiceState, InvoiceSweep } from '../state/triggerState';
import { customerPage, type CustomerPage } from './customerList';
import { visitCustomer, type Visit } from './customerInvoices';
import { InvoiceTable } from '../state/invoiceTable';
import type { InvoiceFamilyEvent } from './catalog';
import type { PollInput } from './types';
import { apiTime } from '../apiClock';
import { passEndedLine, withRestart } from './passLine';

/** Customers whose invoices are read at the same time; the request budget (shared/requestBudget.ts) paces them. */
const PARALLEL_CUSTOMERS = 16;

export interface InvoicePollOptions {
	/** The settings (parameters.ts): the look-back window and, over all customers, a poll's request budget. */
	lookBackMs: number;
	requestsPerPoll: number;
	/** Events added to the selection since the state was written: they only learn at first. */
	added: readonly InvoiceFamilyEvent[];
	/** The poll reads the whole customer list anyway (customer-list events selected): the sweep takes its customers from that reading. */
	customerListRead: boolean;
	/** The moment chosen for the invoice events to start from (epoch ms, Catch Up From); undefined: publishing. */
	from?: number;
}

/** `*`: All Customers. */
export function watchedCustomer(customerId: string | undefined): string {
	return customerId ?? '*';
}

/** Where this poll starts: the sweep in progress, or a new one after the last ended. */
function startingSweep(previous: InvoiceSweep, now: number, lookBackMs: number): InvoiceSweep {
	if (previous.nextCustomer !== undefined) return { ...previous };
	return {
		startedAt: now,
		lookBackMs,
		previous: { startedAt: previous.startedAt, lookBackMs: previous.lookBackMs },
		nextCustomer: 0,
		polls: 0,
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
	const customer = watchedCustomer(customerId);
	// The first poll (publishing) only notes the moment from which changes are reported (the API's
	// time, or the one chosen to catch up from): each customer's first visit then reports what
	// changed since, from the invoices' own times.
	if (!previous) {
		const since = options.from ?? (await apiTime(input.api, input.now));
		const sweep: InvoiceSweep = { startedAt: now, lookBackMs, nextCustomer: 0, since, polls: 0 };
		if (options.from !== undefined) sweep.catchUp = true;
		return {
			items: [],
			state: { events, customer, sweep, customers: InvoiceTable.read(undefined).store() },
		};
	}
	const sweep = startingSweep(previous.sweep, now, lookBackMs);
	sweep.polls = (sweep.polls ?? 0) + 1;
	// A sweep n8n restarted during (it goes on from the state saved last): its pass line says so.
	if (input.restarted && previous.sweep.nextCustomer !== undefined)
		sweep.restarts = withRestart(sweep.restarts, input.restarted.at, now);
	const table = InvoiceTable.read(previous.customers);
	const learning = learningAt(
		{ nextCustomer: sweep.nextCustomer, learning: previous.learning },
		events,
		options.added,
		options.added.length > 0 ? await apiTime(input.api, input.now) : now,
	);
	const start = sweep.nextCustomer ?? 0;
	let spent = 0;
	let visiting = 0;
	// Before its end the first sweep's visits are each customer's first: they report from its `since`
	// (a state saved before there was one: nothing, as the first sweep then did).
	const firstSweepSince = sweep.previous === undefined ? (sweep.since ?? Infinity) : undefined;
	const visit: Visit = {
		api: input.api,
		events,
		now: input.now,
		// The first sweep reads back to its `since` too, when that is earlier (a catch-up).
		floor: sweep.previous
			? sweep.previous.startedAt - Math.min(sweep.previous.lookBackMs, sweep.lookBackMs)
			: Math.min(sweep.startedAt - sweep.lookBackMs, sweep.since ?? Infinity),
		keepFrom: sweep.startedAt - sweep.lookBackMs,
		firstSince: new Map(),
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
			const firstSince = learningAtPosition(learning, position);
			// An event added during the first sweep reports from the later of the two moments.
			if (firstSweepSince !== undefined)
				for (const event of events)
					firstSince.set(event, Math.max(firstSince.get(event) ?? -Infinity, firstSweepSince));
			const atCustomer = { ...visit, firstSince };
			const { items, entry } = await visitCustomer(atCustomer, id, table.customer(id));
			found.set(id, items);
			table.setCustomer(id, entry);
			visiting--;
		},
		() => customerId !== undefined || spent + visiting < requestsPerPoll,
	);
	if (page.end && visited === page.ids.length) {
		delete sweep.nextCustomer;
		if (!customerId) input.note?.(passEndedLine(start + visited, sweep, now));
		delete sweep.since;
		delete sweep.catchUp;
	} else sweep.nextCustomer = start + visited;
	const state: InvoiceState = {
		events,
		customer,
		sweep,
		customers: table.store(),
	};
	const learningLeft = learningAfter(learning, sweep.nextCustomer);
	if (learningLeft) state.learning = learningLeft;
	// Items in the order of the customer list, whatever order the requests finished in.
	const items = page.ids.flatMap((id) => found.get(id) ?? []);
	return { items, state };
}

/**
 * An event added while the family was running: at each customer its first visit reports what
 * changed since it was added (`since`, on the API's clock), as the first sweep does from the
 * trigger's publishing. `from`: the offset in the customer list its first sweep had reached when it
 * was added (its first visits run from there to the end); `nextSweep`: that sweep has ended, and
 * the customers before `from` are still to have theirs.
 */
interface Learning {
	from: number;
	nextSweep: boolean;
	/** Absent in a state saved before it was kept: such a first visit reports nothing. */
	since?: number;
}

/** The sweep's `learning`: per event added to the selection, where its first visits still are. */
type LearningEvents = Partial<Record<InvoiceFamilyEvent, Learning>>;

/** The learning events still selected, and the events just added (first visits from where the sweep stands, reporting from `since`). */
function learningAt(
	sweep: { nextCustomer?: number; learning?: LearningEvents },
	events: InvoiceFamilyEvent[],
	added: readonly InvoiceFamilyEvent[],
	since: number,
): LearningEvents {
	const learning: LearningEvents = {};
	for (const event of events) {
		const entry =
			sweep.learning?.[event] ??
			(added.includes(event)
				? { from: sweep.nextCustomer ?? 0, nextSweep: false, since }
				: undefined);
		if (entry) learning[event] = entry;
	}
	return learning;
}

/** The events whose first visit the customer at `position` of the sweep has, each with the moment it reports from. */
function learningAtPosition(
	learning: LearningEvents,
	position: number,
): Map<InvoiceFamilyEvent, number> {
	const events = Object.entries(learning) as Array<[InvoiceFamilyEvent, Learning]>;
	return new Map(
		events
			.filter(([, { from, nextSweep }]) => (nextSweep ? position < from : position >= from))
			.map(([event, { since }]) => [event, since ?? Infinity]),
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
			left[event] = { ...entry, nextSweep: true };
	}
	return Object.keys(left).length > 0 ? left : undefined;
}
