import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';
import {
	NOT_CONNECTED_CODES,
	provablyNotReceived,
	UNTRUSTED_CERTIFICATE_CODES,
	type Failure,
} from './retry';
import { redact, redactDeep, API_PATH, missingApiPath } from './apiCredentials';

interface ApiErrorBody {
	code?: string;
	message?: string;
	error_id?: string;
}

export interface ErrorContext {
	itemIndex: number;
	/** The API key: removed from everything the error carries. */
	secret?: string;
	attempts: number;
	/** Method and path, e.g. `GET /api/v2/subscriptions/…`. */
	request: string;
	/** The credential's base URL the request went to. */
	baseUrl?: string;
	/** A write without idempotency key: say that it may have been applied when that is possible. */
	plainWrite?: boolean;
	/** Why the retries stopped early, when it was not the retry budget. */
	stoppedBecause?: string;
	/** For a page of a list: how many of its pages were read before it from the same base URL. */
	pagesRead?: number;
}

function apiErrorOf(body: unknown): ApiErrorBody | undefined {
	const error = (body as { error?: unknown } | undefined)?.error;
	if (!error || typeof error !== 'object') return undefined;
	const { code, message, error_id: errorId } = error as Record<string, unknown>;
	const text = (value: unknown) =>
		typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
	return { code: text(code), message: text(message), error_id: text(errorId) };
}

