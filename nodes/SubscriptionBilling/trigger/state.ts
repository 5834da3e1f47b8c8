import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import type { LearningEvents } from './events/invoiceLearning';
import type { CustomerListEvent, InvoiceFamilyEvent } from './events/types';
import type { StoredTable } from './recordTable';

/**
 * Everything the trigger remembers between polls, in the node's static data under `trigger`.
 * Written in one assignment after every request of a poll succeeded (a poll that fails part-way
 * leaves it as it was). Beside it, trigger/pollLock.ts marks the static data with `pollBoot` (the
 * n8n process that wrote it) and `pollSeq` (that process's poll number).
 *
 * Each family of events owns one section, read from its own source; a family none of whose events
 * is selected is not written (forgotten: selected again, it starts from where things stand). A
 * state this code did not write (no `format: 1`) is not read: the trigger starts silently.
 */
export interface TriggerState {
	format: 1;
	customerList?: CustomerListState;
	invoices?: InvoiceState;
}

/**
 * The customer-list events (GET /customers), from one reading of the list a poll. A table or
 * column that is missing is not remembered yet: its events only remember at that poll.
 */
export interface CustomerListState {
	/** The family's events selected when this was written: an event added since only learns at first. */
	events: CustomerListEvent[];
	/**
	 * Customers (New Customer: its rows; Customer Updated: the columns of the six input fields,
	 * hashed). About 30 bytes a customer with both.
	 */
	customers?: StoredTable;
	/**
	 * Subscriptions (New Subscription: its rows; Status Changed, Paused, Resumed and Subscription
	 * Updated: `status`; Subscription Updated: `name` hashed, `starts_at`, `ends_at`; Compare Detail
	 * Fields: `auto_renews` and hashes of the totals and line items; Renewal Due and Compare Detail
	 * Fields: `renews_at`). Detail cells are `~` until the pass (`detailPass`) has read the subscription.
	 */
	subscriptions?: StoredTable;
	/** Ending Soon: fingerprints of `id|ends_at` reported and still inside the window (packed). */
	endingSoon?: string;
	/** Renewal Due: fingerprints of `id|renews_at` reported and still inside the window (packed). */
	renewalDue?: string;
	/** Where the pass over the running subscriptions' details stands (Renewal Due, Compare Detail Fields). */
	detailPass?: DetailPass;
}

/** The pass that reads each running subscription (Subscription Get) once, over as many polls as it takes. */
export interface DetailPass {
	/** Fingerprint of the last subscription the pass read: the next poll resumes after it. Absent: the next pass starts. */
	lastRead?: string;
	/** Its position in the list then: where the pass resumes if that subscription is gone. */
	position?: number;
	/**
	 * While Renewal Due's first pass runs: the fingerprints of the subscriptions it has read
	 * (packed). A renewal date read for the first time in that pass is only remembered.
	 */
	renewalsLearned?: string;
}

/** The invoice events (customers' invoice lists), for one customer or all. */
export interface InvoiceState {
	events: InvoiceFamilyEvent[];
	/** The customer whose invoices are watched, `*` for All Customers: another starts the family over. */
	customer: string;
	/** The sweep in progress: it visits every customer once, over one or several polls. */
	sweep: InvoiceSweep;
	/** Invoice events added to the selection that have not yet visited every customer (events/invoiceLearning.ts). */
	learning?: LearningEvents;
	/**
	 * Per customer with invoices issued within the look-back window or watched ones (the others
	 * take no room), packed as one string: events/invoiceState.ts.
	 */
	customers: string;
	/** The invoice statuses the packed customers refer to by number. */
	statuses: string[];
}

export interface InvoiceSweep {
	/** When it started (epoch ms) and its look-back window (ms). */
	startedAt: number;
	lookBackMs: number;
	/** The same of the sweep before; absent during the first sweep, which only remembers. */
	previous?: { startedAt: number; lookBackMs: number };
	/** Offset in the customer list of the next customer to visit; absent: the sweep is done. */
	nextCustomer?: number;
}

const STATE_KEY = 'trigger';

export function readTriggerState(ctx: IPollFunctions): TriggerState {
	const stored = ctx.getWorkflowStaticData('node')[STATE_KEY] as TriggerState | undefined;
	return stored?.format === 1 ? stored : { format: 1 };
}

export function writeTriggerState(ctx: IPollFunctions, state: TriggerState): void {
	ctx.getWorkflowStaticData('node')[STATE_KEY] = state as unknown as IDataObject;
}

/** The events selected now that the memory was not kept for: they only learn at first. None when there is no memory. */
export function addedEvents<T extends string>(before: readonly string[] | undefined, selected: readonly T[]): T[] {
	return before ? selected.filter((event) => !before.includes(event)) : [];
}
