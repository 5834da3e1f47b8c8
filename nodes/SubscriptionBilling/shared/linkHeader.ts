import type { IDataObject } from 'n8n-workflow';

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
