import { NodeOperationError, type INode } from 'n8n-workflow';

/** The path every API address begins with: the contract's base URL ends in it. */
export const API_PATH = '/api/v2';

/**
 * What a 404 from a base URL that does not end in /api/v2 means, said alike by the credential
 * test and a run: the address is not the API's (whatever the body says, the API's own paths all
 * begin with /api/v2). Undefined for a base URL that ends in it.
 */
export function missingApiPath(baseUrl: string | undefined): { message: string; advice: string } | undefined {
	if (!baseUrl || new URL(baseUrl).pathname.replace(/\/+$/, '').endsWith(API_PATH)) return undefined;
	return {
		message: `HTTP 404: no Subscription Billing API at this address; the credential's base URL must end in ${API_PATH}`,
		advice: `the credential's base URL ${baseUrl} does not end in ${API_PATH}: set it to the API's address ending in ${API_PATH} (for example https://billing.example.com${API_PATH})`,
	};
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopback(hostname: string): boolean {
	return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** The base URL as requests use it (trimmed, no trailing slash), or why it cannot be used. */
export function parsedBaseUrl(rawBaseUrl: unknown): { url: URL } | { problem: 'invalid' | 'plainHttpElsewhere'; text: string } {
	const text = typeof rawBaseUrl === 'string' ? rawBaseUrl.trim().replace(/\/+$/, '') : '';
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return { problem: 'invalid', text };
	}
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) return { problem: 'plainHttpElsewhere', text: url.origin };
	return { url };
}

/**
 * Normalizes the credential's base URL (no trailing slash) and refuses anything that would send
 * the key in clear text to another machine.
 */
export function checkedBaseUrl(node: INode, rawBaseUrl: unknown, itemIndex: number): URL {
	const parsed = parsedBaseUrl(rawBaseUrl);
	if ('url' in parsed) return parsed.url;
	if (parsed.problem === 'invalid') {
		throw new NodeOperationError(node, 'The credential has no valid base URL for the chosen environment', {
			itemIndex,
			description: `Set the base URL (ending in /api/v2) in the Subscription Billing API credential. Got: "${parsed.text}"`,
		});
	}
	throw new NodeOperationError(node, 'The credential\'s base URL must use https', {
		itemIndex,
		description: `"${parsed.text}" is not https; only addresses on this machine (localhost, 127.0.0.1) may use http. The API key is never sent over plain http to another host.`,
	});
}

/** Base URLs already checked, as sent (no trailing slash): a credential's URL is parsed once, not per item. */
const accepted = new Map<string, string>();
const ACCEPTED_MAX = 64;

/** The credential's base URL as requests use it: checked (see checkedBaseUrl), without a trailing slash. */
export function apiBaseUrl(node: INode, rawBaseUrl: unknown, itemIndex: number): string {
	const known = typeof rawBaseUrl === 'string' ? accepted.get(rawBaseUrl) : undefined;
	if (known !== undefined) return known;
	const baseUrl = checkedBaseUrl(node, rawBaseUrl, itemIndex).href.replace(/\/+$/, '');
	if (accepted.size >= ACCEPTED_MAX) accepted.clear();
	accepted.set(rawBaseUrl as string, baseUrl);
	return baseUrl;
}
