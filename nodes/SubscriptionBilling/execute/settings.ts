import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { invalidInput, invalidSetting, quoted } from '../shared/invalidInput';
import { DEFAULT_RETRY, type RetrySettings } from '../shared/retry';
import { DEFAULT_MAX_CONCURRENT, MAX_CONCURRENT_LIMIT } from '../shared/requestBudget';

/*
 * The action node's settings (Fault Handling, and n8n's Request Options the node acts on), read
 * here under one rule: a value the editor can hold is read as the editor means it, its default when
 * not set; any other value (from an expression, or a workflow edited by hand) is refused with the
 * field's name before anything is sent.
 */

/** Which key a write carries: derived from the execution, the user's own, or none. */
export type Idempotency = { mode: 'derived' } | { mode: 'custom'; key: string } | { mode: 'off' };

/** How n8n's RoutingNode spaces a run's items (Request Options > Batching), as it reads them. */
export interface BatchSettings {
	/** Items per batch; 0 or less: one item at a time. */
	size: number;
	/** Milliseconds between two batches; 0: not spaced. */
	interval: number;
}

type Field = readonly [parameter: string, displayName: string];

const MAX_RETRIES: Field = ['faultHandling.maxRetries', 'Max Retries'];
const RETRY_DELAY: Field = ['faultHandling.retryDelay', 'Retry Delay (Milliseconds)'];
const MAX_REQUEST_TIME: Field = ['faultHandling.maxRequestTime', 'Max Time per Request (Seconds)'];
const MAX_CONCURRENT: Field = ['faultHandling.maxConcurrentRequests', 'Max Concurrent Requests'];
const IDEMPOTENCY: Field = ['faultHandling.idempotency', 'Idempotency'];
const TIMEOUT: Field = ['requestOptions.timeout', 'Timeout'];
const BATCH_SIZE: Field = ['requestOptions.batching.batch.batchSize', 'Items per Batch'];
const BATCH_INTERVAL: Field = [
	'requestOptions.batching.batch.batchInterval',
	'Batch Interval (ms)',
];

/** Reads stored values at dotted parameter paths, each top-level parameter resolved once. */
type Reader = (parameter: string) => unknown;

function readerOf(ctx: IExecuteSingleFunctions): Reader {
	const tops = new Map<string, unknown>();
	return (parameter) => {
		const [top, ...path] = parameter.split('.');
		if (!tops.has(top)) tops.set(top, ctx.getNodeParameter(top, {}));
		return path.reduce<unknown>(
			(value, key) =>
				value && typeof value === 'object' ? (value as IDataObject)[key] : undefined,
			tops.get(top),
		);
	};
}

/** A number the field accepts, or its default when not set. */
function numberSetting(
	ctx: IExecuteSingleFunctions,
	read: Reader,
	[parameter, displayName]: Field,
	fallback: number,
	accepts: (value: number) => boolean,
	expected: string,
): number {
	const value = read(parameter) ?? fallback;
	if (typeof value !== 'number' || !Number.isFinite(value) || !accepts(value))
		throw invalidSetting(ctx, parameter, displayName, `${quoted(value)} is not ${expected}`);
	return value;
}

const wholeFrom =
	(min: number, max = Infinity) =>
	(value: number) =>
		Number.isInteger(value) && value >= min && value <= max;

const MILLISECONDS = 'a number of milliseconds of at least 0';

/** What an item's requests are sent with; throws on the first setting that is not valid. */
export interface ItemSettings {
	retry: RetrySettings;
	maxConcurrent: number;
	idempotency: Idempotency;
	batch: BatchSettings;
}

/** `writes`: the item sends a write, which the idempotency setting keys (off for any other). */
export function itemSettings(ctx: IExecuteSingleFunctions, writes: boolean): ItemSettings {
	const read = readerOf(ctx);
	const number = (
		field: Field,
		fallback: number,
		accepts: (v: number) => boolean,
		expected: string,
	) => numberSetting(ctx, read, field, fallback, accepts, expected);
	const idempotency: Idempotency = writes ? idempotencyOf(ctx, read) : { mode: 'off' };
	const maxRetries = number(
		MAX_RETRIES,
		DEFAULT_RETRY.maxRetries,
		wholeFrom(0, 10),
		'a whole number from 0 to 10',
	);
	const initialDelayMs = number(
		RETRY_DELAY,
		DEFAULT_RETRY.initialDelayMs,
		(v) => v >= 0,
		MILLISECONDS,
	);
	const totalSeconds = number(
		MAX_REQUEST_TIME,
		DEFAULT_RETRY.totalTimeoutMs / 1000,
		(v) => v > 0,
		'a number of seconds greater than 0',
	);
	// n8n always puts a timeout on the request (300 s when Request Options has none): the user's own, or the node's.
	const attemptTimeoutMs = number(
		TIMEOUT,
		DEFAULT_RETRY.attemptTimeoutMs,
		(v) => v >= 1,
		'a number of milliseconds of at least 1',
	);
	return {
		idempotency,
		retry: {
			...DEFAULT_RETRY,
			maxRetries,
			initialDelayMs,
			attemptTimeoutMs,
			totalTimeoutMs: totalSeconds * 1000,
		},
		maxConcurrent: number(
			MAX_CONCURRENT,
			DEFAULT_MAX_CONCURRENT,
			wholeFrom(1, MAX_CONCURRENT_LIMIT),
			`a whole number from 1 to ${MAX_CONCURRENT_LIMIT}`,
		),
		batch: batchOf(ctx, read),
	};
}

/** Request Options > Batching; not set: RoutingNode neither groups nor spaces the items. */
export function batchSettings(ctx: IExecuteSingleFunctions): BatchSettings {
	return batchOf(ctx, readerOf(ctx));
}

function batchOf(ctx: IExecuteSingleFunctions, read: Reader): BatchSettings {
	return {
		size: numberSetting(ctx, read, BATCH_SIZE, 0, wholeFrom(-1), 'a whole number of at least -1'),
		interval: numberSetting(ctx, read, BATCH_INTERVAL, 0, (v) => v >= 0, MILLISECONDS),
	};
}

/** Fault Handling > Idempotency; a custom key is checked for each item, as it is often mapped. */
function idempotencyOf(ctx: IExecuteSingleFunctions, read: Reader): Idempotency {
	const [parameter, displayName] = IDEMPOTENCY;
	const mode = read(parameter) ?? 'derived';
	if (mode === 'derived' || mode === 'off') return { mode };
	if (mode !== 'custom')
		throw invalidSetting(
			ctx,
			parameter,
			displayName,
			`${quoted(mode)} is not one of its choices (derived, custom, off)`,
		);
	const key = String(read('faultHandling.idempotencyKey') ?? '').trim();
	if (key === '' || key.length > 255)
		throw invalidInput(
			ctx,
			'Idempotency Key',
			key === '' ? 'is empty' : `is ${key.length} characters long, at most 255 are allowed`,
		);
	return { mode, key };
}
