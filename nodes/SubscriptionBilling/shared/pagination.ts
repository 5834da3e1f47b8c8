import { NodeApiError, type IDataObject, type IHttpRequestOptions } from 'n8n-workflow';
import { MAX_PAGE_SIZE } from './constants';
import { asNodeError } from './apiError';
import { logLine } from './logLine';
import { DEFAULT_MAX_CONCURRENT } from './requestBudget';
import { sendForAnswer, type Answer, type Session } from './transport';
import { pageKey, ReadAhead } from './readAhead';
import { DistinctRecords, idFieldOf } from './distinctRecords';
import { nextLinkOfPage, type NextLink } from './nextLink';
import {
	askedLimit,
	fullUrl,
	nextPageRequest,
	offsetOf,
	offsetRequest,
	readAheadPlan,
	withoutLimit,
} from './pageRequests';
import { incomplete, noResultsList, noWayOn, sameLinkTwice } from './pagingErrors';

/** Most pages of one list asked for at once by an operation, within Max Concurrent Requests (why 8: docs/performance.md, *Connections, HTTPS and Return All*). */
export const PAGES_AHEAD = 8;

/** The API's page size when `limit` is left out (public reference): a deployment that caps pages still serves it. */
const DEFAULT_PAGE_SIZE = 100;

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
	/** Pages asked for at once once the first page's `count` shows which offsets follow; 1 (the default): one at a time. */
	pagesAhead?: number;
}

/** A page request's answer; `asked` is the page size it was asked for (0: the API's own). */
interface SentPage {
	answer: Answer;
	refused: boolean;
	asked: number;
}

/**
 * Sends one page request (`pagesRead` pages of the list were read before it). A paged list whose
 * page size the API refuses (400 or 422) is asked for again at the API's own page size.
 */
async function sendPage(
	session: Session,
	request: IHttpRequestOptions,
	paged: boolean,
	pagesRead: number,
): Promise<SentPage> {
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
		const again = withoutLimit(request);
		return { answer: await sendForAnswer(session, again, { pagesRead }), refused: true, asked: 0 };
	}
}

interface Envelope {
	count?: number;
	next?: unknown;
	results: IDataObject[];
}

/** A page's body as an envelope: a plain JSON array is one with no `next`. */
function envelopeOf(session: Session, body: unknown): Envelope {
	const page = Array.isArray(body)
		? { results: body as IDataObject[], next: null }
		: (body as Partial<Envelope>);
	if (!page || !Array.isArray(page.results)) throw noResultsList(session);
	return page as Envelope;
}

/** One page as the reader took it in. */
interface PageRead {
	envelope: Envelope;
	sent: SentPage;
	fresh: PageOfResults;
	count?: number;
	next?: NextLink;
	/** Fewer results than asked for. */
	short: boolean;
	/** Whether the list goes on after this page, as far as the API said. */
	more: boolean;
}

/** One list read page by page: where it stands and what its pages said. */
class Listing {
	private readonly limit: number;
	private readonly paged: boolean;
	private readonly distinct: DistinctRecords;
	/** Every page request sent or to be sent: a link to one of them would loop. */
	private readonly followed = new Set<string>();
	private pageSize: number;
	/** The next page's request. */
	private request: IHttpRequestOptions;
	private ahead?: ReadAhead<SentPage>;
	/** Distinct records handed on. */
	private handedOn = 0;
	/** Position in the whole list, which `count` counts (the trigger's sweep resumes mid-list). */
	position: number;
	private pagesRead = 0;
	/** The first page's `count`: a later page's other count shows the list moved. */
	private firstCount?: number;
	/** The page read last: whether a 404 after it is past the list's end. */
	private last?: PageRead;

	constructor(
		private readonly session: Session,
		private readonly first: IHttpRequestOptions,
		private readonly options: PagingOptions,
	) {
		this.limit = options.limit ?? Infinity;
		this.paged = options.paged ?? true;
		this.pageSize = options.pageSize ?? MAX_PAGE_SIZE;
		this.distinct = new DistinctRecords(idFieldOf(first));
		const startOffset = Number(first.qs?.offset ?? 0);
		this.position = Number.isFinite(startOffset) && startOffset > 0 ? startOffset : 0;
		this.request = this.paged
			? { ...first, qs: { ...first.qs, limit: this.sizeFor(this.limit) } }
			: first;
		this.followed.add(pageKey(this.request));
	}

	/** Results to ask for when `wanted` are still wanted: none on a list that takes no `limit`. */
	private sizeFor(wanted: number): number | undefined {
		return this.paged ? Math.min(wanted, this.pageSize) : undefined;
	}

	private get remaining(): number {
		return Number.isFinite(this.limit) ? this.limit - this.handedOn : Infinity;
	}

	get full(): boolean {
		return this.handedOn >= this.limit;
	}

	/** The next page's answer; undefined when it is a 404 after the end the last page showed. */
	async send(): Promise<SentPage | undefined> {
		try {
			return await (this.ahead?.take(this.request) ??
				sendPage(this.session, this.request, this.paged, this.pagesRead));
		} catch (error) {
			if (this.isPastEnd(error)) return undefined;
			throw asNodeError(this.session.node, error, this.session.itemIndex);
		}
	}

