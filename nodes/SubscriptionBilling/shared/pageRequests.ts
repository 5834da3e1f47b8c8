import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { logLine } from './logLine';
import type { NextLink } from './nextLink';
import { invalidLink, linkOutsideBase } from './pagingErrors';
import type { Session } from './transport';

/** The address a request is sent to, its base URL included. */
export function fullUrl(request: IHttpRequestOptions): string {
	return request.baseURL ? `${request.baseURL}${request.url}` : request.url;
}

/** The query parameters without the named ones. */
function withoutKeys(qs: IDataObject | undefined, names: string[]): IDataObject {
	return Object.fromEntries(Object.entries(qs ?? {}).filter(([name]) => !names.includes(name)));
}

/** The offset a page request asks for, in its query or its link's. */
export function offsetOf(request: IHttpRequestOptions): number | undefined {
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

/** The page size a request asks for, in its query or its link's; 0 when none (the API's own). */
export function askedLimit(request: IHttpRequestOptions): number {
	const fromQs = Number(request.qs?.limit);
	if (Number.isFinite(fromQs)) return fromQs;
	const fromUrl = request.url.includes('?')
		? Number(new URL(fullUrl(request)).searchParams.get('limit'))
		: NaN;
	return Number.isFinite(fromUrl) ? fromUrl : 0;
}

/** The same page request without `limit`, in its query or its link's. */
export function withoutLimit(request: IHttpRequestOptions): IHttpRequestOptions {
	const url = new URL(fullUrl(request));
	url.searchParams.delete('limit');
	const qs = withoutKeys(request.qs, ['limit']);
	return request.baseURL ? { ...request, qs } : { ...request, url: url.href, qs };
}

/** The page at `offset`, asked for by limit and offset when the API gave no next-page link. */
export function offsetRequest(
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

/**
 * The request for the page behind a next-page link, resolved against the page it came with. Its
 * path and query go to the credential's base URL, so the key goes nowhere else; a link outside the
 * base URL's path stops paging. `limit`, when given, asks only for what is still missing.
 */
export function nextPageRequest(
	session: Session,
	first: IHttpRequestOptions,
	current: IHttpRequestOptions,
	{ link, source }: NextLink,
	limit: number | undefined,
): IHttpRequestOptions {
	const base = new URL(first.baseURL as string);
	const basePath = base.pathname.replace(/\/+$/, '');
	let url: URL | undefined;
	try {
		if (typeof link === 'string' && link.trim() !== '')
			url = new URL(link.trim(), fullUrl(current));
	} catch {
		url = undefined;
	}
	const shown = JSON.stringify(link).slice(0, 300);
	if (!url) throw invalidLink(session, source, shown);
	if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`))
		throw linkOutsideBase(session, source, shown, url.pathname, base, basePath);
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
 * The pages from `position` up to `count` (or until `wanted` results), `step` results each, as the
 * reader would ask for them one at a time; none unless `next` asks for the page at `position` at
 * that size (an API that pages otherwise is read one page at a time).
 */
export function readAheadPlan(
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
