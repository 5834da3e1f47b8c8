import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse, INode } from 'n8n-workflow';
import { toNodeError } from './apiError';
import { withApiKey, redact } from './apiCredentials';
import {
	wait,
	DEFAULT_ATTEMPT_TIMEOUT_MS,
	DEFAULT_RETRY,
	DEFAULT_TOTAL_TIMEOUT_MS,
	isRetryable,
	retryAfterMs,
	retryDelayMs,
	type Failure,
	type RetrySettings,
} from './retry';
import { logLine } from './logLine';
import { budgetOf, release, type TransportContext } from './requestBudget';

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
	/** Most requests the execution keeps in flight to this API (see RequestBudget). */
	maxConcurrent?: number;
	/** Asked when a request's first attempt has its turn: false means it is not sent (NotSentError). */
	mayStart?: () => boolean;
	/** Told when a request has failed for good, before the next waiting request has its turn. */
	onGiveUp?: () => void;
}

/** A request not sent because `mayStart` said no: nothing of it reached the API. */
export class NotSentError extends Error {}

/** A usable answer: its status, its body (parsed JSON) and its headers (names in lowercase). */
export interface Answer {
	status: number;
	body: unknown;
	headers: IDataObject;
}

/** For a page of a list: how many of its pages were read before this one (a 404 then says the address was right). */
export interface PagingContext {
	pagesRead: number;
}

/**
 * n8n wraps the HTTP client's error in a NodeApiError that keeps neither the original error nor
 * its config (which holds the key), only the code (as `httpCode`) and the original message (in
 * `messages`). Read them from there, or from `cause` when a version of n8n keeps it.
 */
