import type {
	ICredentialTestFunctions,
	IDataObject,
	IExecutePaginationFunctions,
	ILoadOptionsFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	IPollFunctions,
} from 'n8n-workflow';
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

/** Operations, the editor's pickers, the trigger's polls and the credential test send through the same transport. */
export type TransportContext =
	| IExecutePaginationFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| ICredentialTestFunctions;

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

/** Most requests one execution keeps in flight to one API unless the node's option says otherwise. */
export const DEFAULT_MAX_CONCURRENT = 64;
/** Requests in flight when an execution starts sending to an API (or the maximum, if lower). */
export const INITIAL_WINDOW = 16;
/** The highest the node's option allows. */
export const MAX_CONCURRENT_LIMIT = 256;

/** A 429 shrinks the window to this share of itself (once per slowdown, however many 429s it brings). */
export const DECREASE = 0.7;
/** After a 429, each second without one grows the window by this many requests, up to the maximum. */
export const INCREASE_PER_SECOND = 2;
/** Until the first 429, the window doubles once per second of successes, up to the maximum. */
const START_DOUBLING_MS = 1000;
/** A 429 without Retry-After pauses this long. */
const DEFAULT_PAUSE_MS = 1000;
/** A budget that learned something (a smaller window, a pause) is kept this long after its last use. */
const KEEP_IDLE_MS = 60_000;

export type Outcome = 'success' | 'rateLimited' | 'other';

/** Permission to send one request; give it back with how the request went. */
export interface Ticket {
	release(outcome: Outcome, retryAfterMs?: number): void;
}

interface Waiter {
	resolve: (ticket: Ticket) => void;
	reject: (error: unknown) => void;
}

/**
 * What all items of one execution may send to one API: at most `window` requests in flight, none
 * while paused. The window starts at INITIAL_WINDOW and, until the API first answers 429, doubles
 * each second up to the maximum (a slow start: an API without a limit gets the maximum after a
 * few seconds; a rate limit is found before the window has grown). A 429 pauses every request for
 * its Retry-After and shrinks the window; from then on each second without one grows it back
 * by a little (additive increase, multiplicative decrease). Waiters are served first come, first served.
 */
export class RequestBudget {
	private window: number;
	private inFlight = 0;
	/** Waiters in arrival order from `head` on (an index, not shift(): 10,000 items may wait). */
	private queue: Waiter[] = [];
	private head = 0;
	private pausedUntil = 0;
	private slowdownStartedAt = -Infinity;
	private grownAt = Date.now();
	private pumping = false;
	lastUsedAt = Date.now();

	constructor(
		public maxConcurrent: number,
		private readonly signal?: AbortSignal,
		/** Called when it is idle and learned nothing: nothing would be lost by starting afresh. */
		private readonly forget?: () => void,
	) {
		this.window = Math.min(maxConcurrent, INITIAL_WINDOW);
	}

	/** Whether the API has answered 429 to this execution yet (until then, the window starts slowly). */
	private get rateLimitedYet(): boolean {
		return this.slowdownStartedAt > -Infinity;
	}

	get idle(): boolean {
		return this.inFlight === 0 && this.waiting === 0 && Date.now() >= this.pausedUntil;
	}

	/** Whether it still holds something learned: a pause, a window shrunk by a 429, or one grown since the start. */
	get learned(): boolean {
		if (Date.now() < this.pausedUntil) return true;
		return this.rateLimitedYet
			? this.window < this.maxConcurrent
			: this.window > Math.min(this.maxConcurrent, INITIAL_WINDOW);
	}

	/** Requests that may be in flight now. */
	get capacity(): number {
		return Math.max(1, Math.min(this.maxConcurrent, Math.floor(this.window)));
	}

	private get waiting(): number {
		return this.queue.length - this.head;
	}

	private next(): Waiter {
		const waiter = this.queue[this.head++];
		if (this.head > 1024 && this.head * 2 > this.queue.length) {
			this.queue = this.queue.slice(this.head);
			this.head = 0;
		}
		return waiter;
	}

	acquire(): Promise<Ticket> {
		this.lastUsedAt = Date.now();
		const granted = new Promise<Ticket>((resolve, reject) => this.queue.push({ resolve, reject }));
		void this.pump();
		return granted;
	}

	/** Hands out tickets while there is room, sleeping out a pause first. */
	private async pump(): Promise<void> {
		if (this.pumping) return;
		this.pumping = true;
		try {
			while (this.waiting > 0) {
				const pause = this.pausedUntil - Date.now();
				if (pause > 0) {
					await wait(pause, this.signal);
					continue;
				}
				if (this.inFlight >= this.capacity) return;
				this.inFlight++;
				this.next().resolve(this.ticket(Date.now()));
			}
		} catch (error) {
			while (this.waiting > 0) this.next().reject(error);
		} finally {
			this.pumping = false;
		}
	}

