import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { MAX_PAGE_SIZE } from '../../shared/constants';
import { visitPages } from '../../shared/pagination';
import { IdSet } from '../state/idSet';
import type { ReadAccess } from '../../shared/apiAccess';
import { INVOICE_EVENT_DEFINITIONS, type InvoiceFamilyEvent } from './catalog';
import {
	failedPayments,
	isOpen,
	isOverdue,
	isPaid,
	issuedMs,
	paidMs,
	paymentKey,
} from './invoiceEvents';
import type { CustomerInvoices, Watched } from '../state/invoiceTable';
import type { InvoiceEvent, InvoiceSight } from './types';

/** First page when only the newest invoices matter: small, since new invoices are few per poll. */
export const DISCOVERY_PAGE_SIZE = 100;

/** What one visit of one customer needs to know (the same for every customer of a sweep). */
export interface Visit {
	api: ReadAccess;
	events: InvoiceFamilyEvent[];
	now: Date;
	/** Invoices issued before this (epoch ms) are not read, unless watched: the look-back window's far end. */
	floor: number;
	/** Invoices issued from this time on are remembered as known, for the next visit. */
	keepFrom: number;
	/**
	 * The events whose first visit of this customer this is (the first sweep's, or an event's added
	 * since), each with the moment it reports from (epoch ms, the API's clock): an invoice is taken
	 * as it stood then (asOf), so what changed before is not reported and what changed after is.
	 */
	firstSince: ReadonlyMap<InvoiceFamilyEvent, number>;
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

/** The invoice's status as the API gave it; null when it gave none. */
function statusOf(invoice: IDataObject): string | null {
	return typeof invoice.status === 'string' ? invoice.status : null;
}

/**
 * Whether the invoice's own times show a change from `since` until now: fully paid, a payment or
 * refund made, or its due time passed. A time that is missing or unreadable may hide one.
 */
function changedSince(invoice: IDataObject, since: number, now: number): boolean {
	const after = (time: unknown) => !(Date.parse(String(time)) < since);
	const payments = Array.isArray(invoice.payments) ? (invoice.payments as IDataObject[]) : [];
	const dueMs = typeof invoice.due_at === 'string' ? Date.parse(invoice.due_at) : undefined;
	return (
		(isPaid(invoice) && after(invoice.fully_paid_at)) ||
		payments.some((payment) => after(payment?.paid_at)) ||
		(dueMs !== undefined && !(dueMs < since || dueMs > now))
	);
}

/**
 * What the trigger would have watched of `invoice` had it read it at `since`: its own times say
 * whether it was paid then, which payments had failed and whether its due date had passed. A time
 * missing or unreadable counts as before: what cannot be dated is not reported as new. Its status
 * then is the one the API gives now if nothing changed since, else not known (null): the API's
 * statuses are its own (the contract lists none), so none is made up.
 */
function asOf(invoice: IDataObject, since: number, now: number): Watched {
	const before = (time: unknown) => !(Date.parse(String(time)) >= since);
	const paid = isPaid(invoice) && before(invoice.fully_paid_at);
	const overdue = !paid && typeof invoice.due_at === 'string' && before(invoice.due_at);
	const failed = failedPayments(invoice).filter(({ payment }) => before(payment.paid_at));
	return {
		status: changedSince(invoice, since, now) ? null : statusOf(invoice),
		failed: IdSet.pack(failed.map(({ payment }) => paymentKey(payment))),
		overdue,
		...(paid && { paidAt: paidMs(invoice) }),
	};
}

const definitionOf = (event: InvoiceFamilyEvent): InvoiceEvent =>
	INVOICE_EVENT_DEFINITIONS.find((definition) => definition.value === event)!;

/** What to watch of an invoice from now on (undefined: nothing): open ones, and paid ones within the window when an event watches those. */
function watchOf(visit: Visit, invoice: IDataObject, watchPaid: boolean): Watched | undefined {
	const status = statusOf(invoice);
	const failed = IdSet.pack(failedPayments(invoice).map(({ payment }) => paymentKey(payment)));
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
	const known = IdSet.read(previous?.known);
	const nowMs = visit.now.getTime();
	const { floor } = visit;
	const watchedBefore = watching ? (previous?.watched ?? {}) : {};
	// Every invoice once when the open ones are not all known yet: the first visit of an event that
	// watches invoices (all but New Invoice).
	const fullScan =
		watching && [...visit.firstSince.keys()].some((event) => definitionOf(event).watches);
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
	const keep = new IdSet();
	const watched: Record<string, Watched> = {};
	for (const invoice of invoices) {
		const id = String(invoice.invoice_id);
		const issued = issuedMs(invoice);
		const isKnown = !(issued >= floor) || known.has(id);
		const before = watchedBefore[id];
		const sight: InvoiceSight = {
			invoice,
			before,
			isNew: !isKnown && issued <= nowMs,
			detectedAt: visit.now.toISOString(),
			now: visit.now,
		};
		// At an event's first visit: the invoice as it stood at the moment the event reports from.
		const sightOf = (event: InvoiceFamilyEvent): InvoiceSight | undefined => {
			const since = visit.firstSince.get(event);
			if (since === undefined) return undefined;
			const existed = !(issued >= since);
			return {
				...sight,
				before: existed ? asOf(invoice, since, nowMs) : undefined,
				isNew: sight.isNew && !existed,
			};
		};
		// An event that watches nothing sees every invoice read.
		for (const definition of selected)
			if (!definition.watches) items.push(...definition.detect(sightOf(definition.value) ?? sight));
		if (issued >= visit.keepFrom && issued <= nowMs) keep.add(id);
		// Outside a full scan, an invoice below the window and not watched is older than anything the visit is about.
		if (!watching || (!fullScan && before === undefined && !(issued >= floor))) continue;
		// The watching events see an invoice watched until now, or new to the trigger; at their first
		// visit, every invoice (the full scan's).
		for (const definition of selected) {
			if (!definition.watches) continue;
			const first = sightOf(definition.value);
			if (first) items.push(...definition.detect(first));
			else if (!isKnown || before !== undefined) items.push(...definition.detect(sight));
		}
		const after = watchOf(visit, invoice, watchPaid);
		if (after) watched[id] = after;
	}
	return { items, entry: { known: keep.store(), watched } };
}

/**
 * Fetch Test Event: for each event, the most recent invoice it is about among the newest page of
 * each customer in turn (one request a customer, until every event has one), state untouched.
 */
export async function newestExamples(
	api: ReadAccess,
	customerIds: string[],
	events: InvoiceFamilyEvent[],
	now: Date,
): Promise<IDataObject[]> {
	const found = new Map<InvoiceFamilyEvent, IDataObject>();
	for (const customerId of customerIds) {
		if (found.size === events.length) break;
		await visitPages(
			api.session,
			newestInvoicesRequest(api, customerId),
			{ pageSize: DISCOVERY_PAGE_SIZE },
			(page) => {
				for (const invoice of page.results)
					for (const event of events) {
						const match = found.has(event) ? undefined : definitionOf(event).sample(invoice, now);
						if (match) found.set(event, match);
					}
				return 'stop';
			},
		);
	}
	return events.flatMap((event) => (found.has(event) ? [found.get(event)!] : []));
}
