import type { IDataObject } from 'n8n-workflow';
import { IdSet } from '../state/idSet';
import type { InvoiceEvent, InvoiceSight } from './types';

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
	return (
		isOpen(invoice) &&
		typeof invoice.due_at === 'string' &&
		Date.parse(invoice.due_at) < now.getTime()
	);
}

/**
 * The invoice's payments that carry an error, oldest first (by `paid_at`; the API's order among
 * equal times), each with its attempt number among all the invoice's payments ordered the same way.
 */
export function failedPayments(
	invoice: IDataObject,
): Array<{ payment: IDataObject; attempt: number }> {
	// Refunds (a negative amount) are not attempts to pay.
	const payments = Array.isArray(invoice.payments)
		? (invoice.payments as IDataObject[]).filter(
				(payment) => payment && typeof payment === 'object' && !(Number(payment.paid_amount) < 0),
			)
		: [];
	const key = (payment: IDataObject) =>
		typeof payment.paid_at === 'string' ? payment.paid_at : '';
	const ordered = [...payments].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
	return ordered
		.map((payment, index) => ({ payment, attempt: index + 1 }))
		.filter(({ payment }) => typeof payment.error === 'string' && payment.error !== '');
}

/** The id a payment is remembered by (Watched.failed). */
export function paymentKey(payment: IDataObject): string {
	return String(payment.payment_id ?? `${String(payment.paid_at)} ${String(payment.error)}`);
}

const NOT_EMITTED: IDataObject[] = [];
const statusBefore = ({ before }: InvoiceSight) => before?.status ?? null;

export const newInvoice: InvoiceEvent<'newInvoice'> = {
	value: 'newInvoice',
	family: 'invoices',
	record: 'invoice',
	name: 'New Invoice',
	summary: 'An invoice was issued.',
	noExample: {
		lookedFor: 'no invoice',
		toSee: 'wait until an invoice is issued',
		keys: 'detected_at, invoice',
	},
	detect: ({ isNew, invoice, detectedAt }) =>
		isNew ? [{ event: 'newInvoice', detected_at: detectedAt, invoice }] : NOT_EMITTED,
	sample: (invoice, now) =>
		issuedMs(invoice) <= now.getTime()
			? { event: 'newInvoice', detected_at: now.toISOString(), invoice }
			: undefined,
};

function failureItem(
	invoice: IDataObject,
	detectedAt: string,
	{ payment, attempt }: { payment: IDataObject; attempt: number },
): IDataObject {
	return {
		event: 'invoicePaymentFailed',
		detected_at: detectedAt,
		error: payment.error,
		attempt_count: attempt,
		payment,
		invoice,
	};
}

export const invoicePaymentFailed: InvoiceEvent<'invoicePaymentFailed'> = {
	value: 'invoicePaymentFailed',
	family: 'invoices',
	record: 'invoice',
	name: 'Invoice Payment Failed',
	summary: 'A payment attempt on an invoice failed: the error, the invoice and the attempt count.',
	noExample: {
		lookedFor: 'no invoice with a failed payment',
		toSee: 'wait until a payment attempt on an invoice fails',
		keys: 'detected_at, error, attempt_count, payment, invoice',
	},
	watches: 'open',
	detect: ({ invoice, before, detectedAt }) => {
		const seen = IdSet.read(before?.failed);
		return failedPayments(invoice)
			.filter(({ payment }) => !seen.has(paymentKey(payment)))
			.map((failure) => failureItem(invoice, detectedAt, failure));
	},
	sample: (invoice, now) => {
		const last = failedPayments(invoice).at(-1);
		return last && failureItem(invoice, now.toISOString(), last);
	},
};

export const invoicePaid: InvoiceEvent<'invoicePaid'> = {
	value: 'invoicePaid',
	family: 'invoices',
	record: 'invoice',
	name: 'Invoice Paid',
	summary: 'An invoice was fully paid.',
	noExample: {
		lookedFor: 'no paid invoice',
		toSee: 'wait until an invoice is fully paid',
		keys: 'detected_at, previous_status, invoice',
	},
	// A paid invoice is watched through the look-back window: a refund opens it again.
	watches: 'openAndPaid',
	// Each time it becomes fully paid (paid, refunded, paid again: twice).
	detect: (sight) =>
		isPaid(sight.invoice) &&
		(sight.before === undefined || sight.before.paidAt !== paidMs(sight.invoice))
			? [
					{
						event: 'invoicePaid',
						detected_at: sight.detectedAt,
						previous_status: statusBefore(sight),
						invoice: sight.invoice,
					},
				]
			: NOT_EMITTED,
	sample: (invoice, now) =>
		isPaid(invoice)
			? { event: 'invoicePaid', detected_at: now.toISOString(), previous_status: null, invoice }
			: undefined,
};

export const invoiceOverdue: InvoiceEvent<'invoiceOverdue'> = {
	value: 'invoiceOverdue',
	family: 'invoices',
	record: 'invoice',
	name: 'Invoice Overdue',
	summary: 'An unpaid invoice passed its due date.',
	noExample: {
		lookedFor: 'no overdue invoice',
		toSee: 'wait until an unpaid invoice passes its due date',
		keys: 'detected_at, previous_status, invoice',
	},
	watches: 'open',
	detect: (sight) =>
		isOverdue(sight.invoice, sight.now) && !sight.before?.overdue
			? [
					{
						event: 'invoiceOverdue',
						detected_at: sight.detectedAt,
						previous_status: statusBefore(sight),
						invoice: sight.invoice,
					},
				]
			: NOT_EMITTED,
	sample: (invoice, now) =>
		isOverdue(invoice, now)
			? { event: 'invoiceOverdue', detected_at: now.toISOString(), previous_status: null, invoice }
			: undefined,
};
