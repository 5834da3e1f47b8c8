import type { IDataObject } from 'n8n-workflow';
import type { LinkSource } from './pagingErrors';

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

/** A page's next-page link, as sent (not yet checked), and where it came from. */
export interface NextLink {
	link: unknown;
	source: LinkSource;
}

/** The envelope's `next`, else the Link header's `rel="next"`; undefined when neither names one. */
export function nextLinkOfPage(
	next: unknown,
	headers: IDataObject | undefined,
): NextLink | undefined {
	if (next) return { link: next, source: '"next"' };
	const header = nextLinkOf(headers);
	return header ? { link: header, source: 'a Link header with rel="next"' } : undefined;
}
