import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { MAX_PAGE_SIZE } from '../../shared/constants';
import { visitPages } from '../../shared/pagination';
import { fingerprint, packFingerprints, unpackFingerprints } from '../fingerprint';
import type { ReadAccess } from '../../shared/apiAccess';
import { failedPayments, isOpen, isOverdue, isPaid, issuedMs, paidMs, type CustomerInvoices, type Watched } from './invoiceState';
import type { InvoiceFamilyEvent } from './types';

/** First page when only the newest invoices matter: small, since new invoices are few per poll. */
const DISCOVERY_PAGE_SIZE = 100;

/** What one visit of one customer needs to know (the same for every customer of a sweep). */
export interface Visit {
	api: ReadAccess;
	events: InvoiceFamilyEvent[];
	now: Date;
	/** Invoices issued before this (epoch ms) are not read, unless watched: the look-back window's far end. */
	floor: number;
	/** Invoices issued from this time on are remembered as known, for the next visit. */
	keepFrom: number;
	/** The first sweep after activation: remember, emit nothing. */
	baseline: boolean;
	/** Events added to the selection whose first visit of this customer this is: they remember, emit nothing. */
	learning: ReadonlySet<InvoiceFamilyEvent>;
	/** Called once per request sent (the poll's request budget). */
	spend: () => void;
}

export interface Visited {
	items: IDataObject[];
	entry: CustomerInvoices;
}

/** The customer's invoices, newest issued first. */
function newestInvoicesRequest(api: ReadAccess, customerId: string): IHttpRequestOptions {
	return {
		method: 'GET',
		baseURL: api.baseURL,
		url: `/customers/${encodeURIComponent(customerId)}/invoices`,
		qs: { ordering: '-issued_at' },
		headers: { Accept: 'application/json' },
	};
}

/**
 * The customer's invoices, newest issued first, down to `floor` (every page for a full scan), each
 * once: an invoice issued while the pages are read shifts the later pages by one, so one invoice
 * is served twice (the reader hands it on once).
 */
async function readNewest(visit: Visit, customerId: string, floor: number, fullScan: boolean): Promise<Map<string, IDataObject>> {
	const fetched = new Map<string, IDataObject>();
	// The oldest read so far: the reader leaves out a page's repeats, which are newer than it.
	let oldest: IDataObject | undefined;
	await visitPages(
		visit.api.session,
		newestInvoicesRequest(visit.api, customerId),
		{ pageSize: fullScan ? MAX_PAGE_SIZE : DISCOVERY_PAGE_SIZE },
		(page) => {
			visit.spend();
			for (const invoice of page.results) fetched.set(String(invoice.invoice_id), invoice);
			oldest = page.results.at(-1) ?? oldest;
			return fullScan || (oldest !== undefined && issuedMs(oldest) >= floor) ? 'next' : 'stop';
		},
	);
	return fetched;
}

/** Invoice Search by id (POST /invoices/search), 1,000 ids a request: the watched invoices not on the pages read. */
async function readByIds(visit: Visit, customerId: string, ids: string[]): Promise<Map<string, IDataObject>> {
	const found = new Map<string, IDataObject>();
	for (let start = 0; start < ids.length; start += MAX_PAGE_SIZE) {
		const chunk = ids.slice(start, start + MAX_PAGE_SIZE);
		await visitPages(
			visit.api.session,
			{ method: 'POST', baseURL: visit.api.baseURL, url: '/invoices/search', body: { customer_id: customerId, invoice_ids: chunk }, headers: { Accept: 'application/json' } },
			{},
			(page) => {
				visit.spend();
				for (const invoice of page.results) found.set(String(invoice.invoice_id), invoice);
			},
		);
	}
	return found;
}

function paymentPrint(payment: IDataObject): string {
	return fingerprint(String(payment.payment_id ?? `${String(payment.paid_at)} ${String(payment.error)}`));
}

function item(event: InvoiceFamilyEvent, invoice: IDataObject, detectedAt: string, previousStatus: string | null, failure?: { payment: IDataObject; attempt: number }): IDataObject {
	if (event === 'newInvoice') return { event, detected_at: detectedAt, invoice };
	if (failure) return { event, detected_at: detectedAt, error: failure.payment.error, attempt_count: failure.attempt, payment: failure.payment, invoice };
	return { event, detected_at: detectedAt, previous_status: previousStatus, invoice };
}

/** The event only remembers at this visit: the first sweep, or the event's first visit of the customer since it was added. */
function quiet(visit: Visit, event: InvoiceFamilyEvent): boolean {
	return visit.baseline || visit.learning.has(event);
}

/**
 * The events one invoice shows since it was last seen (`before`: watched then; `firstSight`: new
 * to the trigger), and what to watch of it from now on (undefined: nothing).
 */