function snippet(body: unknown): string {
	const text = typeof body === 'string' ? body : (JSON.stringify(body) ?? '');
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/** Where a redirect pointed, without its query (which could carry tokens). */
function redirectTarget(headers: Record<string, unknown>, request: string): string {
	const location = headers.location;
	if (typeof location !== 'string' || location === '') return 'an address it did not give';
	try {
		const url = new URL(location, 'http://relative.invalid');
		return url.origin === 'http://relative.invalid' ? url.pathname : `${url.origin}${url.pathname}`;
	} catch {
		return `"${snippet(location).slice(0, 100)}" (from ${request})`;
	}
}

const NOT_CONNECTED = 'The Subscription Billing API could not be reached';
const TIMED_OUT = 'The Subscription Billing API did not answer in time';
const CUT_OFF =
	'The connection to the Subscription Billing API broke before the answer was complete';
const UNTRUSTED = "The Subscription Billing API's TLS certificate is not trusted";
const UNTRUSTED_ADVICE =
	'check the base URL of the credential; only for an address you trust whose certificate n8n does not know (such as a test server), turn on Request Options > Ignore SSL Issues';

function networkMessage(code: string): string {
	if (UNTRUSTED_CERTIFICATE_CODES.has(code)) return UNTRUSTED;
	if (NOT_CONNECTED_CODES.has(code)) return NOT_CONNECTED;
	if (['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT'].includes(code)) return TIMED_OUT;
	return CUT_OFF;
}

/** What to check after an answer that concerns the credential rather than the request. */
const CREDENTIAL_ADVICE: Record<number, string> = {
	401: 'the API did not accept the key: check the API Key of the Subscription Billing API credential, and that it belongs to the environment chosen in its Environment (Production or Staging)',
	403: 'the API key may not do this: check its permissions, and the Environment of the credential',
};

/** What an answer's body is, when it is not the API's error format: a short name, and what it suggests. */
function bodyKind(body: unknown, headers: Record<string, unknown>): { name: string; hint: string } {
	if (body === undefined || body === null || (typeof body === 'string' && body.trim() === ''))
		return { name: 'an empty body', hint: '' };
	if (typeof body !== 'string')
		return {
			name: 'JSON that is not its error format',
			hint: ' ({"error": {"code", "message"}} is expected)',
		};
	const type = typeof headers['content-type'] === 'string' ? headers['content-type'] : '';
	if (/html/i.test(type) || /^\s*</.test(body))
		return { name: 'an HTML page', hint: ' (often from a proxy or gateway in front of the API)' };
	return { name: 'a body that is not JSON', hint: '' };
}

/**
 * A 404 that is not the API's: most often a base URL without /api/v2 (missingApiPath), unless
 * earlier pages of the same list were just read from it.
 */
function notFoundAdvice(
	baseUrl: string | undefined,
	pagesRead: number | undefined,
): { message: string; advice: string } {
	if (pagesRead !== undefined && pagesRead > 0) {
		return {
			message:
				"HTTP 404 for a later page of the list, and the answer is not the API's error format",
			advice: `${pagesRead} page(s) of this list were read just before from the same base URL, so the address is right: the API, or a server in front of it, did not serve this page. The list may have changed while it was read, or paging may be limited to fewer results; run again, or use Limit to read fewer`,
		};
	}
	return (
		missingApiPath(baseUrl) ?? {
			message: "HTTP 404: not found, and the answer is not the API's error format",
			advice: `what was asked for may not exist, or the address may not be the API: check the credential's base URL, which must be the API's address ending in ${API_PATH}`,
		}
	);
}

/** For a write without key that failed after it may have reached the API. */
function mayHaveBeenApplied(failure: Failure, context: ErrorContext): string {
	if (!context.plainWrite || provablyNotReceived(failure)) return '';
	if (failure.type === 'http' && failure.status < 500 && failure.status !== 408) return '';
	return '. The write may have been applied by the API; it was not repeated because it carries no idempotency key (Fault Handling > Idempotency)';
}

/** What an error item carries beside the message, for a workflow to branch on. */
export interface ErrorFields {
	/** The API's error code (ERR_NOT_FOUND …), or the network's (ETIMEDOUT …) when no answer came. */
	code: string | null;
	/** The HTTP status of the answer. */
	status: number | null;
	/** The API's error id, when it gave one. */
	errorId: string | null;
	/** The API's own message. */
	apiMessage: string | null;
}

const fieldsOfErrors = new WeakMap<object, ErrorFields>();
const failuresOfErrors = new WeakMap<object, Failure>();

/** The failure an error made here stands for (its body and headers with the key redacted), for a caller that says it its own way. */
export function failureOf(error: unknown): Failure | undefined {
	return error && typeof error === 'object' ? failuresOfErrors.get(error) : undefined;
}

/** The fields of an error made here (the API's code, status, error id and message), all null for any other. */
export function errorFieldsOf(error: unknown): ErrorFields {
	const known = error && typeof error === 'object' ? fieldsOfErrors.get(error) : undefined;
	return known ?? { code: null, status: null, errorId: null, apiMessage: null };
}

const notFoundMessages = new WeakMap<object, string>();

/**
 * The API's message of its 404 (in its own error format) for what the request named, such as an
 * unknown subscription ID; undefined for any other error, and for a 404 at a base URL without
 * /api/v2 or for a later page of a list, where no ID is at fault.
 */
export function notFoundMessageOf(error: unknown): string | undefined {
	return error && typeof error === 'object' ? notFoundMessages.get(error) : undefined;
}

/**
 * One error for every way a request can fail: the API's code and message in the message, the
 * HTTP status and the API's error id in the description. The key is redacted from everything.
 */
export function toNodeError(node: INode, failure: Failure, context: ErrorContext): NodeApiError {
	const tries = context.attempts > 1 ? ` after ${context.attempts} attempts` : '';
	let message: string;
	let description: string;
	let httpCode: string;
	const details: JsonObject = { request: context.request, attempts: context.attempts };
	const apiError = failure.type === 'http' ? apiErrorOf(failure.body) : undefined;
	// A 404 for what the request named (not a later page of a list); at a base URL without /api/v2
	// the path was not the API's, whoever answered, and no ID is at fault.
	const notFound = failure.type === 'http' && failure.status === 404 && !context.pagesRead;
	const missing = notFound ? missingApiPath(context.baseUrl) : undefined;
	if (failure.type === 'http') {
		httpCode = String(failure.status);
		details.status = failure.status;
		const advice = CREDENTIAL_ADVICE[failure.status]
			? `; ${CREDENTIAL_ADVICE[failure.status]}`
			: '';
		if (failure.status < 400) {
			const target = redirectTarget(failure.headers, context.request);
			message = `HTTP ${failure.status}: the API answered with a redirect, which is not followed`;
			description = `HTTP ${failure.status} from ${context.request} to ${target}. Redirects are not followed, so the API key is never sent to another address; check the base URL of the credential.`;
		} else if (apiError?.code || apiError?.message) {
			const said = `${apiError.code ?? 'ERR_UNKNOWN'}: ${apiError.message ?? 'no message'}`;
			message = missing?.message ?? said;
			description = `HTTP ${failure.status} from ${context.request}${tries}${missing ? ` answered ${said}` : ''}${advice}`;
			if (apiError.error_id) description += `; error id ${apiError.error_id}`;
			if (missing) description += `; ${missing.advice}`;
			Object.assign(details, {
				code: apiError.code ?? null,
				apiMessage: apiError.message ?? null,
				errorId: apiError.error_id ?? null,
			});
		} else {
			const body = snippet(failure.body);
			const kind = bodyKind(failure.body, failure.headers);
			const notOurs =
				failure.status === 404 ? notFoundAdvice(context.baseUrl, context.pagesRead) : undefined;
			message = notOurs?.message ?? `HTTP ${failure.status}: the API answered with ${kind.name}`;
			description = `HTTP ${failure.status} from ${context.request}${tries} with ${kind.name}${kind.hint}${advice}${notOurs ? `; ${notOurs.advice}` : ''}; body: ${body || '(empty)'}`;
		}
	} else if (failure.type === 'notJson') {
		httpCode = String(failure.status);
		details.status = failure.status;
		message = `The API answered HTTP ${failure.status} with a body that is not JSON`;
		description = `${failure.contentType || 'no content type'} from ${context.request}${tries}; body: ${snippet(failure.body)}`;
	} else {
		httpCode = 'none';
		details.networkCode = failure.code;
		message = networkMessage(failure.code);
		description = `${failure.detail} (${failure.code}) on ${context.request}${tries}`;
		if (UNTRUSTED_CERTIFICATE_CODES.has(failure.code)) description += `; ${UNTRUSTED_ADVICE}`;
	}
	if (context.stoppedBecause) description += `; ${context.stoppedBecause}`;
	description += mayHaveBeenApplied(failure, context);
	const error = new NodeApiError(node, redactDeep(details, context.secret), {
		message: redact(message, context.secret),
		description: redact(description, context.secret),
		httpCode,
		itemIndex: context.itemIndex,
	});
	error.message = redact(message, context.secret);
	const text = (value: string | undefined) =>
		value === undefined ? null : redact(value, context.secret);
	failuresOfErrors.set(error, failure);
	if (notFound && !missing && (apiError?.code || apiError?.message))
		notFoundMessages.set(error, redact(apiError.message ?? '', context.secret));
	fieldsOfErrors.set(error, {
		code: failure.type === 'network' ? failure.code : text(apiError?.code),
		status: failure.type === 'network' ? null : failure.status,
		errorId: text(apiError?.error_id),
		apiMessage: text(apiError?.message),
	});
	return error;
}

/** An error as n8n shows it: n8n's node errors (every error made here is one) as they are, anything else wrapped. */
export function asNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error), {
		itemIndex,
	});
}
