import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger remembers of one customer's invoices: the newest issue time seen (`w`, epoch
 * ms), the fingerprints of the invoices issued at exactly that time (`a`), and for Invoice Paid and
 * Invoice Overdue the invoices still to watch with their last status (`o`, id → status).
 */
export interface CustomerInvoices extends IDataObject {
	w: number;
	a: string;
	o?: Record<string, string>;
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
