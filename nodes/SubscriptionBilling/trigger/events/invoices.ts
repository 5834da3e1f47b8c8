import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { forEachConcurrently } from '../concurrency';
import { fingerprint } from '../fingerprint';
import { readInvoiceSettings } from '../invoiceSettings';
import { readCustomerList } from './customerList';
import { mostRecentInvoice, visitCustomer, type InvoiceEvent, type Visit } from './customerInvoices';
import { customerPageFromList, readCustomerPages, type CustomerPage } from './customerPages';
import { learningAfter, learningAt, learningAtPosition, type LearningEvents } from './invoiceLearning';
import { decodeCustomerInvoices, encodeCustomerInvoices, isEmpty } from './invoiceState';
import type { PollInput, PollOutcome } from './types';

export type { InvoiceEvent };

/** Customers whose invoices are read at the same time; the request budget (rateBudget.ts) paces them. */
const PARALLEL_CUSTOMERS = 16;

/**
 * The invoice events' state, for one customer or all: a sweep visits every customer once, over one
 * or (with All Customers, under the request budget) several polls.
 * - `s`: when the current sweep started (epoch ms); `l`: its look-back window (ms);
 * - `p`, `pl`: the same of the sweep before (absent during the first sweep, which only remembers);
 * - `c`: offset in the customer list of the next customer to visit (absent: the sweep is done);
 * - `customers`: per fingerprint of a customer id, its encoded CustomerInvoices (only customers with
 *   invoices within the window or watched ones);
 * - `learning`: the events added to the selection that have not yet visited every customer.
 */
interface Sweep {
	v: 2;
	s: number;
	l: number;
	p?: number;
	pl?: number;
	c?: number;
	customers: Record<string, string>;
	learning?: LearningEvents;
}

export interface InvoicePollOptions {
	/** Events added to the selection since the state was written: they only learn at first. */
	added?: readonly InvoiceEvent[];
	/** The poll reads the whole customer list anyway (customer-list events selected): the sweep takes its customers from that reading. */
	customerListRead?: boolean;
}

function isSweep(value: IDataObject | undefined): value is IDataObject & Sweep {
	return value?.v === 2 && typeof value.s === 'number' && typeof value.customers === 'object';
}

/** Where this poll starts: the sweep in progress, a new one, or the first (silent) one. */
function startingSweep(previous: IDataObject | undefined, customerId: string | undefined, now: number, lookBackMs: number): Sweep {
	if (isSweep(previous)) {
		if (previous.c !== undefined) return { ...previous, customers: { ...previous.customers } };
		return { v: 2, s: now, l: lookBackMs, p: previous.s, pl: previous.l, c: 0, customers: { ...previous.customers } };
	}
	if (!previous) return { v: 2, s: now, l: lookBackMs, c: 0, customers: {} };
	// Release 0.1's state: each customer's entry keeps its mark for one more visit (invoiceState.ts).
	const customers = customerId
		? (typeof previous.customer === 'string' ? { [fingerprint(customerId)]: previous.customer } : {})
		: { ...((previous.customers ?? {}) as Record<string, string>) };
	return { v: 2, s: now, l: lookBackMs, p: now, pl: lookBackMs, c: 0, customers };
}

/**
 * One poll of the invoice events `events` for one customer or (customerId undefined) all: every
 * event from the same reads, one state for all of them. With all customers, the poll visits
 * customers in the customer list's order from where the last poll stopped, until its request
 * budget is spent; the next poll resumes there.
 */
export async function pollInvoiceEvents(input: PollInput, events: InvoiceEvent[], customerId: string | undefined, options: InvoicePollOptions = {}): Promise<PollOutcome> {
	const { lookBackMs, requestsPerPoll } = readInvoiceSettings(input.api.session.ctx as IPollFunctions);
	const now = input.now.getTime();
	const sweep = startingSweep(input.previous, customerId, now, lookBackMs);
	const baseline = sweep.p === undefined;
	const learning = learningAt(sweep, events, options.added ?? []);
	const start = sweep.c ?? 0;
	let spent = 0;
	let visiting = 0;
	const visit: Visit = {
		api: input.api,
		events,
		now: input.now,
		floor: baseline ? sweep.s - sweep.l : (sweep.p as number) - Math.min(sweep.pl as number, sweep.l),
		keepFrom: sweep.s - sweep.l,
		baseline,
		learning: new Set(),
		spend: () => spent++,
	};
	let page: CustomerPage;
	if (customerId) page = { ids: [customerId], end: true };
	else if (options.customerListRead) page = await customerPageFromList(input.api, start);
	else page = await readCustomerPages(input.api, start, requestsPerPoll, () => spent++);

	const found = new Map<string, IDataObject[]>();
	const visited = await forEachConcurrently(
		page.ids.map((id, index) => ({ id, position: start + index })),
		customerId ? 1 : PARALLEL_CUSTOMERS,
		async ({ id, position }) => {
			visiting++;
			const print = fingerprint(id);
			const atCustomer = { ...visit, learning: learningAtPosition(learning, position) };
			const { items, entry } = await visitCustomer(atCustomer, id, decodeCustomerInvoices(sweep.customers[print]));
			found.set(id, items);
			if (isEmpty(entry)) delete sweep.customers[print];
			else sweep.customers[print] = encodeCustomerInvoices(entry);
			visiting--;
		},
		() => customerId !== undefined || spent + visiting < requestsPerPoll,
	);
	if (page.end && visited === page.ids.length) delete sweep.c;
	else sweep.c = start + visited;
	const learningLeft = learningAfter(learning, sweep);
	if (learningLeft) sweep.learning = learningLeft;
	else delete sweep.learning;
	// Items in the order of the customer list, whatever order the requests finished in.
	const items = page.ids.flatMap((id) => found.get(id) ?? []);
	return { items, state: sweep as unknown as IDataObject };
}

/** Release 0.1's entry points: one event. */
export async function pollCustomerInvoices(input: PollInput, event: InvoiceEvent, customerId: string): Promise<PollOutcome> {
	return await pollInvoiceEvents(input, [event], customerId);
}

export async function pollAllCustomersInvoices(input: PollInput, event: InvoiceEvent): Promise<PollOutcome> {
	return await pollInvoiceEvents(input, [event], undefined);
}

/** Fetch Test Event: the most recent matching invoice, looking at the newest customers first. */
export async function sampleInvoice(input: PollInput, event: InvoiceEvent, customerId: string | undefined): Promise<IDataObject[]> {
	const ids = customerId ? [customerId] : (await readCustomerList(input.api)).customers.map((customer) => String(customer.customer_id)).reverse();
	for (const id of ids) {
		const item = await mostRecentInvoice(input.api, id, event, input.now);
		if (item) return [item];
	}
	return [];
}
