import {
	sleepWithAbort,
	type IDataObject,
	type IExecutePaginationFunctions,
	type ILoadOptionsFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type INode,
} from 'n8n-workflow';
import { toNodeError } from './apiError';
import { CREDENTIAL_TYPE } from './constants';
import { redactDeep } from './redact';
import { DEFAULT_RETRY, isRetryable, retryAfterMs, retryDelayMs, type Failure, type RetrySettings } from './retry';

/** Operations and the editor's pickers send through the same transport. */
export type TransportContext = IExecutePaginationFunctions | ILoadOptionsFunctions;

/** Everything one item's requests share: the node, the item, the key to redact and how to retry. */
export interface Session {
	ctx: TransportContext;
	node: INode;
	itemIndex: number;
	secret?: string;
	retry: RetrySettings;
	/** Reads, and writes carrying an idempotency key. */
	safeToRepeat: boolean;
}

/**
 * n8n wraps the HTTP client's error in a NodeApiError that keeps neither the original error nor
 * its config (which holds the key), only the code (as `httpCode`) and the original message (in
 * `messages`). Read them from there, or from `cause` when a version of n8n keeps it.
 */
function networkFailure(error: unknown): Failure {
	const wrapped = error as { cause?: { code?: unknown; message?: unknown }; code?: unknown; httpCode?: unknown; messages?: unknown; message?: unknown };
	const isCode = (value: unknown): value is string => typeof value === 'string' && /^[A-Z][A-Z0-9_]+$/.test(value);
	const code = [wrapped.cause?.code, wrapped.code, wrapped.httpCode].find(isCode) ?? 'ERR_NETWORK';
	const original = Array.isArray(wrapped.messages) ? wrapped.messages.find((entry) => typeof entry === 'string' && entry !== '') : undefined;
	const detail = [original, wrapped.cause?.message, wrapped.message].find((entry) => typeof entry === 'string' && entry !== '');
	return { type: 'network', code, detail: String(detail ?? 'request failed') };
}

function describeRequest(options: IHttpRequestOptions): string {
	const path = new URL(options.baseURL ? `${options.baseURL}${options.url}` : options.url).pathname;
	return `${options.method ?? 'GET'} ${path}`;
}

function header(headers: IDataObject | undefined, name: string): string {
	const value = headers?.[name];
	return typeof value === 'string' ? value : Array.isArray(value) ? String(value[0]) : '';
}

function summary(failure: Failure): string {
	if (failure.type === 'network') return failure.code;
	return failure.type === 'notJson' ? `HTTP ${failure.status} without JSON` : `HTTP ${failure.status}`;
}

/** The outcome of one answer: its body when usable, or what was wrong with it. */
function judge(response: IN8nHttpFullResponse): { body: unknown } | { failure: Failure } {
	const headers = (response.headers ?? {}) as IDataObject;
	const status = response.statusCode;
	if (status >= 300) return { failure: { type: 'http', status, body: response.body, headers } };
	const body = response.body;
	if (body === undefined || body === null || body === '') return { body: {} };
	if (typeof body === 'string') {
		const contentType = header(headers, 'content-type');
		if (!/[/+]json\b/i.test(contentType)) return { failure: { type: 'notJson', status, body: String(body), contentType } };
	}
	return { body };
}

/**
 * Sends one request, repeating it after transient faults when that is safe (see isRetryable),
 * waiting as the API asks (Retry-After) or with exponential backoff. Redirects are not followed.
 * Answers of 300 or more, non-JSON answers and network errors become one clear NodeApiError.
 */
export async function sendWithRetries(session: Session, options: IHttpRequestOptions): Promise<unknown> {
	const { ctx, retry } = session;
	for (let attempt = 0; ; attempt++) {
		let failure: Failure;
		try {
			const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, {
				...options,
				headers: { ...options.headers },
				json: true,
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
				disableFollowRedirect: true,
			})) as IN8nHttpFullResponse;
			const outcome = judge(response);
			if ('body' in outcome) return redactDeep(outcome.body, session.secret);
			failure = outcome.failure;
		} catch (error) {
			failure = networkFailure(error);
		}
		const retryable = attempt < retry.maxRetries && isRetryable(failure, session.safeToRepeat);
		const delay = retryable ? retryDelayMs(attempt, failure, retry) : undefined;
		if (delay === undefined) {
			const asked = failure.type === 'http' ? retryAfterMs(failure.headers) : undefined;
			throw toNodeError(session.node, failure, {
				itemIndex: session.itemIndex,
				secret: session.secret,
				attempts: attempt + 1,
				request: describeRequest(options),
				plainWrite: !session.safeToRepeat,
				stoppedBecause:
					retryable && asked !== undefined
						? `the API asked to wait ${Math.ceil(asked / 1000)} s before retrying, longer than the ${retry.maxDelayMs / 1000} s this node waits`
						: undefined,
			});
		}
		ctx.logger.debug(`Subscription Billing: retrying ${describeRequest(options)} in ${Math.round(delay)} ms after ${summary(failure)}`, {
			itemIndex: session.itemIndex,
			attempt: attempt + 1,
		});
		await sleepWithAbort(delay, 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined);
	}
}

export { DEFAULT_RETRY };