function judge(visit: Visit, invoice: IDataObject, before: Watched | undefined, firstSight: boolean, emit: (item: IDataObject) => void): Watched | undefined {
	const { events, now } = visit;
	const detectedAt = now.toISOString();
	const previousStatus = before?.status ?? null;
	const failures = failedPayments(invoice);
	const failedBefore = unpackFingerprints(before?.failed);
	const failed = packFingerprints(failures.map(({ payment }) => paymentPrint(payment)));
	const paid = isPaid(invoice);
	const overdue = isOverdue(invoice, now);
	const seenBefore = firstSight || before !== undefined;
	const reports = (event: InvoiceFamilyEvent) => seenBefore && events.includes(event) && !quiet(visit, event);
	if (reports('invoicePaymentFailed')) {
		for (const failure of failures) {
			if (!failedBefore.has(paymentPrint(failure.payment))) emit(item('invoicePaymentFailed', invoice, detectedAt, previousStatus, failure));
		}
	}
	// Invoice Paid: each time it becomes fully paid (paid, refunded, paid again: twice).
	if (reports('invoicePaid') && paid && (before === undefined || before.paidAt !== paidMs(invoice))) {
		emit(item('invoicePaid', invoice, detectedAt, previousStatus));
	}
	if (reports('invoiceOverdue') && overdue && !before?.overdue) emit(item('invoiceOverdue', invoice, detectedAt, previousStatus));

	const status = String(invoice.status);
	if (isOpen(invoice)) return { status, failed, overdue };
	// A paid invoice is watched through the look-back window: a refund opens it again.
	if (paid && events.includes('invoicePaid') && paidMs(invoice) >= visit.keepFrom) return { status, failed, overdue: false, paidAt: paidMs(invoice) };
	return undefined;
}

/**
 * One customer's invoice events since its last visit (`previous`; undefined: nothing of it was
 * remembered). An invoice is new when it was issued within the look-back window and is not among
 * those remembered there; New Invoice reports it once its issue time has come (one dated in the
 * future, when that time comes). Invoices watched by id report payments, failed payments and due
 * dates passing.
 */
export async function visitCustomer(visit: Visit, customerId: string, previous: CustomerInvoices | undefined): Promise<Visited> {
	const watching = visit.events.some((event) => event !== 'newInvoice');
	const known = unpackFingerprints(previous?.known);
	const nowMs = visit.now.getTime();
	const { floor } = visit;
	const watchedBefore = watching ? (previous?.watched ?? {}) : {};
	// Every invoice once when the open ones are not all known yet: the first sweep, or a visit where
	// an event that watches invoices (all but New Invoice) is still learning.
	const fullScan = watching && (visit.baseline || [...visit.learning].some((event) => event !== 'newInvoice'));
	const onPages = await readNewest(visit, customerId, floor, fullScan);
	const missing = Object.keys(watchedBefore).filter((id) => !onPages.has(id));
	const searched = missing.length > 0 ? await readByIds(visit, customerId, missing) : new Map<string, IDataObject>();
	// Oldest first: the watched invoices below the pages, then the pages (newest first) reversed.
	const invoices = [...[...searched.values()].sort((a, b) => issuedMs(a) - issuedMs(b)), ...[...onPages.values()].reverse()];

	const items: IDataObject[] = [];
	const keep = new Set<string>();
	const watched: Record<string, Watched> = {};
	for (const invoice of invoices) {
		const id = String(invoice.invoice_id);
		const print = fingerprint(id);
		const issued = issuedMs(invoice);
		const isKnown = !(issued >= floor) || known.has(print);
		const before = watchedBefore[id];
		if (!isKnown && issued <= nowMs && visit.events.includes('newInvoice') && !quiet(visit, 'newInvoice')) {
			items.push(item('newInvoice', invoice, visit.now.toISOString(), null));
		}
		if (issued >= visit.keepFrom && issued <= nowMs) keep.add(print);
		// Outside a full scan, an invoice below the window and not watched is older than anything the visit is about.
		if (!watching || (!fullScan && before === undefined && !(issued >= floor))) continue;
		const after = judge(visit, invoice, before, !isKnown && before === undefined, (found) => items.push(found));
		if (after) watched[id] = after;
	}
	return { items, entry: { known: packFingerprints(keep), watched } };
}

/** Fetch Test Event: the customer's most recent invoice the event is about, state untouched. */
export async function mostRecentInvoice(api: ReadAccess, customerId: string, event: InvoiceFamilyEvent, now: Date): Promise<IDataObject | undefined> {
	let match: IDataObject | undefined;
	const detectedAt = now.toISOString();
	await visitPages(api.session, newestInvoicesRequest(api, customerId), { pageSize: DISCOVERY_PAGE_SIZE }, (page) => {
		for (const invoice of page.results) {
			if (event === 'newInvoice' && issuedMs(invoice) <= now.getTime()) match = item(event, invoice, detectedAt, null);
			else if (event === 'invoicePaid' && isPaid(invoice)) match = item(event, invoice, detectedAt, null);
			else if (event === 'invoiceOverdue' && isOverdue(invoice, now)) match = item(event, invoice, detectedAt, null);
			else if (event === 'invoicePaymentFailed' && failedPayments(invoice).length > 0) match = item(event, invoice, detectedAt, null, failedPayments(invoice).at(-1));
			if (match) return 'stop';
		}
		return 'next';
	});
	return match;
}
