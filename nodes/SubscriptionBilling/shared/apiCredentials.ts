import {
	type IAuthenticateGeneric,
	type ICredentialDataDecryptedObject,
	type IExecuteData,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	NodeOperationError,
	type INode,
} from 'n8n-workflow';
import { CREDENTIAL_TYPE } from './constants';

export type ApiCredentials = ICredentialDataDecryptedObject & {
	apiKey?: string;
	environment?: string;
	productionBaseUrl?: string;
	stagingBaseUrl?: string;
};

/** The header the API reads the credential's key from. */
export const API_KEY_HEADER = 'X-SERVICE-KEY';

/**
 * How n8n's HTTP Request node sends the key when it uses this credential (the credential's
 * `authenticate`, which also gives the node's pickers n8n's Custom API Call).
 */
export const apiKeyAuthentication: IAuthenticateGeneric = {
	type: 'generic',
	properties: { headers: { [API_KEY_HEADER]: '={{$credentials.apiKey}}' } },
};

/**
 * The request with the key in its header: the one place the nodes and the credential test put it
 * (shared/transport.ts calls it for every request they send).
 */
export function withApiKey(
	options: IHttpRequestOptions,
	apiKey: string | undefined,
): IHttpRequestOptions {
	return { ...options, headers: { ...options.headers, [API_KEY_HEADER]: apiKey ?? '' } };
}

/** The base URL of the environment the credential chooses, as entered. */
export function credentialBaseUrl(credentials: ApiCredentials): string | undefined {
	return credentials.environment === 'staging'
		? credentials.stagingBaseUrl
		: credentials.productionBaseUrl;
}

const perRun = new WeakMap<IExecuteData, Promise<ApiCredentials>>();

/**
 * The credential, read once per run of the node and shared by its items, as n8n's RoutingNode
 * itself reads it once per run. Reading it for every item decrypts it again each time.
 */
export function runCredentials(ctx: IExecuteSingleFunctions): Promise<ApiCredentials> {
	const executeData = ctx.getExecuteData();
	if (!executeData) return ctx.getCredentials<ApiCredentials>(CREDENTIAL_TYPE);
	let credentials = perRun.get(executeData);
	if (!credentials) {
		credentials = ctx.getCredentials<ApiCredentials>(CREDENTIAL_TYPE);
		perRun.set(executeData, credentials);
		credentials.catch(() => perRun.delete(executeData));
	}
	return credentials;
}

/** The path every API address begins with: the contract's base URL ends in it. */
export const API_PATH = '/api/v2';

/**
 * What a 404 from a base URL that does not end in /api/v2 means, said alike by the credential
 * test and a run: the address is not the API's (whatever the body says, the API's own paths all
 * begin with /api/v2). Undefined for a base URL that ends in it.
 */
export function missingApiPath(
	baseUrl: string | undefined,
): { message: string; advice: string } | undefined {
	if (!baseUrl || new URL(baseUrl).pathname.replace(/\/+$/, '').endsWith(API_PATH))
		return undefined;
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
export function parsedBaseUrl(
	rawBaseUrl: unknown,
): { url: URL } | { problem: 'invalid' | 'plainHttpElsewhere'; text: string } {
	const text = typeof rawBaseUrl === 'string' ? rawBaseUrl.trim().replace(/\/+$/, '') : '';
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return { problem: 'invalid', text };
	}
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname)))
		return { problem: 'plainHttpElsewhere', text: url.origin };
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
		throw new NodeOperationError(
			node,
			'The credential has no valid base URL for the chosen environment',
			{
				itemIndex,
				description: `Set the base URL (ending in /api/v2) in the Subscription Billing API credential. Got: "${parsed.text}"`,
			},
		);
	}
	throw new NodeOperationError(node, "The credential's base URL must use https", {
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

const REDACTED = '[redacted]';

function usable(secret: string | undefined): secret is string {
	return typeof secret === 'string' && secret.length >= 4;
}

/** Replaces every occurrence of the secret in a text, so an echoed key never reaches output or logs. */
export function redact(text: string, secret: string | undefined): string {
	if (!usable(secret)) return text;
	let result = text;
	for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1)])) {
		if (result.includes(form)) result = result.split(form).join(REDACTED);
	}
	return result;
}

/**
 * The same for any JSON value (an API answer, error details): returned unchanged, without copying,
 * unless the secret occurs in it somewhere; then a copy with every occurrence replaced.
 */
export function redactDeep<T>(value: T, secret: string | undefined): T {
	if (!usable(secret) || value === null || value === undefined) return value;
	if (typeof value === 'string') return redact(value, secret) as T;
	if (typeof value !== 'object') return value;
	const text = JSON.stringify(value);
	if (text === undefined || !text.includes(JSON.stringify(secret).slice(1, -1))) return value;
	return replaceIn(value, secret) as T;
}

function replaceIn(value: unknown, secret: string): unknown {
	if (typeof value === 'string') return redact(value, secret);
	if (Array.isArray(value)) return value.map((entry) => replaceIn(entry, secret));
	if (value && typeof value === 'object') {
		const copy: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value))
			copy[redact(key, secret)] = replaceIn(entry, secret);
		return copy;
	}
	return value;
}
