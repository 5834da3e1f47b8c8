import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IHttpRequestOptions,
} from 'n8n-workflow';
import { MAX_PAGE_SIZE } from './constants';
import { asNodeError } from './apiError';
import { redact } from './apiCredentials';
import { logLine } from './logLine';
import { DEFAULT_MAX_CONCURRENT } from './requestBudget';
import { sendForAnswer, type Answer, type Session } from './transport';
import { pageKey, ReadAhead } from './readAhead';
import { DistinctRecords, idFieldOf } from './distinctRecords';

interface Envelope {
	count?: number;
	next?: unknown;
	results?: IDataObject[];
}

/**
 * Most pages of one list asked for at once by an operation (within Max Concurrent Requests): enough
 * to hide a round trip of tens of milliseconds and a new connection's handshakes behind the pages
 * being served, few enough that the pages held before their turn stay a few megabytes.
 */
export const PAGES_AHEAD = 8;

/** The API's page size when `limit` is left out (public reference): a deployment that caps pages still serves it. */
const DEFAULT_PAGE_SIZE = 100;

function fullUrl(request: IHttpRequestOptions): string {
	return request.baseURL ? `${request.baseURL}${request.url}` : request.url;
}

function stop(session: Session, message: string, description: string): NodeOperationError {
	return new NodeOperationError(session.node, message, {
		itemIndex: session.itemIndex,
		description: redact(description, session.secret),
	});
}

/** Where a next-page link came from, as messages name it. */
type LinkSource = '"next"' | 'a Link header with rel="next"';

/**
 * The request for the page behind a next-page link (the envelope's `next`, or the Link header's
 * `rel="next"`). A link is resolved against the page it came with (relative links too), and its
 * path and query are sent to the credential's base URL, so the key goes nowhere else: a link to
 * another host (a service behind a proxy often writes its internal address) is followed there
 * when its path lies under the base URL's path; any other stops paging. On a paged list the
 * link's `limit` asks only for what is still missing.
 */
function nextPageRequest(
	session: Session,
	first: IHttpRequestOptions,
	current: IHttpRequestOptions,
	next: unknown,
	source: LinkSource,
	limit: number | undefined,
): IHttpRequestOptions {
	const base = new URL(first.baseURL as string);
	const basePath = base.pathname.replace(/\/+$/, '');
	let url: URL | undefined;
	try {
		if (typeof next === 'string' && next.trim() !== '')
			url = new URL(next.trim(), fullUrl(current));
	} catch {
		url = undefined;
	}
	const shown = JSON.stringify(next).slice(0, 300);
	if (!url)
		throw stop(
			session,
			'The API returned an invalid next-page link',
			`The API sent ${source}: ${shown}`,
		);
	if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) {
		throw stop(
			session,
			"Stopped paging: the API's next-page link is outside the base URL",
			`The API sent ${source}: ${shown}. Its path ${url.pathname} is not under ${basePath || '/'}, the path of the credential's base URL ${base.origin}${basePath}, so it was not followed and the API key was not sent there. If the API is served at the address its links use, set the credential's base URL to it (ending in /api/v2); if a proxy in front of the API changes the path, have it rewrite the links it passes on.`,
		);
	}
	if (url.origin !== base.origin) {
		logLine(
			session.ctx,
			'debug',
			`the next-page link names ${url.origin}; its path is read from the credential's ${base.origin}`,
			{ itemIndex: session.itemIndex },
		);
	}
	const target = new URL(`${url.pathname}${url.search}`, base.origin);
	if (limit !== undefined) target.searchParams.set('limit', String(limit));
	return { ...first, baseURL: undefined, url: target.href, qs: {} };
}

/** The query parameters without the named ones. */
function withoutKeys(qs: IDataObject | undefined, names: string[]): IDataObject {
	return Object.fromEntries(Object.entries(qs ?? {}).filter(([name]) => !names.includes(name)));
}

/** The page at `offset`, asked for by limit and offset when the API gave no next-page link. */
function offsetRequest(
	first: IHttpRequestOptions,
	offset: number,
	limit: number | undefined,
): IHttpRequestOptions {
	const filters = withoutKeys(first.qs, ['limit', 'offset']);
	return {
		...first,
		qs: limit === undefined ? { ...filters, offset } : { ...filters, limit, offset },
	};
}

/** The offset a page request asks for, in its query or its link's. */
function offsetOf(request: IHttpRequestOptions): number | undefined {
	const fromQs = request.qs?.offset;
	const value =
		fromQs !== undefined
			? fromQs
			: request.url.includes('?')
				? new URL(fullUrl(request)).searchParams.get('offset')
				: null;
	const offset = value === null || value === undefined || value === '' ? NaN : Number(value);
	return Number.isFinite(offset) ? offset : undefined;
}

