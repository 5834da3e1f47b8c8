import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { INVOICE_COLUMNS } from './invoiceTable';
import { isStoredTable, UNKNOWN, walkRows, type StoredTable } from './recordTable';

/**
 * Everything the trigger remembers between polls, in the node's static data under `trigger`.
 * Written in one assignment after every request of a poll succeeded (a poll that fails part-way
 * leaves it as it was). Beside it, trigger/pollLock.ts marks the static data with `pollBoot` (the
 * n8n process that wrote it) and `pollSeq` (that process's poll number).
 *
 * Each family of events owns one section, read from its own source; a family none of whose events
 * is selected is not written (forgotten: selected again, it starts from where things stand). A
 * state this code did not write (no `format: 2`) is not read: the trigger starts over as at
 * publishing (also in the poll n8n runs as it starts: trigger/startupPoll.ts) and says so in n8n's log.
 *
 * Every table is a record table in the one cell encoding (recordTable.ts, cells.ts). As saved, the
 * invoice rows of the customers the customers table has are kept in that table, in its columns
 * `known` and `watched` (`~` for none): one fingerprint a customer instead of two, which keeps the
 * state within its budget (10 MB at 100,000 customers, every event: docs/trigger.md). Reading the
 * state splits them back, so each family sees only its own section.
 */
export interface TriggerState {
	format: 2;
	customerList?: CustomerListState;
	invoices?: InvoiceState;
}

/**
 * The customer-list events (GET /customers), from one reading of the list a poll. A table or
 * column that is missing is not remembered yet: its events only remember at that poll.
 */
export interface CustomerListState {
	/** The family's events selected when this was written: an event added since only learns at first. */
	events: string[];
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
	/** Ending Soon: the `id|ends_at` pairs reported and still inside the window (an IdSet, idSet.ts). */
	endingSoon?: string;
	/** Renewal Due: the `id|renews_at` pairs reported and still inside the window (an IdSet). */
	renewalDue?: string;
	/** Where the pass over the running subscriptions' details stands (Renewal Due, Compare Detail Fields). */
	detailPass?: DetailPass;
}

/** The pass that reads each running subscription (Subscription Get) once, over as many polls as it takes. */
export interface DetailPass {
	/** The last subscription the pass read (storedId): the next poll resumes after it. Absent: the next pass starts. */
	lastRead?: string;
	/** Its position in the list then: where the pass resumes if that subscription is gone. */
	position?: number;
	/**
	 * While Renewal Due's first pass runs (from the poll the event was chosen, at `since`, epoch ms):
	 * a renewal date read for the first time in the pass is reported only if it entered the window
	 * after `since` (absent in a state saved before it was kept: as it stands when read). The pass reads in list
	 * order, so a subscription before `position` has been read; `readAhead`: those after it read
	 * already (an IdSet) (due renewals confirmed, changed subscriptions).
	 */
	learningRenewals?: { readAhead: string; since?: number };
	/** Compare Detail Fields' first pass (from the poll it was chosen): each detail read is only remembered until the pass ends. */
	learningDetails?: true;
}

/** The invoice events (customers' invoice lists), for one customer or all. */
export interface InvoiceState {
	events: string[];
	/** The customer whose invoices are watched, `*` for All Customers: another starts the family over. */
	customer: string;
	/** The sweep in progress: it visits every customer once, over one or several polls. */
	sweep: InvoiceSweep;
	/** Invoice events added to the selection whose first visit some customers have still to have (events/invoices.ts). */
	learning?: Partial<Record<string, { from: number; nextSweep: boolean; since?: number }>>;
	/** Per customer with invoices issued within the look-back window or watched ones (the others take no room): invoiceTable.ts. */
	customers: StoredTable;
}

export interface InvoiceSweep {
	/** When it started (epoch ms) and its look-back window (ms). */
	startedAt: number;
	lookBackMs: number;
	/** The same of the sweep before; absent during the first sweep, whose visits are each customer's first. */
	previous?: { startedAt: number; lookBackMs: number };
	/**
	 * The first sweep: the moment from which its visits report (epoch ms on the API's clock, the
	 * first poll's): a customer's first visit reports what its invoices' own times place after it.
	 */
	since?: number;
	/** The first sweep's `since` is the moment the user chose to catch up from (Catch Up From), not publishing. */
	catchUp?: true;
	/** Offset in the customer list of the next customer to visit; absent: the sweep is done. */
	nextCustomer?: number;
	/**
	 * Polls the sweep has taken so far (absent in a state saved before it was kept). Polls after the
	 * state n8n last saved, redone after a restart, are counted once: what a pass takes without one.
	 */
	polls?: number;
	/** n8n restarted during the sweep, which went on from the state n8n had saved last; absent: it did not. */
	restarts?: SweepRestarts;
}

export interface SweepRestarts {
	times: number;
	/** When the poll ended whose state the last restart went on from (epoch ms; absent: not known, a state saved before it was kept). */
	savedAt?: number;
	/** Summed over the restarts: from that poll to the first poll after the restart (ms; absent: one is not known). */
	gapMs?: number;
}

const STATE_KEY = 'trigger';

/**
 * The state as saved, if this code wrote it (format 2): what a poll goes on from. Its invoice rows
 * are still in the customers table (see withSharedRows): for its sections, not its tables.
 */
export function savedTriggerState(ctx: IPollFunctions): TriggerState | undefined {
	const stored = ctx.getWorkflowStaticData('node')[STATE_KEY] as TriggerState | undefined;
	return stored?.format === 2 ? stored : undefined;
}

export function readTriggerState(ctx: IPollFunctions): TriggerState {
	const saved = savedTriggerState(ctx);
	return saved ? withOwnRows(saved) : { format: 2 };
}

