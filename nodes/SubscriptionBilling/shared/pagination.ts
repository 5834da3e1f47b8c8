import { NodeOperationError, type IDataObject, type IHttpRequestOptions } from 'n8n-workflow';
import { MAX_PAGE_SIZE } from './constants';
import { sendWithRetries, type Session } from './transport';

interface Envelope {
	count?: number;
	next?: string | null;
	results?: IDataObject[];
}

/**
 * The request for the page behind `next`: the API's own link, with the key sent only to the same
 * origin. On a paged list the link's `limit` asks only for what is still missing.
 */
function nextPageRequest(session: Session, first: IHttpRequestOptions, next: string, remaining: number, paged: boolean): IHttpRequestOptions {
	const expectedOrigin = new URL(first.baseURL as string).origin;
	let url: URL;
	try {
		url = new URL(next);
	} catch {
		throw new NodeOperationError(session.node, 'The API returned an invalid next-page link', {
			itemIndex: session.itemIndex,
			description: `"next" was ${JSON.stringify(next).slice(0, 200)}`,
		});
	}
	if (url.origin !== expectedOrigin) {
		throw new NodeOperationError(session.node, 'Stopped paging: the next-page link points to another host', {
			itemIndex: session.itemIndex,
			description: `The API's "next" link goes to ${url.origin}, not to the credential's ${expectedOrigin}. It was not followed, so the API key was not sent there.`,
		});
	}
	if (paged && Number.isFinite(remaining)) url.searchParams.set('limit', String(Math.min(remaining, MAX_PAGE_SIZE)));
	return { ...first, baseURL: undefined, url: url.href, qs: {} };
}

/** One page as the API answered it: its results and the total count it reported, when it did. */
export interface PageOfResults {
	results: IDataObject[];
	count?: number;
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
}

/**
 * Reads a list, a plain JSON array or envelopes whose `next` links are followed, handing each page
 * to `visit` as it arrives. Stops at `limit` results, at the last page, or when `visit` says so;
 * each page is retried on its own, so a fault never restarts the listing, and a page that still
 * fails throws before any later page is read.
 */
export async function visitPages(
	session: Session,
	first: IHttpRequestOptions,
	options: PagingOptions,
	visit: (page: PageOfResults) => PageDecision | void,
): Promise<void> {
	const limit = options.limit ?? Infinity;
	const paged = options.paged ?? true;
	let seen = 0;
	let request: IHttpRequestOptions = paged ? { ...first, qs: { ...first.qs, limit: Math.min(limit, options.pageSize ?? MAX_PAGE_SIZE) } } : first;
	const followed = new Set<string>();
	for (;;) {
		const body = await sendWithRetries(session, request);
		const page: Envelope = Array.isArray(body) ? { results: body as IDataObject[], next: null } : (body as Envelope);
		if (!page || !Array.isArray(page.results)) {
			throw new NodeOperationError(session.node, 'The API answered a list request without a "results" list', {
				itemIndex: session.itemIndex,
			});
		}
		const room = limit - seen;
		const results = page.results.length <= room ? page.results : page.results.slice(0, room);
		seen += results.length;
		const decision = visit({ results, count: typeof page.count === 'number' ? page.count : undefined });
		if (decision === 'stop' || seen >= limit || !page.next || page.results.length === 0) return;
		request = nextPageRequest(session, first, page.next, limit - seen, paged);
		if (followed.has(request.url)) {
			throw new NodeOperationError(session.node, 'Stopped paging: the API sent the same next-page link twice', {
				itemIndex: session.itemIndex,
				description: `The page behind ${new URL(request.url).pathname}${new URL(request.url).search} was already read; following it again would loop forever.`,
			});
		}
		followed.add(request.url);
	}
}

/**
 * Every result up to `limit` (Infinity for Return All), in the API's order. Only a `paged` list is
 * sent `limit`; any other is asked for whole and cut here.
 */
export async function collectPages(session: Session, first: IHttpRequestOptions, limit: number, paged: boolean): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	await visitPages(session, first, { limit, paged }, (page) => {
		for (const result of page.results) results.push(result);
	});
	return results;
}
