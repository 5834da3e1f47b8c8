import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger remembers of one customer's invoices: the newest issue time seen (`w`, epoch
 * ms), the fingerprints of the invoices issued at exactly that time (`a`), and for Invoice Paid and
 * Invoice Overdue the invoices still to watch with their last status (`o`, id → status).
 */
export interface CustomerInvoices {
	w: number;
	a: string;
	o?: Record<string, string>;
}

/** Stored as one string, `w in base 36|a|id=STATUS,id=STATUS`: about 30 bytes a customer without watched invoices. */
export function encodeCustomerInvoices(entry: CustomerInvoices): string {
	const watched = Object.entries(entry.o ?? {}).map(([id, status]) => `${id}=${status}`);
	return `${entry.w.toString(36)}|${entry.a}|${watched.join(',')}`;
}

export function decodeCustomerInvoices(stored: unknown): CustomerInvoices | undefined {
	if (typeof stored !== 'string') return undefined;
	const [w, a, watched] = stored.split('|');
	const entry: CustomerInvoices = { w: parseInt(w, 36), a: a ?? '' };
	if (watched) entry.o = Object.fromEntries(watched.split(',').map((pair) => pair.split('=') as [string, string]));
	return Number.isFinite(entry.w) ? entry : undefined;
}

export function issuedMs(invoice: IDataObject): number {
	return typeof invoice.issued_at === 'string' ? Date.parse(invoice.issued_at) : NaN;
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
