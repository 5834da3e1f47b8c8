import {
	deepCopy,
	type DeclarativeRestApiSettings,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodeProperties,
	type PreSendAction,
} from 'n8n-workflow';
import { wait } from '../shared/retry';
import {
	itemContext,
	requestComposer,
	runOf,
	runSize,
	type RequestComposer,
} from './n8nRoutingInsides';
import type { RunGate } from './runGate';
import { batchSettings, type BatchSettings } from './settings';

/**
 * Request Options > Batching. n8n's RoutingNode starts the items of a run batch by batch, an
 * interval apart, and composes each item's request only when it starts the item. A run is all or
 * nothing (runGate.ts): no item is sent before every item has passed its checks. So that the
 * spacing is taken once, the first item checks every other item before it is sent (`checkAhead`),
 * composing each item's request as RoutingNode would (n8nRoutingInsides.ts); the items are then
 * sent as n8n starts them. Why, and what it costs: docs/api-assumptions.md.
 */

/** What checking an item ahead costs, about (n8n evaluating its mapped fields once more). */
const CHECK_AHEAD_MS_PER_ITEM = 0.25;

/**
 * Whether the first item checks the others ahead: n8n spaces the run's items (an interval, more
 * items than one batch holds), and the spacing that checking ahead saves (the interval for every
 * batch) is more than the checking costs (every item). Otherwise the gate holds the items and
 * spaces them again from the last check, which then costs less than checking ahead.
 */
function checksAhead({ size, interval }: BatchSettings, items: number): boolean {
	const perBatch = Math.max(size, 1);
	return interval > 0 && items > perBatch && interval / perBatch >= CHECK_AHEAD_MS_PER_ITEM;
}

/** Each run's batching, read once. */
const gateSettings = new WeakMap<RunGate, BatchSettings>();

/**
 * When the items could not be checked ahead: the gate held every item until the last batch had
 * been checked; the items then keep the same spacing from there.
 */
export async function waitForBatch(
	ctx: IExecutePaginationFunctions,
	itemIndex: number,
	gate: RunGate,
): Promise<void> {
	let settings = gateSettings.get(gate);
	if (!settings) gateSettings.set(gate, (settings = batchSettings(ctx)));
	const { size, interval } = settings;
	if (!(interval > 0)) return;
	const batchIndex = size > 0 ? Math.floor(itemIndex / size) : itemIndex;
	if (batchIndex > 0) await wait(batchIndex * interval, ctx.getExecutionCancelSignal());
}

/** Batching not valid is not checked ahead: the item's own checks refuse it, naming the field. */
function validBatch(ctx: IExecuteSingleFunctions): BatchSettings {
	try {
		return batchSettings(ctx);
	} catch {
		return { size: 0, interval: 0 };
	}
}

/** By run: the first item's request as RoutingNode composed it, before any preSend step, and the node's properties. */
const composedFirst = new WeakMap<
	object,
	{ request: IHttpRequestOptions; properties: INodeProperties[] }
>();

/**
 * The first preSend step of a node with these properties: keeps the first item's request as
 * RoutingNode composed it when the run is checked ahead.
 */
export function keepComposed(properties: INodeProperties[]): PreSendAction {
	return async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions) {
		const run = runOf(this);
		if (this.getItemIndex() === 0 && run && checksAhead(validBatch(this), runSize(run)))
			composedFirst.set(run, { request: deepCopy(options), properties });
		return options;
	};
}

/** An item's checks on its request: the preSend steps, then the request step's own (perform.ts); the failure, if any. */
export type ItemCheck = (
	ctx: IExecutePaginationFunctions,
	options: IHttpRequestOptions,
) => Promise<unknown>;

/**
 * Run by the first item of a spaced run: checks every other item before n8n starts it, and gives
 * the gate every item's outcome. Where the run's requests cannot be composed here as RoutingNode
 * composed the first one, nothing is checked ahead and the gate holds the items as before.
 */
export function checkAhead(
	ctx: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	gate: RunGate,
	check: ItemCheck,
): Promise<void> | undefined {
	const run = runOf(ctx);
	const composed = run && composedFirst.get(run);
	if (!composed) return undefined;
	composedFirst.delete(run);
	const compose =
		itemContext(ctx, 0) && requestComposer(ctx, composed.properties, composed.request);
	if (!compose) return undefined;
	return checkEvery(gate, compose, requestData, check, ctx);
}

async function checkEvery(
	gate: RunGate,
	compose: RequestComposer,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	check: ItemCheck,
	ctx: IExecutePaginationFunctions,
): Promise<void> {
	const failures = new Map<number, unknown>();
	for (let itemIndex = 1; itemIndex < gate.size; itemIndex++) {
		if (gate.has(itemIndex)) continue;
		const other = itemContext(ctx, itemIndex) as IExecutePaginationFunctions;
		let options: IHttpRequestOptions;
		try {
			options = compose(other);
			for (const step of requestData.preSend) options = await step.call(other, options);
		} catch (error) {
			failures.set(itemIndex, error);
			continue;
		}
		failures.set(itemIndex, await check(other, options));
	}
	gate.checkedAhead(failures);
}