	/** A 404 at or past the last page's `count`, or after a short page. */
	private isPastEnd(error: unknown): boolean {
		const at = offsetOf(this.request) ?? this.position;
		const last = this.last;
		const pastEnd = last?.short || (last?.count !== undefined && at >= last.count);
		if (!pastEnd || !(error instanceof NodeApiError) || String(error.httpCode) !== '404')
			return false;
		logLine(
			this.session.ctx,
			'debug',
			`the page at offset ${at}, after the list's end, was answered 404; the list ends there`,
			{ itemIndex: this.session.itemIndex },
		);
		return true;
	}

	/** Takes in an answered page: its records not handed on before, and what it says of the list's end. */
	take(sent: SentPage): PageRead {
		this.pagesRead++;
		const envelope = envelopeOf(this.session, sent.answer.body);
		const { results } = envelope;
		if (sent.refused) this.pageSize = Math.min(this.pageSize, results.length || DEFAULT_PAGE_SIZE);
		const { records, repeated } = this.distinct.fresh(results, this.limit - this.handedOn);
		this.handedOn += records.length;
		this.position += results.length;
		const count = typeof envelope.count === 'number' ? envelope.count : undefined;
		const next = nextLinkOfPage(envelope.next, sent.answer.headers);
		const short = sent.asked > 0 && results.length < sent.asked;
		const more =
			results.length > 0 &&
			!short &&
			(count !== undefined ? this.position < count : next !== undefined);
		if (this.pagesRead === 1) this.firstCount = count;
		// A list that moves while it is read is read one page at a time from here on.
		else if (count !== this.firstCount || repeated > 0 || short) this.ahead?.stop();
		this.last = {
			envelope,
			sent,
			fresh: { results: records, count, repeated },
			count,
			next,
			short,
			more,
		};
		return this.last;
	}

	/** Where the listing stops after `page`, on the visitor's word or at the limit. */
	stopAfter(page: PageRead): PagingEnd {
		this.ahead?.stop();
		return { position: this.position, more: page.more };
	}

	/** The request for the page after `page`: by its link, else by offset; undefined after the last page. */
	nextRequest(page: PageRead): IHttpRequestOptions | undefined {
		const size = page.envelope.results.length;
		if (page.next && size > 0) {
			const missing = Number.isFinite(this.remaining) ? this.sizeFor(this.remaining) : undefined;
			return nextPageRequest(this.session, this.first, this.request, page.next, missing);
		}
		if (page.count !== undefined && this.position < page.count && this.paged && size > 0) {
			const wanted = Number.isFinite(this.remaining) ? this.remaining : this.pageSize;
			return offsetRequest(this.first, this.position, this.sizeFor(wanted));
		}
		this.checkLast(page);
		return undefined;
	}

	/** Fails unless `page` can be the list's last: not fewer results than counted, not a full page that says nothing of a next one. */
	private checkLast({ envelope, sent, count }: PageRead): void {
		const size = envelope.results.length;
		if (count !== undefined && this.position < count)
			throw incomplete(this.session, count, this.position, this.paged);
		const silent = !('next' in envelope) && count === undefined;
		if (this.paged && silent && sent.asked > 0 && size >= sent.asked)
			throw noWayOn(this.session, size, this.position);
	}

	/** Makes `request` the next page's; a page already read or planned would loop. */
	follow(request: IHttpRequestOptions): void {
		this.request = request;
		const key = pageKey(request);
		if (this.followed.has(key)) throw sameLinkTwice(this.session, new URL(fullUrl(request)));
		this.followed.add(key);
	}

	/** After a first page as full as asked that carries `count`: the pages it shows, asked for together. */
	readAheadAfter({ sent, count, envelope }: PageRead): void {
		const width = this.options.pagesAhead ?? 1;
		if (this.pagesRead !== 1 || width <= 1 || !this.paged || count === undefined) return;
		if (sent.refused || !(sent.asked > 0) || envelope.results.length !== sent.asked) return;
		const plan = readAheadPlan(this.request, this.position, count, sent.asked, this.remaining);
		const read = this.pagesRead;
		if (plan.length > 1)
			this.ahead = new ReadAhead(plan, width, (planned, index) =>
				sendPage(this.session, planned, this.paged, read + index),
			);
	}
}

/**
 * Reads a list (a plain JSON array, or envelopes whose next-page links are followed), handing each
 * page to `visit` as it arrives, until `limit` distinct records, the last page, or `visit` says stop.
 * A list is never cut short silently, a page that fails throws before any later page is read, and
 * with `pagesAhead` above 1 the pages the first page's `count` shows are asked for together; how
 * and why: docs/api-assumptions.md, *Paging*.
 */
export async function visitPages(
	session: Session,
	first: IHttpRequestOptions,
	options: PagingOptions,
	visit: (page: PageOfResults) => PageDecision | void,
): Promise<PagingEnd> {
	const listing = new Listing(session, first, options);
	for (;;) {
		const sent = await listing.send();
		if (!sent) return { position: listing.position, more: false };
		const page = listing.take(sent);
		if (visit(page.fresh) === 'stop' || listing.full) return listing.stopAfter(page);
		const next = listing.nextRequest(page);
		if (!next) return { position: listing.position, more: false };
		listing.follow(next);
		listing.readAheadAfter(page);
	}
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
