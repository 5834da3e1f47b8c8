import type { IDataObject } from 'n8n-workflow';
import {
	cellValue,
	fingerprint,
	FINGERPRINT_LENGTH,
	listCell,
	listCells,
	valueCell,
} from './cells';
import { RecordTable, type StoredTable } from './recordTable';

/** An invoice the trigger keeps watching by id: open, or (for Invoice Paid) paid within the look-back window. */
export interface Watched {
	/** Its status as the API gave it when last read; null: not known (none given, or not seen). */
	status: string | null;
	/** The payments with an error seen on it so far (IdSet.pack of events/invoiceEvents.ts paymentKey). */
	failed: string;
	/** Its overdue state was reported (or known at activation): not reported again while it stays overdue. */
	overdue: boolean;
	/** Fully paid at (epoch ms) when last seen paid. */
	paidAt?: number;
}

/**
 * What the trigger remembers of one customer's invoices: the invoices issued within the look-back
 * window (`known`, an IdSet), and the invoices it watches by id (`watched`).
 */
export interface CustomerInvoices {
	known: string;
	watched: Record<string, Watched>;
}

export function isEmpty(entry: CustomerInvoices): boolean {
	return entry.known === '' && Object.keys(entry.watched).length === 0;
}

/**
 * The invoice family's customers (triggerState.ts `InvoiceState.customers`): a record table
 * (recordTable.ts) of the customers with invoices issued within the look-back window or watched
 * ones (the others take no room), in two columns: `known`, the fingerprints of the invoices in the
 * window (kind `[f]`), and `watched` (kind `[udd]`), per watched invoice its id (a UUID in 22
 * characters, any other id as a literal), its status (a word) and the rest: `.` nothing, `+` its
 * overdue state reported, a number (`<1790000000000>`) its paid time and nothing else, else
 * `{overdue, failed, paidAt}` as a literal (which a paid invoice's paid time was stored as before
 * the number, 45 bytes more: still read). An open invoice takes 24 bytes, a paid one 38, and a
 * customer with one open invoice and nothing else 36 with its fingerprint. Rows are decoded only
 * for the customers a poll visits.
 */
export const INVOICE_COLUMNS = ['known', 'watched'];
const KINDS = ['[f]', '[udd]'];

export class InvoiceTable {
	private constructor(private readonly table: RecordTable) {}

	/** The stored table; a new one when there is none this code wrote. */
	static read(stored: unknown): InvoiceTable {
		const table = RecordTable.read(stored);
		const fits =
			table &&
			table.columns.join() === INVOICE_COLUMNS.join() &&
			table.kinds.join() === KINDS.join();
		return new InvoiceTable(fits ? table : new RecordTable(INVOICE_COLUMNS, KINDS));
	}

	/** Per customer fingerprint, its cells as stored. */
	get rows(): Map<string, string[]> {
		return this.table.rows;
	}

	store(): StoredTable {
		return this.table.store();
	}

	/** What is remembered of the invoices of the customer with this id. */
	customer(id: string): CustomerInvoices | undefined {
		return this.get(fingerprint(id));
	}

	setCustomer(id: string, entry: CustomerInvoices): void {
		this.set(fingerprint(id), entry);
	}

	/** By a stored row's key (the customer's fingerprint). */
	get(print: string): CustomerInvoices | undefined {
		const cells = this.table.rows.get(print);
		if (!cells) return undefined;
		const { words } = this.table;
		const watched: Record<string, Watched> = {};
		for (const [id, status, rest] of listCells(cells[1], KINDS[1])) {
			const more = cellValue(rest, 'd', words);
			const details = (
				typeof more === 'number'
					? { overdue: false, paidAt: more }
					: typeof more === 'object' && more !== null
						? more
						: { overdue: more === true }
			) as IDataObject;
			const given = cellValue(status, 'd', words);
			watched[String(cellValue(id, 'u', words))] = {
				status: typeof given === 'string' ? given : null,
				failed: typeof details.failed === 'string' ? details.failed : '',
				overdue: details.overdue === true,
				...(typeof details.paidAt === 'number' && { paidAt: details.paidAt }),
			};
		}
		return {
			known: listCells(cells[0], KINDS[0])
				.map(([known]) => known)
				.join(''),
			watched,
		};
	}

	set(print: string, entry: CustomerInvoices): void {
		if (isEmpty(entry)) {
			this.table.rows.delete(print);
			return;
		}
		const { words } = this.table;
		const known: string[][] = [];
		for (let at = 0; at + FINGERPRINT_LENGTH <= entry.known.length; at += FINGERPRINT_LENGTH)
			known.push([entry.known.slice(at, at + FINGERPRINT_LENGTH)]);
		const watched = Object.entries(entry.watched).map(
			([id, { status, failed, overdue, paidAt }]) => {
				const rest =
					failed === '' && paidAt === undefined
						? overdue
						: failed === '' && !overdue && Number.isFinite(paidAt)
							? paidAt
							: {
									overdue,
									...(failed !== '' && { failed }),
									...(paidAt !== undefined && { paidAt }),
								};
				return [
					valueCell(id, 'u', words),
					valueCell(status, 'd', words),
					valueCell(rest, 'd', words),
				];
			},
		);
		this.table.rows.set(print, [listCell(known), listCell(watched)]);
	}
}
