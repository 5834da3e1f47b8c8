import {
	NodeApiError,
	NodeOperationError,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IHttpRequestOptions,
	type INode,
	type INodeExecutionData,
} from 'n8n-workflow';
import { credentialBaseUrl, runCredentials, apiBaseUrl } from '../shared/apiCredentials';
import { IDEMPOTENCY_HEADER } from '../shared/constants';
import { runGateOf, throwDeferred, type RunGate } from './runGate';
import {
	APPLIED_AGAIN,
	failedRun,
	invalidRun,
	notSentAlone,
	wasNotSent,
	withSentence,
} from './runErrors';
import { errorItem, failure } from './itemFailure';
import { checkAhead, waitForBatch } from './checkAhead';
import { runIndexOf } from './n8nRoutingInsides';
import { unknownIdStep } from '../shared/idChecks';
import { invalidInput, quoted } from '../shared/invalidInput';
import {
	findInList,
	type ListLookup,
	createOrUpdate,
	type Upsert,
	type WriteKey,
} from './composite';
import { collectPages } from '../shared/pagination';
import { itemSettings, type Idempotency } from './settings';
import { sendWithRetries, type Session } from '../shared/transport';

export type OperationKind = 'read' | 'write' | 'list';

/**
 * Prepares, once per input item, how each API result becomes the item's JSON (e.g. a delete's
 * `{deleted: true}`, or the chosen output mode).
 */
export type Shaper = (
	this: IExecutePaginationFunctions,
	request: IHttpRequestOptions,
) => (result: IDataObject) => IDataObject;

/** What one derived key stands for: one run of one node for one item, in one execution. */
export interface KeyScope {
	/** The execution, as it stays when n8n retries it (see executionIdentity). */
	execution: string;
	workflowId: string;
	node: string;
	runIndex: number;
	itemIndex: number;
}

/**
 * Which execution a write belongs to. n8n establishes an execution context once, when an
 * execution starts (its start time, mode and trigger node), and keeps it when the execution is
 * retried from the executions list, while the retry gets a new execution id. Scoping to the
 * context makes a retried execution send the keys of the attempt it retries. Without a context
 * (n8n releases before it existed), the execution id is used: a retried execution then sends new
 * keys.
 */
export function executionIdentity(ctx: IExecutePaginationFunctions): string {
	const context =
		typeof ctx.getExecutionContext === 'function' ? ctx.getExecutionContext() : undefined;
	if (context && typeof context.establishedAt === 'number') {
		const { establishedAt, source, triggerNode, parentExecutionId } = context;
		return `context ${establishedAt} ${source} ${triggerNode?.name ?? ''} ${parentExecutionId ?? ''}`;
	}
	return `execution ${ctx.getExecutionId()}`;
}

/** `node`: the context's node, as the caller already has it (getNode() copies the node each time). */
export function keyScope(ctx: IExecutePaginationFunctions, node: INode): KeyScope {
	return {
		execution: executionIdentity(ctx),
		workflowId: String(ctx.getWorkflow().id ?? ''),
		node: node.id || node.name,
		// Read from the context, n8n's proxy only where the context lacks it: a proxy per write costs.
		runIndex: runIndexOf(ctx) ?? Number(ctx.getWorkflowDataProxy(ctx.getItemIndex()).$runIndex),
		itemIndex: ctx.getItemIndex(),
	};
}

/**
 * A key for one write: the scope (execution, workflow, node, run, item) and the request (method,
 * path, query and body, keys sorted). Retries inside that run of the node for that item send the
 * same key, so the API applies the write once; another execution, run or item sends another key,
 * so a write asked for again is applied again. A custom key as the scope keys a second write of the
 * operation it was given for (see idempotencyKeyFor).
 */
export function deriveIdempotencyKey(
	scope: KeyScope | { customKey: string },
	options: Pick<IHttpRequestOptions, 'method' | 'url' | 'qs' | 'body'>,
): string {
	const { qs } = options;
	const hasQuery =
		qs !== undefined && qs !== null && typeof qs === 'object' && Object.keys(qs).length > 0;
	const request = `${(options.method ?? 'GET').toUpperCase()} ${options.url}${hasQuery ? `?${stableJson(qs)}` : ''} ${stableJson(options.body)}`;
	return 'n8n-' + hash(`${stableJson(scope)}\n${request}`);
}

