import type { IDataObject } from 'n8n-workflow';

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
 * within the look-back window (`known`), and the invoices it watches by id (`watched`). `mark`
 * only in a state saved by release 0.1 (the newest issue time then seen): invoices issued before
 * it count as known for one more visit.
 */
export interface CustomerInvoices {
	known: string;
	watched: Record<string, Watched>;
	mark?: number;
}

function encodeWatched(entry: Watched): string {
	let out = encodeURIComponent(entry.status);
	if (entry.failed !== '') out += `~f${entry.failed}`;
	if (entry.overdue) out += '~o';
	if (entry.paidAt !== undefined) out += `~p${Math.floor(entry.paidAt / 1000).toString(36)}`;
	return out;
}

function decodeWatched(text: string): Watched {
	const [status, ...flags] = text.split('~');
	const entry: Watched = { status: decodeURIComponent(status), failed: '', overdue: false };
	for (const flag of flags) {
		if (flag === 'o') entry.overdue = true;
		else if (flag.startsWith('f')) entry.failed = flag.slice(1);
		else if (flag.startsWith('p')) entry.paidAt = parseInt(flag.slice(1), 36) * 1000;
	}
	return entry;
}

/**
 * Stored as one string, `known fingerprints|id=STATUS~flags,…`: a customer without recent or
 * watched invoices is not stored at all.
 */
export function encodeCustomerInvoices(entry: CustomerInvoices): string {
	const watched = Object.entries(entry.watched).map(([id, value]) => `${id}=${encodeWatched(value)}`);
	return `${entry.known}|${watched.join(',')}`;
}

export function isEmpty(entry: CustomerInvoices): boolean {
	return entry.known === '' && Object.keys(entry.watched).length === 0;
}

/** Also reads release 0.1's `newest issue time (base 36)|fingerprints at it|id=STATUS,…`. */
export function decodeCustomerInvoices(stored: unknown): CustomerInvoices | undefined {
	if (typeof stored !== 'string') return undefined;
	const parts = stored.split('|');
	const legacy = parts.length === 3;
	const [known, list] = legacy ? parts.slice(1) : parts;
	const watched: Record<string, Watched> = {};
	for (const pair of list ? list.split(',') : []) {
		const at = pair.indexOf('=');
		if (at > 0) watched[pair.slice(0, at)] = decodeWatched(pair.slice(at + 1));
	}
	const entry: CustomerInvoices = { known: known ?? '', watched };
	if (legacy) {
		const mark = parseInt(parts[0], 36);
		if (!Number.isFinite(mark)) return undefined;
		entry.mark = mark;
	}
	return entry;
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
