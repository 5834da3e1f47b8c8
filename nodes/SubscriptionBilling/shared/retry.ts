import type { IDataObject } from 'n8n-workflow';

/** What went wrong with one attempt: an HTTP answer of 400 or more, or no usable answer at all. */
export type Failure =
	| { type: 'http'; status: number; body: unknown; headers: IDataObject }
	| { type: 'network'; code: string; detail: string };

export interface RetrySettings {
	maxRetries: number;
	initialDelayMs: number;
	maxDelayMs: number;
}

export const DEFAULT_RETRY: RetrySettings = { maxRetries: 4, initialDelayMs: 500, maxDelayMs: 30_000 };

const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** Connection errors raised before the request could reach the server: repeating them never repeats a write. */
const NOT_CONNECTED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

/**
 * Reads (and writes carrying an idempotency key) are safe to repeat on any transient fault.
 * A plain write is repeated only when the server provably did not act on it: the connection was
 * never made, or the server declined it with 429 before processing.
 */
export function isRetryable(failure: Failure, safeToRepeat: boolean): boolean {
	if (failure.type === 'http') {
		if (!RETRYABLE_STATUSES.has(failure.status)) return false;
		return safeToRepeat || failure.status === 429;
	}
	return safeToRepeat || NOT_CONNECTED_CODES.has(failure.code);
}

function retryAfterMs(headers: IDataObject): number | undefined {
	const value = headers['retry-after'];
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(value));
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Exponential backoff with jitter; a Retry-After header from the server wins. */
export function retryDelayMs(attempt: number, failure: Failure, settings: RetrySettings): number {
	const serverDelay = failure.type === 'http' ? retryAfterMs(failure.headers) : undefined;
	if (serverDelay !== undefined) return Math.min(serverDelay, settings.maxDelayMs);
	const ceiling = settings.initialDelayMs * 2 ** attempt;
	return Math.min(ceiling / 2 + (Math.random() * ceiling) / 2, settings.maxDelayMs);
}
