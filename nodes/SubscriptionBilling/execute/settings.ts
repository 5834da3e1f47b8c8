import type {
	IDataObject,
	IExecuteSingleFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { invalidInput, invalidSetting, quoted } from '../shared/invalidInput';
import { DEFAULT_RETRY, type RetrySettings } from '../shared/retry';
import { DEFAULT_MAX_CONCURRENT, MAX_CONCURRENT_LIMIT } from '../shared/requestBudget';

/*
 * The action node's settings: Fault Handling (defined here, shown by editor.ts on every operation)
 * and the Request Options n8n adds that the node acts on. One rule reads them all: a value the
 * editor can hold is read as the editor means it, its default when not set; any other value (from
 * an expression, or a workflow edited by hand) is refused with the field's name before anything is
 * sent.
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

/** A number setting: where it is stored, what the editor calls it, and the values it holds. */
interface NumberRule {
	parameter: string;
	displayName: string;
	default: number;
	min: number;
	max?: number;
	whole?: boolean;
	unit?: 'milliseconds' | 'seconds';
}

const MAX_RETRIES: NumberRule = {
	parameter: 'faultHandling.maxRetries',
	displayName: 'Max Retries',
	default: DEFAULT_RETRY.maxRetries,
	min: 0,
	max: 10,
	whole: true,
};
const RETRY_DELAY: NumberRule = {
	parameter: 'faultHandling.retryDelay',
	// n8n's own nodes write "(ms)" under an inline lint exception, which n8n's community
	// package scan ignores (allowInlineConfig: false); "(Ms)" misreads, so the unit is spelled out.
	displayName: 'Retry Delay (Milliseconds)',
	default: DEFAULT_RETRY.initialDelayMs,
	min: 0,
	unit: 'milliseconds',
};
const MAX_REQUEST_TIME: NumberRule = {
	parameter: 'faultHandling.maxRequestTime',
	displayName: 'Max Time per Request (Seconds)',
	default: DEFAULT_RETRY.totalTimeoutMs / 1000,
	min: 1,
	unit: 'seconds',
};
const MAX_CONCURRENT: NumberRule = {
	parameter: 'faultHandling.maxConcurrentRequests',
	displayName: 'Max Concurrent Requests',
	default: DEFAULT_MAX_CONCURRENT,
	min: 1,
	max: MAX_CONCURRENT_LIMIT,
	whole: true,
};
// n8n's Request Options: n8n defines these fields; the node reads them by the same rule.
// n8n always puts a timeout on the request (300 s when Request Options has none): the user's own, or the node's.
const TIMEOUT: NumberRule = {
	parameter: 'requestOptions.timeout',
	displayName: 'Timeout',
	default: DEFAULT_RETRY.attemptTimeoutMs,
	min: 1,
	unit: 'milliseconds',
};
// Not set: RoutingNode neither groups nor spaces the items.
const BATCH_SIZE: NumberRule = {
	parameter: 'requestOptions.batching.batch.batchSize',
	displayName: 'Items per Batch',
	default: 0,
	min: -1,
	whole: true,
};
const BATCH_INTERVAL: NumberRule = {
	parameter: 'requestOptions.batching.batch.batchInterval',
	displayName: 'Batch Interval (ms)',
	default: 0,
	min: 0,
	unit: 'milliseconds',
};

/** A number field of the Fault Handling collection, from its rule. */
function numberField(rule: NumberRule, description: string, hint?: string): INodeProperties {
	const { displayName, parameter, min, max, default: value } = rule;
	return {
		displayName,
		name: parameter.split('.').pop() as string,
		type: 'number',
		typeOptions: { minValue: min, ...(max === undefined ? {} : { maxValue: max }) },
		default: value,
		...(hint ? { hint } : {}),
		description,
	};
}

const retryOptions: INodeProperties[] = [
	numberField(
		MAX_RETRIES,
		"How often this node repeats one request after rate limiting (429), a server error (5xx), a timeout or a dropped connection, before the item fails. n8n's Settings → Retry On Fail comes on top: once the node has failed it runs the node again for every item, and each of those tries retries up to this many times again.",
		'Settings → Retry On Fail comes on top: n8n runs the whole node again, and each run retries each request up to this many times',
	),
	numberField(
		RETRY_DELAY,
		"Wait before this node's first retry of a request, doubled for each further one. A Retry-After header from the API takes precedence; one of more than 60 s stops the retries with an error. Settings → Wait Between Tries (ms) is separate: n8n waits that long between Retry On Fail's runs of the whole node.",
	),
	numberField(
		MAX_REQUEST_TIME,
		`Longest this node spends on one request, all its attempts and the waits between them together, before the item fails. An attempt fails after Request Options → Timeout (${TIMEOUT.default / 1000} s when not set) without anything from the server.`,
	),
];

const idempotencyOptions: INodeProperties[] = [
	{
		displayName: 'Idempotency',
		name: 'idempotency',
		type: 'options',
		options: [
			{
				name: 'Derived From Request',
				value: 'derived',
				description:
					"A key for this execution, run of the node and item, computed with the request. Applied once: this node's retries, Settings → Retry On Fail, and Retry execution of a failed execution. Applied again: a new execution, the next run of the node in a loop, another item. For writes that must survive a crash of n8n, use a custom key.",
			},
			{
				name: 'Custom Key',
				value: 'custom',
				description:
					'A key you give, such as an order ID: the API applies one write per key, however often and in whatever execution it is sent',
			},
			{
				name: 'Off',
				value: 'off',
				description:
					'No key: this node repeats a write only when it provably did not reach the API, but Settings → Retry On Fail sends it again even when the API applied it',
			},
		],
		default: 'derived',
		description:
			'Whether writes carry the X-SERVICE-IDEMPOTENT-OPERATION-KEY header, with which the API recognises a repeated request and applies it once',
	},
	{
		displayName: 'Idempotency Key',
		name: 'idempotencyKey',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.order_id }}',
		description:
			'Up to 255 characters, one per intended write: usually an expression that reads an ID of the input item, like its order ID. The API applies the first request with a key and answers every later one with its result; the same key with a different request is refused.',
		displayOptions: { show: { idempotency: ['custom'] } },
	},
];