function askedLimit(request: IHttpRequestOptions): number {
	const fromQs = Number(request.qs?.limit);
	if (Number.isFinite(fromQs)) return fromQs;
	const fromUrl = request.url.includes('?')
		? Number(new URL(fullUrl(request)).searchParams.get('limit'))
		: NaN;
	return Number.isFinite(fromUrl) ? fromUrl : 0;
}

/**
 * Sends one page request (`pagesRead` pages of the list were read before it). An API that caps
 * pages below what was asked may refuse the size (400 or 422): the page is asked for again without
 * `limit`, at the API's own page size, which it serves. `asked` is the page size the answer was
 * asked for (0: none, the API's own).
 */
async function sendPage(
	session: Session,
	request: IHttpRequestOptions,
	paged: boolean,
	pagesRead: number,
): Promise<{ answer: Answer; refused: boolean; asked: number }> {
	try {
		return {
			answer: await sendForAnswer(session, request, { pagesRead }),
			refused: false,
			asked: askedLimit(request),
		};
	} catch (error) {
		const refusedSize =
			error instanceof NodeApiError &&
			['400', '422'].includes(String(error.httpCode)) &&
			askedLimit(request) > DEFAULT_PAGE_SIZE;
		if (!paged || !refusedSize) throw asNodeError(session.node, error, session.itemIndex);
		logLine(
			session.ctx,
			'debug',
			`the API refused limit=${askedLimit(request)}; asking again at its own page size`,
			{ itemIndex: session.itemIndex },
		);
		const url = new URL(fullUrl(request));
		url.searchParams.delete('limit');
		const qs = withoutKeys(request.qs, ['limit']);
		const again = request.baseURL ? { ...request, qs } : { ...request, url: url.href, qs };
		return { answer: await sendForAnswer(session, again, { pagesRead }), refused: true, asked: 0 };
	}
}

function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '404';
}

/**
 * One page as the API answered it: its results not handed on before (see DistinctRecords), the
 * total count it reported, when it did, and how many of its results were left out as repeats.
 */
export interface PageOfResults {
	results: IDataObject[];
	count?: number;
	repeated: number;
}

/** Where a listing stopped. */
export interface PagingEnd {
	/** Position in the whole list after the last page read: the offset of the page after it. */
	position: number;
	/** Whether the list goes on after that page, as far as the API said. */
	more: boolean;
}

/** What a page visitor decides: read the next page, or stop here. */
export type PageDecision = 'next' | 'stop';

export interface PagingOptions {
	/** Results wanted in all (Infinity: every page). */
	limit?: number;
	/** Results asked for per request (the API's maximum by default). */
	pageSize?: number;
	/** Whether the list takes `limit` (default true); any other is asked for whole and cut here. */
	paged?: boolean;
	/**
	 * Pages asked for at once when the first page's `count` shows which offsets follow (see
	 * readAheadPlan); 1 (the default): one page at a time, each after the one before.
	 */
	pagesAhead?: number;
}

/** The page of `request`'s list at `offset`, `size` results, asked for as `request` asks (by its query or its link's). */
function pageAt(request: IHttpRequestOptions, offset: number, size: number): IHttpRequestOptions {
	if (request.qs && 'offset' in request.qs)
		return { ...request, qs: { ...request.qs, offset, limit: size } };
	const url = new URL(fullUrl(request));
	url.searchParams.set('offset', String(offset));
	url.searchParams.set('limit', String(size));
	return { ...request, baseURL: undefined, url: url.href };
}

/**
 * The pages after the first that a list's `count` shows, when they are known by offset: the
 * first page was as full as asked (`step` results) and the request for the next one (`next`, from
 * the API's link or by offset) asks for the page right after it, at most `step` results. Each
 * planned page asks for a full page, or for what is still missing of `wanted` results (Infinity
 * for every page), up to the count, as the reader would ask one page at a time. None when the
 * API pages otherwise (a cursor, another page size): its pages are then read one at a time.
 */
function readAheadPlan(
	next: IHttpRequestOptions,
	position: number,
	count: number,
	step: number,
	wanted: number,
): IHttpRequestOptions[] {
	if (offsetOf(next) !== position || askedLimit(next) !== Math.min(step, wanted)) return [];
	const plan: IHttpRequestOptions[] = [];
	for (
		let offset = position, left = wanted;
		offset < count && left > 0;
		offset += step, left -= step
	) {
		plan.push(pageAt(next, offset, Math.min(step, left)));
	}
	return plan;
}

