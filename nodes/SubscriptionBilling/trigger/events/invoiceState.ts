import type { IDataObject } from 'n8n-workflow';
import { BASE64, fromBase64, isBase64Char, toBase64 } from '../compact';
import { FINGERPRINT_LENGTH } from '../fingerprint';

/** An invoice the trigger keeps watching by id: open, or (for Invoice Paid) paid within the look-back window. */
export interface Watched {
	/** Its status when last seen. */
	status: string;
	/** Fingerprints of the payments with an error seen on it so far (packed). */
	failed: string;
	/** Its overdue state was reported (or known at activation): not reported again while it stays overdue. */
	overdue: boolean;
	/** Fully paid at (epoch ms) when last seen paid. */
	paidAt?: number;
}

/**
 * What the trigger remembers of one customer's invoices: the fingerprints of the invoices issued
 * within the look-back window (`known`, packed), and the invoices it watches by id (`watched`).
 */
export interface CustomerInvoices {
	known: string;
	watched: Record<string, Watched>;
}

export function isEmpty(entry: CustomerInvoices): boolean {
	return entry.known === '' && Object.keys(entry.watched).length === 0;
}

/**
 * The invoice family's customers (state.ts `InvoiceState.customers`), one string: per customer its
 * fingerprint, the fingerprints of its known invoices, then each watched invoice as `=`, its id,
 * its status and its flags, and `;`. An id is 22 characters (a lowercase UUID's 128 bits in base
 * 64) or `<` the id URI-encoded `>`; the status 1 character (its number in `statuses`) or `<…>`;
 * flags: `!` overdue reported, `$` the fingerprints of the failed payments seen, `@` fully paid at
 * (epoch seconds, 6 characters). An open invoice of a customer with nothing else takes 34 bytes.
 */
export class InvoiceTable {
	readonly customers = new Map<string, CustomerInvoices>();

	constructor(readonly statuses: string[] = []) {}

	static read(packed: string, statuses: string[]): InvoiceTable {
		const table = new InvoiceTable([...statuses]);
		let at = 0;
		const literal = () => {
			const close = packed.indexOf('>', at);
			const text = decodeURIComponent(packed.slice(at + 1, close));
			at = close + 1;
			return text;
		};
		const prints = () => {
			let out = '';
			while (isBase64Char(packed[at])) {
				out += packed.slice(at, at + FINGERPRINT_LENGTH);
				at += FINGERPRINT_LENGTH;
			}
			return out;
		};
		while (at + FINGERPRINT_LENGTH <= packed.length) {
			const print = packed.slice(at, at + FINGERPRINT_LENGTH);
			at += FINGERPRINT_LENGTH;
			const entry: CustomerInvoices = { known: prints(), watched: {} };
			while (packed[at] === '=') {
				at++;
				let id: string;
				if (packed[at] === '<') id = literal();
				else {
					id = uuidOf(packed.slice(at, at + UUID_LENGTH));
					at += UUID_LENGTH;
				}
				const status = packed[at] === '<' ? literal() : table.statuses[BASE64.indexOf(packed[at++])];
				const watched: Watched = { status, failed: '', overdue: false };
				for (;;) {
					if (packed[at] === '!') {
						at++;
						watched.overdue = true;
					} else if (packed[at] === '$') {
						at++;
						watched.failed = prints();
					} else if (packed[at] === '@') {
						watched.paidAt = fromBase64(packed.slice(at + 1, at + 7)) * 1000;
						at += 7;
					} else break;
				}
				entry.watched[id] = watched;
			}
			at++;
			table.customers.set(print, entry);
		}
		return table;
	}

	pack(): string {
		const rows = [...this.customers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return rows.map(([print, entry]) => print + entry.known + Object.entries(entry.watched).map(([id, watched]) => `=${packedId(id)}${this.packedStatus(watched.status)}${flags(watched)}`).join('') + ';').join('');
	}

	private packedStatus(status: string): string {
		let index = this.statuses.indexOf(status);
		if (index < 0 && this.statuses.length < 64) index = this.statuses.push(status) - 1;
		return index >= 0 ? BASE64[index] : `<${encodeURIComponent(status)}>`;
	}
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUID_LENGTH = 22;

/** 32 hex digits as 10 groups of 3 (2 characters each) and one of 2 (2 characters). */
function packedId(id: string): string {
	if (!UUID_PATTERN.test(id)) return `<${encodeURIComponent(id)}>`;
	const hex = id.replace(/-/g, '');
	let out = '';
	for (let i = 0; i < 32; i += 3) out += toBase64(parseInt(hex.slice(i, i + 3), 16), 2);
	return out;
}

function uuidOf(packed: string): string {
	let hex = '';
	for (let i = 0; i < 20; i += 2) hex += fromBase64(packed.slice(i, i + 2)).toString(16).padStart(3, '0');
	hex += fromBase64(packed.slice(20, 22)).toString(16).padStart(2, '0');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function flags(watched: Watched): string {
	return (watched.overdue ? '!' : '') + (watched.failed !== '' ? `$${watched.failed}` : '') + (watched.paidAt !== undefined ? `@${toBase64(Math.floor(watched.paidAt / 1000), 6)}` : '');
}

function timeMs(value: unknown): number {
	return typeof value === 'string' ? Date.parse(value) : NaN;
}

export function issuedMs(invoice: IDataObject): number {
	return timeMs(invoice.issued_at);
}

export function paidMs(invoice: IDataObject): number {
	return timeMs(invoice.fully_paid_at);
}

export function isPaid(invoice: IDataObject): boolean {
	return typeof invoice.fully_paid_at === 'string' && invoice.fully_paid_at !== '';
}

/** Unpaid and still owing something (a void or written-off invoice owes nothing). */
export function isOpen(invoice: IDataObject): boolean {
	return !isPaid(invoice) && Number(invoice.remaining_amount) > 0 && invoice.status !== 'VOID';
}

/** Open and its due time has passed. */
export function isOverdue(invoice: IDataObject, now: Date): boolean {
	return isOpen(invoice) && typeof invoice.due_at === 'string' && Date.parse(invoice.due_at) < now.getTime();
}

/**
 * The invoice's payments that carry an error, oldest first (by `paid_at`; the API's order among
 * equal times), each with its attempt number among all the invoice's payments ordered the same way.
 */
export function failedPayments(invoice: IDataObject): Array<{ payment: IDataObject; attempt: number }> {
	// Refunds (a negative amount) are not attempts to pay.
	const payments = Array.isArray(invoice.payments)
		? (invoice.payments as IDataObject[]).filter((payment) => payment && typeof payment === 'object' && !(Number(payment.paid_amount) < 0))
		: [];
	const key = (payment: IDataObject) => (typeof payment.paid_at === 'string' ? payment.paid_at : '');
	const ordered = [...payments].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
	return ordered
		.map((payment, index) => ({ payment, attempt: index + 1 }))
		.filter(({ payment }) => typeof payment.error === 'string' && payment.error !== '');
}
