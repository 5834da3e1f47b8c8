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

/**
 * Reads a list: a plain JSON array, or envelopes whose `next` links are followed. Stops exactly at
 * `limit` (Infinity for Return All); each page is retried on its own, so a fault never restarts
 * the listing. Only a `paged` list is sent `limit`; any other is asked for whole and cut here.
 */
export async function collectPages(session: Session, first: IHttpRequestOptions, limit: number, paged: boolean): Promise<IDataObject[]> {
	const results: IDataObject[] = [];
	let request: IHttpRequestOptions = paged ? { ...first, qs: { ...first.qs, limit: Math.min(limit, MAX_PAGE_SIZE) } } : first;
	const followed = new Set<string>();
	for (;;) {
		const body = await sendWithRetries(session, request);
		const page: Envelope = Array.isArray(body) ? { results: body as IDataObject[], next: null } : (body as Envelope);
		if (!page || !Array.isArray(page.results)) {
			throw new NodeOperationError(session.node, 'The API answered a list request without a "results" list', {
				itemIndex: session.itemIndex,
			});
		}
		const room = limit - results.length;
		if (page.results.length <= room) {
			for (const result of page.results) results.push(result);
		} else {
			for (let i = 0; i < room; i++) results.push(page.results[i]);
		}
		if (results.length >= limit || !page.next || page.results.length === 0) return results;
		request = nextPageRequest(session, first, page.next, limit - results.length, paged);
		if (followed.has(request.url)) {
			throw new NodeOperationError(session.node, 'Stopped paging: the API sent the same next-page link twice', {
				itemIndex: session.itemIndex,
				description: `The page behind ${new URL(request.url).pathname}${new URL(request.url).search} was already read; following it again would loop forever.`,
			});
		}
		followed.add(request.url);
	}
}
