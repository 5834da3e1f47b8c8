import * as workflow from 'n8n-workflow';
import { type IDataObject, ManualExecutionCancelledError } from 'n8n-workflow';

/**
 * What went wrong with one attempt: an HTTP answer of 300 or more, a 2xx answer whose body is not
 * JSON, or no usable answer at all (connection refused, reset, timed out, body cut off).
 */
export type Failure =
	| { type: 'http'; status: number; body: unknown; headers: IDataObject }
	| { type: 'notJson'; status: number; body: string; contentType: string }
	| { type: 'network'; code: string; detail: string };

export interface RetrySettings {
	maxRetries: number;
	initialDelayMs: number;
	/** Longest wait before one retry; a Retry-After asking for more stops the retries instead. */
	maxDelayMs: number;
	/** Longest one attempt waits without a byte from the server (Request Options > Timeout). */
	attemptTimeoutMs: number;
	/** Longest all attempts of one request take together, the waits between them included. */
	totalTimeoutMs: number;
}

/**
 * The slowest legitimate answer is a page of 1,000 invoices, about 1 MB (measured on the sandbox):
 * the API reads and writes it before its first byte, then 8 s on a 1 Mbit/s link. 30 s without a
 * byte is far beyond the first; two minutes for all attempts of one request covers the transfer on
 * a slow link and four attempts against a silent server (not n8n's 5 x 300 s).
 */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 30_000;
export const DEFAULT_TOTAL_TIMEOUT_MS = 120_000;

export const DEFAULT_RETRY: RetrySettings = {
	maxRetries: 4,
	initialDelayMs: 500,
	maxDelayMs: 60_000,
	attemptTimeoutMs: DEFAULT_ATTEMPT_TIMEOUT_MS,
	totalTimeoutMs: DEFAULT_TOTAL_TIMEOUT_MS,
};

const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** Connection errors raised before the request could reach the server: repeating them never repeats a write. */
export const NOT_CONNECTED_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'EADDRNOTAVAIL',
]);

/** The API's TLS certificate was refused: a lasting fault, and the request never reached the API. */
export const UNTRUSTED_CERTIFICATE_CODES = new Set([
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'UNABLE_TO_GET_ISSUER_CERT',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'CERT_HAS_EXPIRED',
	'CERT_NOT_YET_VALID',
	'CERT_REVOKED',
	'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Whether the request provably never reached the API (so the API cannot have acted on it). */
export function provablyNotReceived(failure: Failure): boolean {
	if (failure.type === 'network') return NOT_CONNECTED_CODES.has(failure.code);
	return failure.type === 'http' && failure.status === 429;
}

/**
 * Reads (and writes carrying an idempotency key) are safe to repeat on any transient fault.
 * A plain write is repeated only when the server provably did not act on it: the connection was
 * never made, or the server declined it with 429 before processing.
 */
export function isRetryable(failure: Failure, safeToRepeat: boolean): boolean {
	if (failure.type === 'http' && !RETRYABLE_STATUSES.has(failure.status)) return false;
	if (failure.type === 'network' && UNTRUSTED_CERTIFICATE_CODES.has(failure.code)) return false;
	return safeToRepeat || provablyNotReceived(failure);
}

/** The wait a Retry-After header asks for (seconds or an HTTP date), in ms. */
export function retryAfterMs(headers: IDataObject | undefined): number | undefined {
	const value = headers?.['retry-after'];
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	if (typeof value === 'string' && value.trim() === '') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(value));
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * How long to wait before retry number `attempt + 1`: the server's Retry-After when it gives one
 * (never less, plus a little jitter so many items do not retry in the same instant), otherwise
 * exponential backoff with jitter. Undefined when the server asks for a longer wait than
 * `maxDelayMs`: retrying earlier would ignore it, so the caller stops instead.
 */
export function retryDelayMs(
	attempt: number,
	failure: Failure,
	settings: RetrySettings,
): number | undefined {
	const serverDelay = failure.type === 'http' ? retryAfterMs(failure.headers) : undefined;
	if (serverDelay !== undefined) {
		if (serverDelay > settings.maxDelayMs) return undefined;
		return serverDelay + Math.random() * Math.min(settings.initialDelayMs, 1000);
	}
	const ceiling = Math.min(settings.initialDelayMs * 2 ** attempt, settings.maxDelayMs);
	return ceiling / 2 + (Math.random() * ceiling) / 2;
}

type SleepWithAbort = (ms: number, signal?: AbortSignal) => Promise<void>;

/** n8n-workflow 1.98–2.40 export it; 2.41 dropped it and keeps only `sleep`. */
const sleepWithAbort = (workflow as { sleepWithAbort?: SleepWithAbort }).sleepWithAbort;

/** Without sleepWithAbort, a long wait is slept in slices so that a cancelled execution stops within one. */
const SLICE_MS = 250;

function stopIfCancelled(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new ManualExecutionCancelledError('');
}

/**
 * Waits `ms`, ending early with n8n's cancellation error when the execution is cancelled, on every
 * n8n release the package supports.
 */
export async function wait(ms: number, signal?: AbortSignal): Promise<void> {
	if (sleepWithAbort) return await sleepWithAbort(ms, signal);
	const until = Date.now() + ms;
	for (let left = ms; left > 0; left = until - Date.now()) {
		stopIfCancelled(signal);
		await workflow.sleep(Math.min(left, SLICE_MS));
	}
	stopIfCancelled(signal);
}