function networkFailure(error: unknown): Extract<Failure, { type: 'network' }> {
	const wrapped = error as {
		cause?: { code?: unknown; message?: unknown };
		code?: unknown;
		httpCode?: unknown;
		messages?: unknown;
		message?: unknown;
	};
	const isCode = (value: unknown): value is string =>
		typeof value === 'string' && /^[A-Z][A-Z0-9_]+$/.test(value);
	const code = [wrapped.cause?.code, wrapped.code, wrapped.httpCode].find(isCode) ?? 'ERR_NETWORK';
	const original = Array.isArray(wrapped.messages)
		? wrapped.messages.find((entry) => typeof entry === 'string' && entry !== '')
		: undefined;
	const detail = [original, wrapped.cause?.message, wrapped.message].find(
		(entry) => typeof entry === 'string' && entry !== '',
	);
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
	return failure.type === 'notJson'
		? `HTTP ${failure.status} without JSON`
		: `HTTP ${failure.status}`;
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
function judge(
	response: IN8nHttpFullResponse,
	secret: string | undefined,
): Answer | { failure: Failure } {
	const headers = (response.headers ?? {}) as IDataObject;
	const status = response.statusCode;
	const raw =
		typeof response.body === 'string'
			? response.body
			: response.body === undefined || response.body === null
				? ''
				: JSON.stringify(response.body);
	const text = redact(raw, secret);
	const parsed = text.trim() === '' ? undefined : parseJson(text);
	if (status >= 300) return { failure: { type: 'http', status, body: parsed ?? text, headers } };
	if (text.trim() === '') return { status, body: {}, headers };
	if (parsed === undefined)
		return {
			failure: {
				type: 'notJson',
				status,
				body: text,
				contentType: header(headers, 'content-type'),
			},
		};
	return { status, body: parsed, headers };
}

function cancelSignalOf(ctx: TransportContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
}

/**
 * The HTTP client rejects a timed-out request without closing its connection (a silent server kept
 * one socket open per attempt): close it. n8n hands the client's error through with its request.
 */
function closeConnection(error: unknown): void {
	const request = (error as { request?: { destroy?: unknown } } | undefined)?.request;
	if (request && typeof request.destroy === 'function')
		(request.destroy as () => void).call(request);
}

const DEADLINE_STEP_MS = 100;
const PAST_DEADLINE = 'past the deadline';
/** The attempts to abort at each deadline, by its time; and at each execution's cancellation. */
const endingAt = new Map<number, Set<AbortController>>();
const cancelledWith = new WeakMap<AbortSignal, Set<AbortController>>();

/** Aborts each attempt of the group when `signal` fires; the group is kept while attempts are in it. */
function abortAllOn(
	signal: AbortSignal,
	group: Set<AbortController>,
	reason?: string,
	then?: () => void,
): void {
	signal.addEventListener(
		'abort',
		() => {
			then?.();
			for (const controller of group) controller.abort(reason);
		},
		{ once: true },
	);
}

/**
 * An attempt's abort signal: aborted `leftMs` from now (rounded up to the next tenth of a second)
 * or when the execution is cancelled. The attempts ending within the same tenth share one timer,
 * and each execution's cancellation one listener: a timer and a combined signal per request cost
 * about as much CPU as the rest of this package's work on a write.
 */
function attemptSignal(
	leftMs: number,
	cancel: AbortSignal | undefined,
): { controller: AbortController; done: () => void } {
	const controller = new AbortController();
	const now = Date.now();
	const end = Math.ceil((now + leftMs) / DEADLINE_STEP_MS) * DEADLINE_STEP_MS;
	let ending = endingAt.get(end);
	if (!ending) {
		ending = new Set();
		endingAt.set(end, ending);
		abortAllOn(AbortSignal.timeout(end - now), ending, PAST_DEADLINE, () => endingAt.delete(end));
	}
	ending.add(controller);
	let cancelled = cancel && cancelledWith.get(cancel);
	if (cancel && !cancelled) {
		cancelled = new Set();
		cancelledWith.set(cancel, cancelled);
		abortAllOn(cancel, cancelled);
	}
	cancelled?.add(controller);
	if (cancel?.aborted) controller.abort();
	const group = ending;
	return {
		controller,
		done: () => {
			group.delete(controller);
			cancelled?.delete(controller);
		},
	};
}

/**
 * One attempt. It fails after `timeoutMs` without a byte from the server (n8n's Timeout, which
 * resets while an answer arrives, however slowly), and is aborted, its connection with it, when
 * its time `leftMs` is up (the request's time) or the execution's cancellation fires.
 */
async function attempt(
	session: Session,
	options: IHttpRequestOptions,
	timeoutMs: number,
	leftMs: number,
): Promise<Answer | { failure: Failure }> {
	const { controller, done } = attemptSignal(leftMs, cancelSignalOf(session.ctx));
	try {
		const request = withApiKey(
			{
				...options,
				json: true,
				encoding: 'text',
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
				disableFollowRedirect: true,
				abortSignal: controller.signal,
				timeout: timeoutMs,
			},
			session.secret,
		);
		const { helpers } = session.ctx;
		const response =
			'httpRequest' in helpers
				? ((await helpers.httpRequest(request)) as IN8nHttpFullResponse)
				: await fetchRequest(request);
		return judge(response, session.secret);
	} catch (error) {
		closeConnection(error);
		const failure = networkFailure(error);
		if (controller.signal.reason === PAST_DEADLINE)
			return {
				failure: {
					type: 'network',
					code: 'ETIMEDOUT',
					detail: 'no complete answer in the time allowed for the request',
				},
			};
		if (TIMEOUT_CODES.has(failure.code))
			return {
				failure: {
					type: 'network',
					code: 'ETIMEDOUT',
					detail: `nothing received for ${formatMs(timeoutMs)}`,
				},
			};
		return { failure };
	} finally {
		done();
	}
}

const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);

