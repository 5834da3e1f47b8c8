import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { MAX_PAGE_SIZE } from '../../shared/constants';
import { visitPages } from '../../shared/pagination';
import { fingerprint, packFingerprints, unpackFingerprints } from '../state/fingerprint';
import type { ReadAccess } from '../../shared/apiAccess';
import { INVOICE_EVENT_DEFINITIONS, type InvoiceFamilyEvent } from './catalog';
import {
	failedPayments,
	isOpen,
	isOverdue,
	isPaid,
	issuedMs,
	paidMs,
	paymentPrint,
} from './invoiceEvents';
import type { CustomerInvoices, Watched } from '../state/invoiceTable';
import type { InvoiceEvent, InvoiceSight } from './types';

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
async function readNewest(
	visit: Visit,
	customerId: string,
	floor: number,
	fullScan: boolean,
): Promise<Map<string, IDataObject>> {
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
async function readByIds(
	visit: Visit,
	customerId: string,
	ids: string[],
): Promise<Map<string, IDataObject>> {
	const found = new Map<string, IDataObject>();
	for (let start = 0; start < ids.length; start += MAX_PAGE_SIZE) {
		const chunk = ids.slice(start, start + MAX_PAGE_SIZE);
		await visitPages(
			visit.api.session,
			{
				method: 'POST',
				baseURL: visit.api.baseURL,
				url: '/invoices/search',
				body: { customer_id: customerId, invoice_ids: chunk },
				headers: { Accept: 'application/json' },
			},
			{},
			(page) => {
				visit.spend();
				for (const invoice of page.results) found.set(String(invoice.invoice_id), invoice);
			},
		);
	}
	return found;
}

/** The event only remembers at this visit: the first sweep, or the event's first visit of the customer since it was added. */
function quiet(visit: Visit, event: InvoiceFamilyEvent): boolean {
	return visit.baseline || visit.learning.has(event);
}

const definitionOf = (event: InvoiceFamilyEvent): InvoiceEvent =>
	INVOICE_EVENT_DEFINITIONS.find((definition) => definition.value === event)!;

/** What to watch of an invoice from now on (undefined: nothing): open ones, and paid ones within the window when an event watches those. */
function watchOf(visit: Visit, invoice: IDataObject, watchPaid: boolean): Watched | undefined {
	const status = String(invoice.status);
	const failed = packFingerprints(
		failedPayments(invoice).map(({ payment }) => paymentPrint(payment)),
	);
	if (isOpen(invoice)) return { status, failed, overdue: isOverdue(invoice, visit.now) };
	if (watchPaid && isPaid(invoice) && paidMs(invoice) >= visit.keepFrom)
		return { status, failed, overdue: false, paidAt: paidMs(invoice) };
	return undefined;
}

/**
 * One customer's invoice events since its last visit (`previous`; undefined: nothing of it was
 * remembered). An invoice is new when it was issued within the look-back window and is not among
 * those remembered there; New Invoice reports it once its issue time has come (one dated in the
 * future, when that time comes). Invoices watched by id report payments, failed payments and due
 * dates passing.
 */
export async function visitCustomer(
	visit: Visit,
	customerId: string,
	previous: CustomerInvoices | undefined,
): Promise<Visited> {
	// The selected events in the catalog's order: the order of one invoice's items.
	const selected = INVOICE_EVENT_DEFINITIONS.filter((definition) =>
		visit.events.includes(definition.value),
	);
	const watching = selected.some((definition) => definition.watches);
	const watchPaid = selected.some((definition) => definition.watches === 'openAndPaid');
	const known = unpackFingerprints(previous?.known);
	const nowMs = visit.now.getTime();
	const { floor } = visit;
	const watchedBefore = watching ? (previous?.watched ?? {}) : {};
	// Every invoice once when the open ones are not all known yet: the first sweep, or a visit where
	// an event that watches invoices (all but New Invoice) is still learning.
	const fullScan =
		watching &&
		(visit.baseline || [...visit.learning].some((event) => definitionOf(event).watches));
	const onPages = await readNewest(visit, customerId, floor, fullScan);
	const missing = Object.keys(watchedBefore).filter((id) => !onPages.has(id));
	const searched =
		missing.length > 0
			? await readByIds(visit, customerId, missing)
			: new Map<string, IDataObject>();
	// Oldest first: the watched invoices below the pages, then the pages (newest first) reversed.
	const invoices = [
		...[...searched.values()].sort((a, b) => issuedMs(a) - issuedMs(b)),
		...[...onPages.values()].reverse(),
	];

	const items: IDataObject[] = [];
	const keep = new Set<string>();
	const watched: Record<string, Watched> = {};
	for (const invoice of invoices) {
		const id = String(invoice.invoice_id);
		const print = fingerprint(id);
		const issued = issuedMs(invoice);
		const isKnown = !(issued >= floor) || known.has(print);
		const before = watchedBefore[id];
		const sight: InvoiceSight = {
			invoice,
			before,
			isNew: !isKnown && issued <= nowMs,
			detectedAt: visit.now.toISOString(),
			now: visit.now,
		};
		// An event that watches nothing sees every invoice read.
		for (const definition of selected)
			if (!definition.watches && !quiet(visit, definition.value))
				items.push(...definition.detect(sight));
		if (issued >= visit.keepFrom && issued <= nowMs) keep.add(print);
		// Outside a full scan, an invoice below the window and not watched is older than anything the visit is about.
		if (!watching || (!fullScan && before === undefined && !(issued >= floor))) continue;
		// The watching events see an invoice watched until now, or new to the trigger.
		if (!isKnown || before !== undefined) {
			for (const definition of selected)
				if (definition.watches && !quiet(visit, definition.value))
					items.push(...definition.detect(sight));
		}
		const after = watchOf(visit, invoice, watchPaid);
		if (after) watched[id] = after;
	}
	return { items, entry: { known: packFingerprints(keep), watched } };
}

/** Fetch Test Event: the customer's most recent invoice the event is about, state untouched. */
export async function mostRecentInvoice(
	api: ReadAccess,
	customerId: string,
	event: InvoiceFamilyEvent,
	now: Date,
): Promise<IDataObject | undefined> {
	let match: IDataObject | undefined;
	const { sample } = definitionOf(event);
	await visitPages(
		api.session,
		newestInvoicesRequest(api, customerId),
		{ pageSize: DISCOVERY_PAGE_SIZE },
		(page) => {
			for (const invoice of page.results) {
				match = sample(invoice, now);
				if (match) return 'stop';
			}
			return 'next';
		},
	);
	return match;
}
