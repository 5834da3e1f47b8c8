import { NodeOperationError } from 'n8n-workflow';
import { redact } from './apiCredentials';
import type { Session } from './transport';

/** Paging stopped: the message, and a description with the key redacted. */
export function pagingStopped(
	session: Session,
	message: string,
	description: string,
): NodeOperationError {
	return new NodeOperationError(session.node, message, {
		itemIndex: session.itemIndex,
		description: redact(description, session.secret),
	});
}

export function noResultsList(session: Session): NodeOperationError {
	return new NodeOperationError(
		session.node,
		'The API answered a list request without a "results" list',
		{
			itemIndex: session.itemIndex,
		},
	);
}

/** Where a next-page link came from, as messages name it. */
export type LinkSource = '"next"' | 'a Link header with rel="next"';

export function invalidLink(
	session: Session,
	source: LinkSource,
	shown: string,
): NodeOperationError {
	return pagingStopped(
		session,
		'The API returned an invalid next-page link',
		`The API sent ${source}: ${shown}`,
	);
}

export function linkOutsideBase(
	session: Session,
	source: LinkSource,
	shown: string,
	path: string,
	base: URL,
	basePath: string,
): NodeOperationError {
	return pagingStopped(
		session,
		"Stopped paging: the API's next-page link is outside the base URL",
		`The API sent ${source}: ${shown}. Its path ${path} is not under ${basePath || '/'}, the path of the credential's base URL ${base.origin}${basePath}, so it was not followed and the API key was not sent there. If the API is served at the address its links use, set the credential's base URL to it (ending in /api/v2); if a proxy in front of the API changes the path, have it rewrite the links it passes on.`,
	);
}

export function sameLinkTwice(session: Session, url: URL): NodeOperationError {
	return pagingStopped(
		session,
		'Stopped paging: the API sent the same next-page link twice',
		`The page behind ${url.pathname}${url.search} was already read; following it again would loop forever.`,
	);
}

/** A full page without `next`, `count` or a Link header: whether the list goes on cannot be known. */
export function noWayOn(session: Session, size: number, received: number): NodeOperationError {
	return pagingStopped(
		session,
		"Stopped paging: the API's page says nothing of a next page",
		`The page held ${size} results, as many as were asked for (${received} in all so far), and came without "next", without "count" and without a Link header with rel="next", so whether the list goes on cannot be known. Nothing was returned, so an incomplete list is never taken for the whole one; use Limit to read at most ${received}.`,
	);
}

/** Fewer results than the API counted, and no way to ask for the rest. */
export function incomplete(
	session: Session,
	count: number,
	received: number,
	paged: boolean,
): NodeOperationError {
	return pagingStopped(
		session,
		`The API's list ended early: it counted ${count} results but sent ${received}`,
		paged
			? `The API gave no next-page link and answered with no results when asked for more by offset (offset=${received}). Nothing was returned, so an incomplete list is never taken for the whole one; run again, or use Limit to read fewer.`
			: `The API gave no next-page link, and this list takes no paging parameters to ask for the rest. Nothing was returned, so an incomplete list is never taken for the whole one.`,
	);
}
