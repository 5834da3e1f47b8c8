import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { MAX_PAGE_SIZE } from '../../shared/constants';
import { visitPages } from '../../shared/pagination';
import { fingerprint, packFingerprints, unpackFingerprints } from '../fingerprint';
import type { ReadAccess } from '../../shared/apiAccess';
import { isOpen, isOverdue, isPaid, issuedMs, type CustomerInvoices } from './invoiceState';

export type InvoiceEvent = 'newInvoice' | 'invoicePaid' | 'invoiceOverdue';

/** First page when only the newest invoices matter: small, since new invoices are few per poll. */
const DISCOVERY_PAGE_SIZE = 100;

interface Tracked {
	items: IDataObject[];
	entry: CustomerInvoices | undefined;
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
 * The customer's invoices, newest issued first, down to `floor`: paging stops after the first page
 * whose last invoice was issued before it. A full scan reads every page.
 */
async function readNewest(api: ReadAccess, customerId: string, floor: (fetched: IDataObject[]) => number, fullScan: boolean): Promise<IDataObject[]> {
	const fetched: IDataObject[] = [];
	await visitPages(
		api.session,
		newestInvoicesRequest(api, customerId),
		{ pageSize: fullScan ? MAX_PAGE_SIZE : DISCOVERY_PAGE_SIZE },
		(page) => {
			for (const invoice of page.results) fetched.push(invoice);
			const last = page.results.at(-1);
			return fullScan || (last !== undefined && issuedMs(last) >= floor(fetched)) ? 'next' : 'stop';
		},
	);
	return fetched;
}

/** Invoice Search by id (POST /invoices/search), 1,000 ids a request: the watched invoices not on the pages read. */
async function readByIds(api: ReadAccess, customerId: string, ids: string[]): Promise<Map<string, IDataObject>> {
	const found = new Map<string, IDataObject>();
	for (let start = 0; start < ids.length; start += MAX_PAGE_SIZE) {
		const chunk = ids.slice(start, start + MAX_PAGE_SIZE);
		await visitPages(
			api.session,
			{ method: 'POST', baseURL: api.baseURL, url: '/invoices/search', body: { customer_id: customerId, invoice_ids: chunk }, headers: { Accept: 'application/json' } },
			{},
			(page) => {
				for (const invoice of page.results) found.set(String(invoice.invoice_id), invoice);
			},
		);
	}
	return found;
}

function newestMark(invoices: IDataObject[], previous: CustomerInvoices | undefined): { w: number; a: string } {
	let w = previous?.w ?? -Infinity;
	for (const invoice of invoices) {
		const t = issuedMs(invoice);
		if (t > w) w = t;
	}
	if (w === -Infinity) return { w, a: '' };
	const atMark = w === previous?.w ? unpackFingerprints(previous.a) : new Set<string>();
	for (const invoice of invoices) if (issuedMs(invoice) === w) atMark.add(fingerprint(String(invoice.invoice_id)));
	return { w, a: packFingerprints(atMark) };
}

/** Issued after the remembered mark, or at it and not among the invoices remembered there. Not yet issued: not new. */
function isNew(invoice: IDataObject, previous: CustomerInvoices | undefined, atMark: Set<string>): boolean {
	const t = issuedMs(invoice);
	if (!Number.isFinite(t)) return false;
	if (!previous) return true;
	return t > previous.w || (t === previous.w && !atMark.has(fingerprint(String(invoice.invoice_id))));
}

/** Whether the invoice is what the event reports; else whether to keep watching it. */
function judge(event: InvoiceEvent, invoice: IDataObject, now: Date): 'emit' | 'watch' | 'drop' {
	if (event === 'invoicePaid') return isPaid(invoice) ? 'emit' : isOpen(invoice) ? 'watch' : 'drop';
	return isOverdue(invoice, now) ? 'emit' : isOpen(invoice) ? 'watch' : 'drop';
}

/**
 * One customer's invoice events since the remembered state. `baseline`: the first poll, which
 * only remembers. Otherwise `previous` undefined means the customer had no invoice when last seen,
 * so every invoice it has now is new.
 */
export async function trackCustomerInvoices(
	api: ReadAccess,
	customerId: string,
	previous: CustomerInvoices | undefined,
	baseline: boolean,
	event: InvoiceEvent,
	now: Date,
): Promise<Tracked> {
	const watching = event !== 'newInvoice';
	const atMark = unpackFingerprints(previous?.a);
	const floor = (fetched: IDataObject[]) => (baseline ? newestMark(fetched, undefined).w : (previous?.w ?? -Infinity));
	const fetched = await readNewest(api, customerId, floor, baseline && watching);
	// Oldest first: the list is newest first, so reversed it is in issue order (ties included).
	const fresh = baseline ? [] : fetched.filter((invoice) => isNew(invoice, previous, atMark)).reverse();
	fresh.sort((x, y) => issuedMs(x) - issuedMs(y));
	const detectedAt = now.toISOString();
	const items: IDataObject[] = [];
	const watch: Record<string, string> = {};

	if (!watching) {
		for (const invoice of fresh) items.push({ event, detected_at: detectedAt, invoice });
	} else if (baseline) {
		for (const invoice of fetched) if (judge(event, invoice, now) === 'watch') watch[String(invoice.invoice_id)] = String(invoice.status);
	} else {
		const watched = previous?.o ?? {};
		const onPages = new Map(fetched.map((invoice) => [String(invoice.invoice_id), invoice]));
		const missing = Object.keys(watched).filter((id) => !onPages.has(id));
		const current = missing.length > 0 ? new Map([...onPages, ...(await readByIds(api, customerId, missing))]) : onPages;
		for (const [id, previousStatus] of Object.entries(watched)) {
			const invoice = current.get(id);
			if (!invoice) continue;
			const verdict = judge(event, invoice, now);
			if (verdict === 'emit') items.push({ event, detected_at: detectedAt, previous_status: previousStatus, invoice });
			if (verdict === 'watch') watch[id] = String(invoice.status);
		}
		for (const invoice of fresh) {
			const id = String(invoice.invoice_id);
			if (id in watched) continue;
			const verdict = judge(event, invoice, now);
			if (verdict === 'emit') items.push({ event, detected_at: detectedAt, previous_status: null, invoice });
			if (verdict === 'watch') watch[id] = String(invoice.status);
		}
	}

	const mark = newestMark(fetched, previous);
	if (mark.w === -Infinity) return { items, entry: undefined };
	const entry: CustomerInvoices = { w: mark.w, a: mark.a };
	if (Object.keys(watch).length > 0) entry.o = watch;
	return { items, entry };
}

/** Fetch Test Event: the customer's most recent invoice the event is about, state untouched. */
export async function mostRecentInvoice(api: ReadAccess, customerId: string, event: InvoiceEvent, now: Date): Promise<IDataObject | undefined> {
	let match: IDataObject | undefined;
	await visitPages(
		api.session,
		newestInvoicesRequest(api, customerId),
		{ pageSize: DISCOVERY_PAGE_SIZE },
		(page) => {
			match = page.results.find((invoice) => event === 'newInvoice' || (event === 'invoicePaid' ? isPaid(invoice) : isOverdue(invoice, now)));
			return match ? 'stop' : 'next';
		},
	);
	return match && { event, detected_at: now.toISOString(), ...(event === 'newInvoice' ? {} : { previous_status: null }), invoice: match };
}
