import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import { checkedBaseUrl } from './baseUrl';
import { CREDENTIAL_TYPE, IDEMPOTENCY_HEADER } from './constants';
import { deriveIdempotencyKey } from './idempotency';
import { invalidInput, quoted } from './invalidInput';
import { collectPages } from './pagination';
import { DEFAULT_RETRY, type RetrySettings } from './retry';
import { sendWithRetries, type Session } from './transport';

export type OperationKind = 'read' | 'write' | 'list';

/**
 * Prepares, once per input item, how each API result becomes the item's JSON (e.g. a delete's
 * `{deleted: true}`, or the chosen output mode).
 */
export type Shaper = (this: IExecutePaginationFunctions) => (result: IDataObject) => IDataObject;

interface FaultHandling {
	maxRetries?: number;
	retryDelay?: number;
	idempotency?: 'derived' | 'custom' | 'off';
	idempotencyKey?: string;
}

function retrySettings(ctx: IExecutePaginationFunctions, faultHandling: FaultHandling): RetrySettings {
	const maxRetries = faultHandling.maxRetries ?? DEFAULT_RETRY.maxRetries;
	const initialDelayMs = faultHandling.retryDelay ?? DEFAULT_RETRY.initialDelayMs;
	if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 10)
		throw invalidInput(ctx, 'Max Retries', `${quoted(maxRetries)} is not a whole number from 0 to 10`);
	if (typeof initialDelayMs !== 'number' || !(initialDelayMs >= 0) || !Number.isFinite(initialDelayMs))
		throw invalidInput(ctx, 'Retry Delay (Ms)', `${quoted(initialDelayMs)} is not a number of milliseconds of at least 0`);
	return { ...DEFAULT_RETRY, maxRetries, initialDelayMs };
}

function idempotencyKeyFor(ctx: IExecutePaginationFunctions, faultHandling: FaultHandling, options: IHttpRequestOptions): string | undefined {
	const mode = faultHandling.idempotency ?? 'derived';
	if (mode === 'off') return undefined;
	if (mode === 'derived') return deriveIdempotencyKey(options.method ?? 'GET', options.url, options.body, options.qs);
	const key = String(faultHandling.idempotencyKey ?? '').trim();
	if (key === '' || key.length > 255) throw invalidInput(ctx, 'Idempotency Key', key === '' ? 'is empty' : `is ${key.length} characters long, at most 255 are allowed`);
	return key;
}

async function listLimit(ctx: IExecutePaginationFunctions): Promise<number> {
	if (ctx.getNodeParameter('returnAll', false) as boolean) return Infinity;
	const limit = ctx.getNodeParameter('limit', 50) as number;
	if (!Number.isInteger(limit) || limit < 1) throw invalidInput(ctx, 'Limit', `${quoted(limit)} is not a whole number of at least 1`);
	return limit;
}

function asList(body: unknown): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	return [body && typeof body === 'object' ? (body as IDataObject) : { response: body ?? null }];
}

/**
 * The request step of every operation (declared as the routing's pagination function): retries,
 * paging (`paged`: the list takes limit/offset), idempotency, error mapping and item pairing,
 * shared by every resource.
 */
export function perform(kind: OperationKind, shape?: Shaper, paged = false) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		const node = this.getNode();
		const faultHandling = this.getNodeParameter('faultHandling', {}) as FaultHandling;
		const options = requestData.options as IHttpRequestOptions;
		options.baseURL = checkedBaseUrl(node, options.baseURL, itemIndex).href.replace(/\/+$/, '');
		const idempotencyKey = kind === 'write' ? idempotencyKeyFor(this, faultHandling, options) : undefined;
		if (idempotencyKey) options.headers = { ...options.headers, [IDEMPOTENCY_HEADER]: idempotencyKey };
		const credentials = await this.getCredentials<{ apiKey?: string }>(CREDENTIAL_TYPE);
		const session: Session = {
			ctx: this,
			node,
			itemIndex,
			secret: credentials.apiKey,
			retry: retrySettings(this, faultHandling),
			safeToRepeat: kind !== 'write' || idempotencyKey !== undefined,
		};
		const results =
			kind === 'list'
				? await collectPages(session, options, await listLimit(this), paged)
				: asList(await sendWithRetries(session, options));
		const pairedItem = { item: itemIndex };
		const shapeResult = shape?.call(this);
		return results.map((result) => ({
			json: shapeResult ? shapeResult(result) : result,
			pairedItem,
		}));
	};
}