function formatMs(ms: number): string {
	return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** What bounds the waiting, said in a timeout's error with the settings that change it. */
function timeLimits(retry: RetrySettings): string {
	return `an attempt waits at most ${formatMs(retry.attemptTimeoutMs)} for the server to send anything (Request Options > Timeout, default ${formatMs(DEFAULT_ATTEMPT_TIMEOUT_MS)}) and all attempts of one request take at most ${formatMs(retry.totalTimeoutMs)} (Fault Handling > Max Time per Request, default ${formatMs(DEFAULT_TOTAL_TIMEOUT_MS)})`;
}

/**
 * Sends one request with the API key in its header, repeating it after transient faults when that is
 * safe (see isRetryable), waiting as the API asks (Retry-After) or with exponential backoff. An
 * attempt fails after `attemptTimeoutMs` without a byte from the server; all of them together
 * take at most `totalTimeoutMs`.
 * Redirects are not followed. Answers of 300 or more, non-JSON answers and network errors become
 * one clear NodeApiError. Gives the answer's body and headers (paging reads its Link header).
 */
export async function sendForAnswer(
	session: Session,
	options: IHttpRequestOptions,
	paging?: PagingContext,
): Promise<Answer> {
	const { ctx, retry } = session;
	// Time in attempts and the waits between them; waiting behind the execution's other requests
	// (RequestBudget) is not this request's and does not count.
	let spent = 0;
	for (let attemptIndex = 0; ; attemptIndex++) {
		const ticket = await budgetOf(session.ctx, session.maxConcurrent, options)?.acquire();
		if (attemptIndex === 0 && session.mayStart?.() === false) {
			ticket?.release('other');
			throw new NotSentError(`${describeRequest(options)} was not sent`);
		}
		const left = Math.max(1, Math.ceil(retry.totalTimeoutMs - spent));
		const began = Date.now();
		const outcome = await attempt(session, options, Math.min(retry.attemptTimeoutMs, left), left);
		spent += Date.now() - began;
		if ('body' in outcome) {
			release(ticket, undefined);
			return outcome;
		}
		const { failure } = outcome;
		const retryable = attemptIndex < retry.maxRetries && isRetryable(failure, session.safeToRepeat);
		let delay = retryable ? retryDelayMs(attemptIndex, failure, retry) : undefined;
		// Another attempt needs time to be answered: at least its timeout, or a second.
		const outOfTime =
			delay !== undefined &&
			spent + delay + Math.min(retry.attemptTimeoutMs, 1000) > retry.totalTimeoutMs;
		if (outOfTime) delay = undefined;
		// Said before the turn passes on, so that a request waiting for it is not sent.
		if (delay === undefined) session.onGiveUp?.();
		release(ticket, failure);
		if (delay === undefined) {
			const asked = failure.type === 'http' ? retryAfterMs(failure.headers) : undefined;
			const timedOut = failure.type === 'network' && failure.code === 'ETIMEDOUT';
			const reasons = [
				retryable && !outOfTime && asked !== undefined
					? `the API asked to wait ${Math.ceil(asked / 1000)} s before retrying, longer than the ${retry.maxDelayMs / 1000} s this node waits`
					: undefined,
				outOfTime
					? `another attempt would end after the ${formatMs(retry.totalTimeoutMs)} this node spends on one request (Fault Handling > Max Time per Request)`
					: undefined,
				timedOut ? `${formatMs(spent)} spent in all: ${timeLimits(retry)}` : undefined,
			].filter((reason): reason is string => reason !== undefined);
			throw toNodeError(session.node, failure, {
				itemIndex: session.itemIndex,
				secret: session.secret,
				attempts: attemptIndex + 1,
				request: describeRequest(options),
				baseUrl: options.baseURL,
				plainWrite: !session.safeToRepeat,
				stoppedBecause: reasons.length > 0 ? reasons.join('; ') : undefined,
				pagesRead: paging?.pagesRead,
			});
		}
		logLine(
			ctx,
			'debug',
			`retrying ${describeRequest(options)} in ${Math.round(delay)} ms after ${summary(failure)}`,
			{ itemIndex: session.itemIndex, attempt: attemptIndex + 1 },
		);
		await wait(delay, cancelSignalOf(ctx));
		spent += delay;
	}
}

/** {@link sendForAnswer}, for callers that need only the body. */
export async function sendWithRetries(
	session: Session,
	options: IHttpRequestOptions,
): Promise<unknown> {
	return (await sendForAnswer(session, options)).body;
}

export { DEFAULT_RETRY };

/**
 * The HTTP client of the credential test, whose context offers only `helpers.request` (deprecated,
 * and refused by n8n's community-node rules): a GET the transport builds, sent with the
 * runtime's fetch. Redirects are never followed; the body comes back as text. The transport's
 * abort signal bounds the wait (the credential test's attempt lasts as long as its request).
 */
export async function fetchRequest(options: IHttpRequestOptions): Promise<IN8nHttpFullResponse> {
	const url = new URL(`${options.baseURL ?? ''}${options.url}`);
	for (const [name, value] of Object.entries(options.qs ?? {}))
		url.searchParams.set(name, String(value));
	const response = await fetch(url, {
		method: options.method ?? 'GET',
		headers: { Accept: 'application/json', ...(options.headers as Record<string, string>) },
		redirect: 'manual',
		signal: options.abortSignal as AbortSignal | undefined,
	});
	const headers: IDataObject = Object.fromEntries(response.headers);
	return { statusCode: response.status, headers, body: await response.text() };
}