const concurrencyOptions: INodeProperties[] = [
	numberField(
		MAX_CONCURRENT,
		'Most requests all items of this execution have in flight to the API at once. Sending starts with 16 and doubles each second up to this until the API first answers 429 (rate limited); a 429 pauses them all for its Retry-After and lowers the number for a while; it recovers after successes.',
	),
];

/** The options of the Fault Handling collection: for reads and lists, and for writes (with the idempotency key). */
export const FAULT_HANDLING_OPTIONS = {
	read: [...retryOptions, ...concurrencyOptions],
	write: [...retryOptions, ...idempotencyOptions, ...concurrencyOptions],
};

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

/** The setting's value, or its default when not set; refused when the editor could not hold it. */
function numberSetting(ctx: IExecuteSingleFunctions, read: Reader, rule: NumberRule): number {
	const value = read(rule.parameter) ?? rule.default;
	const { min, max = Infinity, whole = false, unit } = rule;
	if (
		typeof value === 'number' &&
		Number.isFinite(value) &&
		value >= min &&
		value <= max &&
		(!whole || Number.isInteger(value))
	)
		return value;
	const kind = whole ? 'a whole number' : unit ? `a number of ${unit}` : 'a number';
	const range = max === Infinity ? `of at least ${min}` : `from ${min} to ${max}`;
	throw invalidSetting(
		ctx,
		rule.parameter,
		rule.displayName,
		`${quoted(value)} is not ${kind} ${range}`,
	);
}

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
	const idempotency: Idempotency = writes ? idempotencyOf(ctx, read) : { mode: 'off' };
	const maxRetries = numberSetting(ctx, read, MAX_RETRIES);
	const initialDelayMs = numberSetting(ctx, read, RETRY_DELAY);
	const totalSeconds = numberSetting(ctx, read, MAX_REQUEST_TIME);
	const attemptTimeoutMs = numberSetting(ctx, read, TIMEOUT);
	return {
		idempotency,
		retry: {
			...DEFAULT_RETRY,
			maxRetries,
			initialDelayMs,
			attemptTimeoutMs,
			totalTimeoutMs: totalSeconds * 1000,
		},
		maxConcurrent: numberSetting(ctx, read, MAX_CONCURRENT),
		batch: batchOf(ctx, read),
	};
}

/** Request Options > Batching. */
export function batchSettings(ctx: IExecuteSingleFunctions): BatchSettings {
	return batchOf(ctx, readerOf(ctx));
}

function batchOf(ctx: IExecuteSingleFunctions, read: Reader): BatchSettings {
	return {
		size: numberSetting(ctx, read, BATCH_SIZE),
		interval: numberSetting(ctx, read, BATCH_INTERVAL),
	};
}

/** Fault Handling > Idempotency; a custom key is checked for each item, as it is often mapped. */
function idempotencyOf(ctx: IExecuteSingleFunctions, read: Reader): Idempotency {
	const [field, keyField] = idempotencyOptions;
	const parameter = `faultHandling.${field.name}`;
	const mode = read(parameter) ?? field.default;
	if (mode === 'derived' || mode === 'off') return { mode };
	if (mode !== 'custom')
		throw invalidSetting(
			ctx,
			parameter,
			field.displayName,
			`${quoted(mode)} is not one of its choices (${(field.options as INodePropertyOptions[]).map((choice) => choice.value).join(', ')})`,
		);
	const key = String(read(`faultHandling.${keyField.name}`) ?? '').trim();
	if (key === '' || key.length > 255)
		throw invalidInput(
			ctx,
			keyField.displayName,
			key === '' ? 'is empty' : `is ${key.length} characters long, at most 255 are allowed`,
		);
	return { mode, key };
}