/**
 * Reads a list, a plain JSON array or envelopes whose next-page links (the envelope's `next`, else
 * a Link header's `rel="next"`) are followed, handing each page to `visit` as it arrives. Stops at
 * `limit` results, at the last page, or when `visit` says so; each page is retried on its own, so
 * a fault never restarts the listing, and a page that still fails throws before any later page is
 * read. A record is handed on once: one served again on a later page (offsets shift when a record
 * is added before them while the list is read) is left out, and `limit` counts distinct records.
 * A list is never cut short silently: when the API's `count` says more results exist than it sent
 * and gave no next link, a paged list goes on by offset, and one that cannot fails naming what was
 * counted and what was received; a full page with no way to the next one fails too. A 404 for a
 * page after the end the API showed (at or past its `count`, or after a short page) ends the list.
 * With `pagesAhead` above 1, the pages the first page's `count` shows are asked for before their
 * turn (see readAheadPlan and ReadAhead); each is still handled here in order, exactly as when it is
 * read on its turn, and a list that moves goes back to one page at a time.
 */
export async function visitPages(
	session: Session,
	first: IHttpRequestOptions,
	options: PagingOptions,
	visit: (page: PageOfResults) => PageDecision | void,
): Promise<PagingEnd> {
	const limit = options.limit ?? Infinity;
	const paged = options.paged ?? true;
	let pageSize = options.pageSize ?? MAX_PAGE_SIZE;
	const distinct = new DistinctRecords(idFieldOf(first));
	let seen = 0;
	// Position in the whole list, which `count` counts: a listing may start at an offset (the trigger's sweep resumes mid-list).
	const startOffset = Number(first.qs?.offset ?? 0);
	let received = Number.isFinite(startOffset) && startOffset > 0 ? startOffset : 0;
	let pagesRead = 0;
	// What the last page said of the list's end: its count, and whether it held fewer results than asked for.
	let lastCount: number | undefined;
	let lastShort = false;
	const sizeFor = (wanted: number) => (paged ? Math.min(wanted, pageSize) : undefined);
	let request: IHttpRequestOptions = paged
		? { ...first, qs: { ...first.qs, limit: sizeFor(limit) } }
		: first;
	const followed = new Set<string>([pageKey(request)]);
	let ahead: ReadAhead<Awaited<ReturnType<typeof sendPage>>> | undefined;
	let firstCount: number | undefined;
	for (;;) {
		let sent: Awaited<ReturnType<typeof sendPage>>;
		try {
			sent = await (ahead?.take(request) ?? sendPage(session, request, paged, pagesRead));
		} catch (error) {
			const at = offsetOf(request) ?? received;
			if (
				pagesRead > 0 &&
				isNotFound(error) &&
				(lastShort || (lastCount !== undefined && at >= lastCount))
			) {
				logLine(
					session.ctx,
					'debug',
					`the page at offset ${at}, after the list's end, was answered 404; the list ends there`,
					{ itemIndex: session.itemIndex },
				);
				return { position: received, more: false };
			}
			throw asNodeError(session.node, error, session.itemIndex);
		}
		pagesRead++;
		const { body, headers } = sent.answer;
		const page: Envelope = Array.isArray(body)
			? { results: body as IDataObject[], next: null }
			: (body as Envelope);
		if (!page || !Array.isArray(page.results)) {
			throw new NodeOperationError(
				session.node,
				'The API answered a list request without a "results" list',
				{
					itemIndex: session.itemIndex,
				},
			);
		}
		if (sent.refused) pageSize = Math.min(pageSize, page.results.length || DEFAULT_PAGE_SIZE);
		const fresh = distinct.fresh(page.results, limit - seen);
		seen += fresh.records.length;
		received += page.results.length;
		const count = typeof page.count === 'number' ? page.count : undefined;
		const bodyLink = page.next || undefined;
		const headerLink = bodyLink ? undefined : nextLinkOf(headers);
		lastCount = count;
		lastShort = sent.asked > 0 && page.results.length < sent.asked;
		const more =
			page.results.length > 0 &&
			!lastShort &&
			(count !== undefined ? received < count : Boolean(bodyLink ?? headerLink));
		if (pagesRead === 1) firstCount = count;
		// A list that moves while it is read (its count changes, a record comes again, a page before the end is short) is read one page at a time from here on.
		else if (count !== firstCount || fresh.repeated > 0 || lastShort) ahead?.stop();
		const decision = visit({ results: fresh.records, count, repeated: fresh.repeated });
		if (decision === 'stop' || seen >= limit) {
			ahead?.stop();
			return { position: received, more };
		}
		const remaining = Number.isFinite(limit) ? limit - seen : Infinity;
		const link = bodyLink ?? headerLink;
		if (link && page.results.length > 0) {
			const source: LinkSource = bodyLink ? '"next"' : 'a Link header with rel="next"';
			request = nextPageRequest(
				session,
				first,
				request,
				link,
				source,
				Number.isFinite(remaining) ? sizeFor(remaining) : undefined,
			);
		} else if (count !== undefined && received < count && paged && page.results.length > 0) {
			request = offsetRequest(
				first,
				received,
				sizeFor(Number.isFinite(remaining) ? remaining : pageSize),
			);
		} else {
			if (count !== undefined && received < count)
				throw incomplete(session, count, received, paged);
			if (
				paged &&
				!('next' in page) &&
				count === undefined &&
				sent.asked > 0 &&
				page.results.length >= sent.asked
			) {
				throw noWayOn(session, page.results.length, received);
			}
			return { position: received, more: false };
		}
		const key = pageKey(request);
		if (followed.has(key)) {
			const url = new URL(fullUrl(request));
			throw stop(
				session,
				'Stopped paging: the API sent the same next-page link twice',
				`The page behind ${url.pathname}${url.search} was already read; following it again would loop forever.`,
			);
		}
		followed.add(key);
		if (
			pagesRead === 1 &&
			(options.pagesAhead ?? 1) > 1 &&
			paged &&
			count !== undefined &&
			!sent.refused &&
			sent.asked > 0 &&
			page.results.length === sent.asked
		) {
			const plan = readAheadPlan(request, received, count, sent.asked, remaining);
			const read = pagesRead;
			if (plan.length > 1)
				ahead = new ReadAhead(plan, options.pagesAhead as number, (planned, index) =>
					sendPage(session, planned, paged, read + index),
				);
		}
	}
}

