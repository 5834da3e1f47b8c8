import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import type { LearningEvents } from './events/invoiceLearning';
import { InvoiceTable } from './events/invoiceState';
import type { CustomerListEvent, InvoiceFamilyEvent } from './events/types';
import { RecordTable, UNKNOWN, type StoredTable } from './recordTable';

/**
 * Everything the trigger remembers between polls, in the node's static data under `trigger`.
 * Written in one assignment after every request of a poll succeeded (a poll that fails part-way
 * leaves it as it was). Beside it, trigger/pollLock.ts marks the static data with `pollBoot` (the
 * n8n process that wrote it) and `pollSeq` (that process's poll number).
 *
 * Each family of events owns one section, read from its own source; a family none of whose events
 * is selected is not written (forgotten: selected again, it starts from where things stand). A
 * state this code did not write (no `format: 1`) is not read: the trigger starts silently.
 *
 * As saved, the invoice rows of the customers the customers table has are kept in that table, in
 * an `invoices` column (a `[row]` cell, `~` for none): one fingerprint a customer instead of two.
 * Reading the state splits them back, so each family sees only its own section.
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
	 * While Renewal Due's first pass runs (from the poll the event was chosen): a renewal date read
	 * for the first time in the pass is only remembered. The pass reads in list order, so a
	 * subscription before `position` has been read; `readAhead`: the fingerprints (packed) of those
	 * after it read already (due renewals confirmed, changed subscriptions).
	 */
	learningRenewals?: { readAhead: string };
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
const INVOICES_COLUMN = 'invoices';
const NOT_EXACT = new Set<string>();

export function readTriggerState(ctx: IPollFunctions): TriggerState {
	const stored = ctx.getWorkflowStaticData('node')[STATE_KEY] as TriggerState | undefined;
	return stored?.format === 1 ? withOwnRows(stored) : { format: 1 };
}

export function writeTriggerState(ctx: IPollFunctions, state: TriggerState): void {
	ctx.getWorkflowStaticData('node')[STATE_KEY] = withSharedRows(state) as unknown as IDataObject;
}

/** The state as saved: the invoice rows of the customers table's customers in its `invoices` column. */
function withSharedRows(state: TriggerState): TriggerState {
	const customers = RecordTable.read(state.customerList?.customers, NOT_EXACT);
	if (!customers || !state.invoices) return state;
	const invoices = InvoiceTable.read(state.invoices.customers, state.invoices.statuses);
	const shared = RecordTable.after(customers, [...customers.columns, INVOICES_COLUMN], NOT_EXACT);
	for (const [print, cells] of customers.rows) {
		const row = invoices.rows.get(print);
		shared.rows.set(print, [...cells, row === undefined ? UNKNOWN : `[${row}]`]);
		invoices.rows.delete(print);
	}
	return { ...state, customerList: { ...state.customerList!, customers: shared.store() }, invoices: { ...state.invoices, customers: invoices.pack() } };
}

/** The state as the families read it: the invoice rows kept in the customers table back in the invoice section. */
function withOwnRows(state: TriggerState): TriggerState {
	const shared = RecordTable.read(state.customerList?.customers, NOT_EXACT);
	if (!shared?.has(INVOICES_COLUMN)) return state;
	const index = shared.columns.indexOf(INVOICES_COLUMN);
	const customers = RecordTable.after(shared, shared.columns.filter((column) => column !== INVOICES_COLUMN), NOT_EXACT);
	const invoices = state.invoices && InvoiceTable.read(state.invoices.customers, state.invoices.statuses);
	for (const [print, cells] of shared.rows) {
		customers.rows.set(print, cells.filter((_, column) => column !== index));
		if (invoices && cells[index].startsWith('[')) invoices.rows.set(print, cells[index].slice(1, -1));
	}
	return { ...state, customerList: { ...state.customerList!, customers: customers.store() }, ...(state.invoices && { invoices: { ...state.invoices, customers: invoices!.pack() } }) };
}

/** The events selected now that the memory was not kept for: they only learn at first. None when there is no memory. */
export function addedEvents<T extends string>(before: readonly string[] | undefined, selected: readonly T[]): T[] {
	return before ? selected.filter((event) => !before.includes(event)) : [];
}