/** Whether the node holds saved data but no state this code reads (another version of the package saved it). */
export function hasUnreadableState(ctx: IPollFunctions): boolean {
	return (
		Object.keys(ctx.getWorkflowStaticData('node')).length > 0 &&
		savedTriggerState(ctx) === undefined
	);
}

export function writeTriggerState(ctx: IPollFunctions, state: TriggerState): void {
	ctx.getWorkflowStaticData('node')[STATE_KEY] = withSharedRows(state) as unknown as IDataObject;
}

type Row = [print: string, cells: string];

/** A stored table's rows, each its fingerprint and its cells as stored; undefined when they do not fit its kinds. */
function rowsOf(table: StoredTable): Row[] | undefined {
	const rows: Row[] = [];
	const fits = walkRows(table.rows, table.kinds, (print, cellsAt, end) =>
		rows.push([print, table.rows.slice(cellsAt, end)]),
	);
	return fits ? rows : undefined;
}

const joinRows = (rows: Row[]) => rows.map(([print, cells]) => print + cells).join('');

/**
 * The state as saved: the invoice rows of the customers table's customers in its columns. Both
 * tables are stored in fingerprint order, so one pass over each pairs them (a 100,000-customer
 * state is read and saved once per poll; parsing both tables into maps each way cost about a
 * second). Only a customers table without words is joined (its cells are hashes): the words are
 * the invoice table's. A row out of order would only stay in its own section, never be lost.
 */
function withSharedRows(state: TriggerState): TriggerState {
	const customers = state.customerList?.customers;
	const invoices = state.invoices?.customers;
	if (
		!customers ||
		!invoices ||
		customers.words !== undefined ||
		INVOICE_COLUMNS.some((column) => customers.columns.includes(column))
	)
		return state;
	const own = rowsOf(customers);
	const invoiceRows = rowsOf(invoices);
	if (!own || !invoiceRows) return state;
	const leftOver: Row[] = [];
	let next = 0;
	const rows = own.map(([print, cells]): Row => {
		while (next < invoiceRows.length && invoiceRows[next][0] < print)
			leftOver.push(invoiceRows[next++]);
		const shared =
			next < invoiceRows.length && invoiceRows[next][0] === print
				? invoiceRows[next++][1]
				: UNKNOWN.repeat(INVOICE_COLUMNS.length);
		return [print, cells + shared];
	});
	leftOver.push(...invoiceRows.slice(next));
	return {
		...state,
		customerList: {
			...state.customerList!,
			customers: {
				columns: [...customers.columns, ...invoices.columns],
				kinds: [...customers.kinds, ...invoices.kinds],
				...(invoices.words && { words: invoices.words }),
				rows: joinRows(rows),
			},
		},
		invoices: { ...state.invoices!, customers: { ...invoices, rows: joinRows(leftOver) } },
	};
}

/** The state as the families read it: the invoice rows kept in the customers table back in the invoice section, in fingerprint order. */
function withOwnRows(state: TriggerState): TriggerState {
	const shared = state.customerList?.customers;
	const from = isStoredTable(shared) ? shared.columns.indexOf(INVOICE_COLUMNS[0]) : -1;
	if (!shared || from < 0 || !isStoredTable(state.invoices?.customers)) return state;
	const own: Row[] = [];
	const kept: Row[] = [];
	let cell = 0;
	let splitAt = 0;
	const fits = walkRows(
		shared.rows,
		shared.kinds,
		(print, cellsAt, end) => {
			own.push([print, shared.rows.slice(cellsAt, splitAt)]);
			const invoices = shared.rows.slice(splitAt, end);
			if (invoices !== UNKNOWN.repeat(INVOICE_COLUMNS.length)) kept.push([print, invoices]);
			cell = 0;
		},
		(start) => {
			if (cell++ === from) splitAt = start;
		},
	);
	if (!fits) return state;
	const invoices = state.invoices.customers;
	const stored = rowsOf({ ...invoices, words: shared.words });
	return {
		...state,
		customerList: {
			...state.customerList!,
			customers: {
				columns: shared.columns.slice(0, from),
				kinds: shared.kinds.slice(0, from),
				rows: joinRows(own),
			},
		},
		invoices: {
			...state.invoices,
			customers: {
				...invoices,
				...(shared.words && { words: shared.words }),
				rows: joinRows(mergedByPrint(kept, stored ?? [])),
			},
		},
	};
}

/** Two lists of rows in fingerprint order as one; a fingerprint in both keeps the first list's row. */
function mergedByPrint(first: Row[], second: Row[]): Row[] {
	const merged: Row[] = [];
	let a = 0;
	let b = 0;
	while (a < first.length || b < second.length) {
		if (b >= second.length || (a < first.length && first[a][0] <= second[b][0])) {
			if (b < second.length && second[b][0] === first[a][0]) b++;
			merged.push(first[a++]);
		} else {
			merged.push(second[b++]);
		}
	}
	return merged;
}

/** The events selected now that the memory was not kept for: they only learn at first. None when there is no memory. */
export function addedEvents<T extends string>(
	before: readonly string[] | undefined,
	selected: readonly T[],
): T[] {
	return before ? selected.filter((event) => !before.includes(event)) : [];
}

/**
 * Whether a family is still learning: Renewal Due's or Compare Detail Fields' first pass. A poll
 * that starts learning goes on within a bound (the trigger node's pollOnce). The invoice family
 * never learns ahead: a customer's first visit reports from its invoices' own times.
 */
export function isLearning(state: TriggerState): boolean {
	const pass = state.customerList?.detailPass;
	return pass?.learningRenewals !== undefined || pass?.learningDetails === true;
}
