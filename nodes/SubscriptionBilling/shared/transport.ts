import {
	type IDataObject,
	type IExecutePaginationFunctions,
	type ILoadOptionsFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type INode,
	type IPollFunctions,
} from 'n8n-workflow';
import { toNodeError } from './apiError';
import { API_KEY_HEADER } from './constants';
import { redact } from './redact';
import { wait } from './wait';
import { DEFAULT_MAX_CONCURRENT, requestBudget, type RequestBudget, type Ticket } from './rateBudget';
import { DEFAULT_RETRY, isRetryable, retryAfterMs, retryDelayMs, type Failure, type RetrySettings } from './retry';

/** Operations, the editor's pickers and the trigger's polls send through the same transport. */
export type TransportContext = IExecutePaginationFunctions | ILoadOptionsFunctions | IPollFunctions;

/** Everything one item's requests share: the node, the item, the key to redact and how to retry. */
export interface Session {
	ctx: TransportContext;
	node: INode;
	itemIndex: number;
	/** The credential's API key: sent in its header with every request, and redacted from whatever comes back. */
	secret?: string;
	retry: RetrySettings;
	/** Reads, and writes carrying an idempotency key. */
	safeToRepeat: boolean;
	/** Most requests the execution keeps in flight to this API (see rateBudget.ts). */
	maxConcurrent?: number;
}

const origins = new Map<string, string>();

/** The address (scheme, host, port) a request goes to; base URLs are few, so each is parsed once. */
function originOf(options: IHttpRequestOptions): string {
	const url = options.baseURL || options.url;
	let origin = origins.get(url);
	if (origin === undefined) {
		origin = new URL(url).origin;
		if (origins.size >= 64) origins.clear();
		origins.set(url, origin);
	}
	return origin;
}

/**
 * Who shares a budget: the items of one execution, or the polls of one trigger (polls run outside
 * any execution; a trigger's next poll starts from what its last one learned). None for the
 * editor's pickers.
 */
function budgetOwner(ctx: TransportContext): string | undefined {
	if ('getActivationMode' in ctx) return `poll ${ctx.getWorkflow().id ?? ''} ${ctx.getNode().id}`;
	return ctx.getExecutionId() as string | undefined;
}

/** The budget its owner shares for the API's address (see budgetOwner). */
function budgetOf(session: Session, options: IHttpRequestOptions): RequestBudget | undefined {
	const { ctx } = session;
	const owner = budgetOwner(ctx);
	if (!owner) return undefined;
	const signal = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	return requestBudget(owner, originOf(options), session.maxConcurrent ?? DEFAULT_MAX_CONCURRENT, signal);
}

/** Tells the budget how a request went: 429 slows the execution down, an answer lets it speed up. */
function release(ticket: Ticket | undefined, failure: Failure | undefined): void {
	if (!ticket) return;
	if (!failure) ticket.release('success');
	else if (failure.type === 'http' && failure.status === 429) ticket.release('rateLimited', retryAfterMs(failure.headers));
	else ticket.release('other');
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

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/**
 * The outcome of one answer: its body when usable, or what was wrong with it. Answers arrive as
 * text, so a key echoed by the API is found with one string search and redacted before parsing.
 */
function judge(response: IN8nHttpFullResponse, secret: string | undefined): { body: unknown } | { failure: Failure } {
	const headers = (response.headers ?? {}) as IDataObject;
	const status = response.statusCode;
	const raw = typeof response.body === 'string' ? response.body : response.body === undefined || response.body === null ? '' : JSON.stringify(response.body);
	const text = redact(raw, secret);
	const parsed = text.trim() === '' ? undefined : parseJson(text);
	if (status >= 300) return { failure: { type: 'http', status, body: parsed ?? text, headers } };
	if (text.trim() === '') return { body: {} };
	if (parsed === undefined) return { failure: { type: 'notJson', status, body: text, contentType: header(headers, 'content-type') } };
	return { body: parsed };
}

/**
 * Sends one request with the API key in its header, repeating it after transient faults when that is
 * safe (see isRetryable),
 * waiting as the API asks (Retry-After) or with exponential backoff. Redirects are not followed.
 * Answers of 300 or more, non-JSON answers and network errors become one clear NodeApiError.
 */
export async function sendWithRetries(session: Session, options: IHttpRequestOptions): Promise<unknown> {
	const { ctx, retry } = session;
	for (let attempt = 0; ; attempt++) {
		let failure: Failure;
		const ticket = await budgetOf(session, options)?.acquire();
		try {
			const response = (await ctx.helpers.httpRequest({
				...options,
				headers: { ...options.headers, [API_KEY_HEADER]: session.secret ?? '' },
				json: true,
				encoding: 'text',
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
				disableFollowRedirect: true,
			})) as IN8nHttpFullResponse;
			const outcome = judge(response, session.secret);
			if ('body' in outcome) {
				release(ticket, undefined);
				return outcome.body;
			}
			failure = outcome.failure;
		} catch (error) {
			failure = networkFailure(error);
		}
		release(ticket, failure);
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
		await wait(delay, 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined);
	}
}

export { DEFAULT_RETRY };
