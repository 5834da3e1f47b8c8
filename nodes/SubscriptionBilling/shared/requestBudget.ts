import type {
	ICredentialTestFunctions,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { repeatWhileHeld, triggerKeyOf } from './keptInProcess';
import { retryAfterMs, wait, type Failure } from './retry';

/** Operations, the editor's pickers, the trigger's polls and the credential test send through the same transport. */
export type TransportContext =
	| IExecutePaginationFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| ICredentialTestFunctions;

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
export const KEEP_IDLE_MS = 60_000;

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
		/**
		 * Called when no request is in flight or waiting; `keep` when it holds something learned (a
		 * pause, a window) worth keeping a while, else nothing would be lost by starting afresh.
		 */
		private readonly settled?: (keep: boolean) => void,
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
				if (this.inFlight === 0 && this.waiting === 0) this.settled?.(!this.idle || this.learned);
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
/**
 * Forgets budgets that slowed down once nobody used them for a while (the others go when idle):
 * when a budget is made, and every 10 s from when one is left holding something learned.
 */
function sweep(now: number): void {
	for (const [key, budget] of budgets) {
		if (budget.idle && (!budget.learned || now - budget.lastUsedAt > KEEP_IDLE_MS))
			budgets.delete(key);
	}
}

const sweepLater = repeatWhileHeld(
	10_000,
	() => sweep(Date.now()),
	() => budgets.size > 0,
);

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
		const created: RequestBudget = new RequestBudget(maxConcurrent, signal, (keep) => {
			if (budgets.get(key) !== created) return;
			if (keep) sweepLater();
			else budgets.delete(key);
		});
		sweep(Date.now());
		budgets.set(key, created);
		budget = created;
	}
	budget.maxConcurrent = maxConcurrent;
	return budget;
}

/** Budgets currently held, all or those of one owner (for tests: they must not pile up). */
export function heldBudgets(owner?: string): number {
	if (owner === undefined) return budgets.size;
	return [...budgets.keys()].filter((key) => key.startsWith(`${owner} `)).length;
}

/** Base URLs whose origin is cached (for tests: at most 64). */
export function cachedOrigins(): number {
	return origins.size;
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

/** Who shares a trigger's budget: its polls, under its key (keptInProcess.ts). */
export const pollBudgetOwner = (triggerKey: string): string => `poll ${triggerKey}`;

/**
 * Who shares a budget: the items of one execution, or the polls of one trigger (polls run outside
 * any execution; a trigger's next poll starts from what its last one learned). None for the
 * editor's pickers and the credential test.
 */
function budgetOwner(ctx: TransportContext): string | undefined {
	if (!('getNode' in ctx)) return undefined;
	if ('getActivationMode' in ctx) return pollBudgetOwner(triggerKeyOf(ctx));
	return ctx.getExecutionId() as string | undefined;
}

/** The budget its owner shares for the API's address (see budgetOwner). */
export function budgetOf(
	ctx: TransportContext,
	maxConcurrent: number | undefined,
	options: IHttpRequestOptions,
): RequestBudget | undefined {
	const owner = budgetOwner(ctx);
	if (!owner) return undefined;
	const signal = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	return requestBudget(owner, originOf(options), maxConcurrent ?? DEFAULT_MAX_CONCURRENT, signal);
}

/** Tells the budget how a request went: 429 slows the execution down, an answer lets it speed up. */
export function release(ticket: Ticket | undefined, failure: Failure | undefined): void {
	if (!ticket) return;
	if (!failure) ticket.release('success');
	else if (failure.type === 'http' && failure.status === 429)
		ticket.release('rateLimited', retryAfterMs(failure.headers));
	else ticket.release('other');
}