/** A full page without `next`, `count` or a Link header: whether the list goes on cannot be known. */
function noWayOn(session: Session, size: number, received: number): NodeOperationError {
	return stop(
		session,
		"Stopped paging: the API's page says nothing of a next page",
		`The page held ${size} results, as many as were asked for (${received} in all so far), and came without "next", without "count" and without a Link header with rel="next", so whether the list goes on cannot be known. Nothing was returned, so an incomplete list is never taken for the whole one; use Limit to read at most ${received}.`,
	);
}

function incomplete(
	session: Session,
	count: number,
	received: number,
	paged: boolean,
): NodeOperationError {
	return stop(
		session,
		`The API's list ended early: it counted ${count} results but sent ${received}`,
		paged
			? `The API gave no next-page link and answered with no results when asked for more by offset (offset=${received}). Nothing was returned, so an incomplete list is never taken for the whole one; run again, or use Limit to read fewer.`
			: `The API gave no next-page link, and this list takes no paging parameters to ask for the rest. Nothing was returned, so an incomplete list is never taken for the whole one.`,
	);
}

/**
 * Every result up to `limit` (Infinity for Return All), in the API's order. Only a `paged` list is
 * sent `limit`; any other is asked for whole and cut here. Up to PAGES_AHEAD pages are read ahead
 * (fewer under a lower Max Concurrent Requests).
 */
export async function collectPages(
	session: Session,
	first: IHttpRequestOptions,
	limit: number,
	paged: boolean,
): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	const pagesAhead = Math.min(session.maxConcurrent ?? DEFAULT_MAX_CONCURRENT, PAGES_AHEAD);
	await visitPages(session, first, { limit, paged, pagesAhead }, (page) => {
		for (const result of page.results) results.push(result);
	});
	return results;
}

/** One link of an RFC 8288 Link header: `<target>` and the parameters up to the next link. */
const LINK = /<([^>]*)>([^<]*)/g;
const REL = /(?:^|;)\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i;

/**
 * The target of the link with relation `next` in an answer's Link header (RFC 8288: `<…>; rel="next"`,
 * several links in one header or in several), as written: relative targets are resolved by the caller.
 */
export function nextLinkOf(headers: IDataObject | undefined): string | undefined {
	const value = headers?.link;
	const text = Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : '';
	for (const [, target, parameters] of text.matchAll(LINK)) {
		const rel = REL.exec(parameters);
		const relations = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
		if (relations.includes('next')) return target.trim();
	}
	return undefined;
}