	private ticket(startedAt: number): Ticket {
		let released = false;
		return {
			release: (outcome, retryAfterMs) => {
				if (released) return;
				released = true;
				this.inFlight--;
				this.lastUsedAt = Date.now();
				if (outcome === 'rateLimited') this.slowDown(startedAt, retryAfterMs);
				else if (outcome === 'success') this.grow();
				if (this.idle && !this.learned) this.forget?.();
				else void this.pump();
			},
		};
	}

	private slowDown(startedAt: number, retryAfterMs: number | undefined): void {
		const now = Date.now();
		this.pausedUntil = Math.max(this.pausedUntil, now + (retryAfterMs ?? DEFAULT_PAUSE_MS));
		// 429s to requests sent before this slowdown began belong to it: shrink once.
		if (startedAt < this.slowdownStartedAt) return;
		this.slowdownStartedAt = now;
		this.window = Math.max(1, this.window * DECREASE);
		this.grownAt = this.pausedUntil;
	}

	private grow(): void {
		const now = Date.now();
		if (this.window >= this.maxConcurrent || now <= this.grownAt) return;
		if (!this.rateLimitedYet) {
			if (now - this.grownAt < START_DOUBLING_MS) return;
			this.window = Math.min(this.maxConcurrent, this.window * 2);
		} else {
			this.window = Math.min(
				this.maxConcurrent,
				this.window + ((now - this.grownAt) / 1000) * INCREASE_PER_SECOND,
			);
		}
		this.grownAt = now;
	}
}

const budgets = new Map<string, RequestBudget>();

/** Forgets budgets that slowed down once nobody used them for a while (the others go when idle). */
function sweep(now: number): void {
	for (const [key, budget] of budgets) {
		if (budget.idle && (!budget.learned || now - budget.lastUsedAt > KEEP_IDLE_MS))
			budgets.delete(key);
	}
}

/**
 * The budget shared by every item of execution `executionId` sending to `apiAddress`, with
 * `maxConcurrent` as its maximum (the latest setting wins when nodes of one execution differ).
 */
export function requestBudget(
	executionId: string,
	apiAddress: string,
	maxConcurrent: number,
	signal?: AbortSignal,
): RequestBudget {
	const key = `${executionId} ${apiAddress}`;
	let budget = budgets.get(key);
	if (!budget) {
		sweep(Date.now());
		const created: RequestBudget = new RequestBudget(maxConcurrent, signal, () => {
			if (budgets.get(key) === created) budgets.delete(key);
		});
		budgets.set(key, created);
		budget = created;
	}
	budget.maxConcurrent = maxConcurrent;
	return budget;
}

/** Budgets currently held (for tests: they must not pile up). */
export function heldBudgets(): number {
	return budgets.size;
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
 * editor's pickers and the credential test.
 */
function budgetOwner(ctx: TransportContext): string | undefined {
	if (!('getNode' in ctx)) return undefined;
	if ('getActivationMode' in ctx) return `poll ${ctx.getWorkflow().id ?? ''} ${ctx.getNode().id}`;
	return ctx.getExecutionId() as string | undefined;
}

/** The budget its owner shares for the API's address (see budgetOwner). */
function budgetOf(session: Session, options: IHttpRequestOptions): RequestBudget | undefined {
	const { ctx } = session;
	const owner = budgetOwner(ctx);
	if (!owner) return undefined;
	const signal = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	return requestBudget(
		owner,
		originOf(options),
		session.maxConcurrent ?? DEFAULT_MAX_CONCURRENT,
		signal,
	);
}

/** Tells the budget how a request went: 429 slows the execution down, an answer lets it speed up. */
function release(ticket: Ticket | undefined, failure: Failure | undefined): void {
	if (!ticket) return;
	if (!failure) ticket.release('success');
	else if (failure.type === 'http' && failure.status === 429)
		ticket.release('rateLimited', retryAfterMs(failure.headers));
	else ticket.release('other');
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
		const ticket = await budgetOf(session, options)?.acquire();
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
		ctx.logger.debug(
			`Subscription Billing: retrying ${describeRequest(options)} in ${Math.round(delay)} ms after ${summary(failure)}`,
			{
				itemIndex: session.itemIndex,
				attempt: attemptIndex + 1,
			},
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