function hash(text: string): string {
	const lanes = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b];
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		for (let lane = 0; lane < lanes.length; lane++) {
			lanes[lane] = Math.imul(lanes[lane] ^ code, 0x01000193 + lane * 0x2f);
			lanes[lane] ^= lanes[lane] >>> 15;
		}
	}
	return lanes.map((lane) => (lane >>> 0).toString(16).padStart(8, '0')).join('');
}

function stableJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.keys(value as object)
			.sort()
			.map(
				(key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`,
			);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/**
 * The key of one write. `second`: the second kind of write one operation can send (Create or
 * Update's update), which a custom key, given for the operation's first write, keys by a key
 * derived from it and the request.
 */
function idempotencyKeyFor(
	ctx: IExecutePaginationFunctions,
	node: INode,
	chosen: Idempotency,
	options: IHttpRequestOptions,
	second = false,
): string | undefined {
	if (chosen.mode === 'off') return undefined;
	if (chosen.mode === 'derived') return deriveIdempotencyKey(keyScope(ctx, node), options);
	return second ? deriveIdempotencyKey({ customKey: chosen.key }, options) : chosen.key;
}

async function listLimit(ctx: IExecutePaginationFunctions): Promise<number> {
	if (ctx.getNodeParameter('returnAll', false) as boolean) return Infinity;
	const limit = ctx.getNodeParameter('limit', 50) as number;
	if (!Number.isInteger(limit) || limit < 1)
		throw invalidInput(ctx, 'Limit', `${quoted(limit)} is not a whole number of at least 1`);
	return limit;
}

function asList(body: unknown): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	return [body && typeof body === 'object' ? (body as IDataObject) : { response: body ?? null }];
}

/**
 * What a write asked for again meets, when it is not applied again: Usage → Create's transaction
 * ID is refused the second time.
 */
export interface Again {
	/** What running the node again does to the items a failed run applied. */
	applied: (count: number) => string;
	/** For the API's refusal of a write made before (by an earlier run): the sentence saying so and what to use instead; undefined for any other. */
	madeBefore: (error: unknown, request: IHttpRequestOptions) => string | undefined;
}

/** Everything an item's requests need, made and checked before anything is sent. */
interface Prepared {
	options: IHttpRequestOptions;
	session: Session;
	limit: number;
	idempotency: Idempotency;
}

/**
 * The request step of every operation (declared as the routing's pagination function): retries,
 * paging (`paged`: the list takes limit/offset), a get by ID through a list (`lookup`), idempotency, error mapping and item pairing,
 * shared by every resource. Without Continue On Fail, the items of a run go through one gate
 * (runGate.ts): nothing is sent until every item has passed its checks.
 */
export function perform(
	kind: OperationKind,
	shape?: Shaper,
	paged = false,
	lookup?: ListLookup,
	upsert?: Upsert,
	again?: Again,
) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		let prepared: Prepared | undefined;
		let checkFailure: unknown;
		try {
			prepared = await prepare.call(this, requestData.options as IHttpRequestOptions, itemIndex);
		} catch (error) {
			checkFailure = error;
		}
		const gate = runGateOf(this, itemIndex);
		if (gate && !(await passGate.call(this, gate, requestData, checkFailure))) return [];
		try {
			if (checkFailure !== undefined) throw checkFailure;
			const results = await send.call(this, prepared as Prepared, gate);
			gate?.record(itemIndex, 'applied');
			const pairedItem = { item: itemIndex };
			return results.map((json) => ({ json, pairedItem }));
		} catch (error) {
			return await failed.call(this, error, prepared, gate);
		}
	};

	/**
	 * Waits at the run's gate until the item may be sent: every item checked (the first item
	 * checking the others ahead where it can), then the batch's spacing. False: the run stopped
	 * before sending and another item says why; the item whose check failed first throws it.
	 */
	async function passGate(
		this: IExecutePaginationFunctions,
		gate: RunGate,
		requestData: DeclarativeRestApiSettings.ResultOptions,
		checkFailure: unknown,
	): Promise<boolean> {
		const itemIndex = this.getItemIndex();
		const ahead = itemIndex === 0 ? checkAhead(this, requestData, gate, checkItem) : undefined;
		if (ahead) await ahead;
		await gate.whenChecked(itemIndex, checkFailure);
		const invalid = gate.invalidItems();
		if (invalid.length > 0) {
			await gate.whenStarted();
			if (invalid[0][0] === itemIndex) throw invalidRun(this.getNode(), invalid, gate.size);
			return false;
		}
		if (!gate.checkedBeforeStart) await waitForBatch(this, itemIndex, gate);
		return true;
	}

	/**
	 * What the item gives when its checks or its requests failed: its error item on Continue On
	 * Fail; otherwise its error, which in a run waits for every item's outcome to say what was applied.
	 */
	async function failed(
		this: IExecutePaginationFunctions,
		error: unknown,
		prepared: Prepared | undefined,
		gate: RunGate | undefined,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		const nextStep =
			prepared &&
			(again?.madeBefore(error, prepared.options) ?? unknownIdStep(this, error, prepared.options));
		if (nextStep && (error instanceof NodeApiError || error instanceof NodeOperationError))
			error.description = withSentence(error.description, nextStep);
		if (this.continueOnFail()) return [errorItem(error, itemIndex)];
		if (gate && wasNotSent(error)) {
			gate.record(itemIndex, 'notSent');
			await gate.whenSettled();
			// The run fails on the item that stopped it, whose error says what was applied.
			if (gate.itemsWith('failed').length > 0) return [];
			throw notSentAlone(this.getNode(), itemIndex);
		}
		const nodeError = failure(this, error, itemIndex);
		if (!gate) throw nodeError;
		gate.record(itemIndex, 'failed', nodeError);
		await gate.whenSettled();
		// n8n shows the error of the run's first failed item: it speaks for the others.
		if (gate.itemsWith('failed')[0] === itemIndex)
			failedRun(
				nodeError,
				gate,
				itemIndex,
				kind === 'write' ? (again?.applied ?? APPLIED_AGAIN) : undefined,
			);
		throw nodeError;
	}

	/** The checks of another item of the run, made by the first before n8n starts it (batching, checkAhead.ts). */
	async function checkItem(
		this: void,
		ctx: IExecutePaginationFunctions,
		options: IHttpRequestOptions,
	): Promise<unknown> {
		try {
			await prepare.call(ctx, options, ctx.getItemIndex());
			return undefined;
		} catch (error) {
			return error;
		}
	}

	async function prepare(
		this: IExecutePaginationFunctions,
		options: IHttpRequestOptions,
		itemIndex: number,
	): Promise<Prepared> {
		const node = this.getNode();
		throwDeferred(options);
		const settings = itemSettings(this, kind === 'write');
		const credentials = await runCredentials(this);
		options.baseURL = apiBaseUrl(node, credentialBaseUrl(credentials), itemIndex);
		const idempotencyKey =
			kind === 'write' ? idempotencyKeyFor(this, node, settings.idempotency, options) : undefined;
		// Create or Update keys each of its writes when it sends it; the check above refused a bad custom key before anything is sent.
		if (idempotencyKey && !upsert)
			options.headers = { ...options.headers, [IDEMPOTENCY_HEADER]: idempotencyKey };
		const session: Session = {
			ctx: this,
			node,
			itemIndex,
			secret: credentials.apiKey,
			retry: settings.retry,
			safeToRepeat: kind !== 'write' || idempotencyKey !== undefined,
			maxConcurrent: settings.maxConcurrent,
		};
		const limit = kind === 'list' ? await listLimit(this) : Infinity;
		return { options, session, limit, idempotency: settings.idempotency };
	}

	/** Sends the item's requests; gives the item's output, shaped. */
	async function send(
		this: IExecutePaginationFunctions,
		{ options, session, limit, idempotency }: Prepared,
		gate: RunGate | undefined,
	): Promise<IDataObject[]> {
		if (gate) session.mayStart = () => gate.mayStart();
		// A single write that failed for good fails its item: the run stops sending. A read may still
		// recover (a refused page size), and so may Create or Update (a create refused, then an update).
		if (gate && kind === 'write' && !upsert) session.onGiveUp = () => gate.stopSending();
		const shapeResult = shape?.call(this, options) ?? ((result: IDataObject) => result);
		if (upsert) {
			const node = this.getNode();
			const keyFor: WriteKey = (request, write, after) => {
				const key = idempotencyKeyFor(this, node, idempotency, request, write === 'update');
				return key && after
					? deriveIdempotencyKey({ customKey: `${key} after ${after}` }, request)
					: key;
			};
			const { record, action } = await createOrUpdate(this, session, options, upsert, keyFor);
			return [{ ...shapeResult(record), action }];
		}
		const results = lookup
			? [await findInList(this, session, options, lookup)]
			: kind === 'list'
				? await collectPages(session, options, limit, paged)
				: asList(await sendWithRetries(session, options));
		return results.map(shapeResult);
	}
}
