import {
	deepCopy,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INodeParameters,
	type INodeProperties,
	type PreSendAction,
} from 'n8n-workflow';
import { wait } from '../shared/retry';
import { runSize, type RunGate } from './run';
import { batchSettings, type BatchSettings } from './settings';

/**
 * Request Options > Batching. n8n's RoutingNode starts the items of a run batch by batch, an
 * interval apart, and composes each item's request (its routed parameters) only when it starts
 * the item. A run is all or nothing (RunGate, run.ts): no item is sent before every item has
 * passed its checks. So that the spacing is taken once, not once by n8n and again after the last
 * item, the first item checks every other item before it is sent (`checkAhead`): it composes each
 * item's request as RoutingNode does, from the parameters' routing, with the parameters resolved
 * for that item, and runs the item's checks on it. The items are then sent as n8n starts them.
 */

/**
 * What checking an item ahead costs, about (n8n evaluating its mapped fields once more: 0.1–0.2 ms
 * an item with two mapped fields, measured on the benchmark's machine).
 */
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
		const executeData = this.getExecuteData();
		if (
			this.getItemIndex() === 0 &&
			executeData &&
			checksAhead(validBatch(this), runSize(executeData))
		)
			composedFirst.set(executeData, { request: deepCopy(options), properties });
		return options;
	};
}

/** A parameter RoutingNode sends: where it is read and where it goes. */
interface Routed {
	path: string;
	property: INodeProperties;
	to: 'body' | 'qs';
	field: string;
	dotted: boolean;
}

/** Whether a property is shown, for display options on parameters at the top level; undefined for any other kind. */
function shown(property: INodeProperties, parameters: INodeParameters): boolean | undefined {
	const { show = {}, hide = {}, ...other } = property.displayOptions ?? {};
	const names = [...Object.keys(show), ...Object.keys(hide)];
	if (
		Object.keys(other).length > 0 ||
		names.some((name) => name.startsWith('@') || name.startsWith('/'))
	)
		return undefined;
	const has = (values: unknown[] | undefined, name: string) =>
		(values ?? []).includes(parameters[name]);
	return (
		Object.entries(show).every(([name, values]) => has(values, name)) &&
		!Object.entries(hide).some(([name, values]) => has(values, name))
	);
}

const routing = new WeakMap<INodeProperties, boolean>();

/** Whether RoutingNode sends anything for the property or a field within it. */
function routes(property: INodeProperties): boolean {
	let found = routing.get(property);
	if (found === undefined) {
		found = JSON.stringify(property).includes('"routing"');
		routing.set(property, found);
	}
	return found;
}

/**
 * The parameters RoutingNode sends for these parameter values, or undefined where its routing
 * uses what this composition does not (a computed value or field name, a list of values).
 */
function routedParameters(
	properties: INodeProperties[],
	parameters: INodeParameters,
	values: unknown,
	base = '',
): Routed[] | undefined {
	const routed: Routed[] = [];
	for (const property of properties) {
		if (!routes(property)) continue;
		const isShown =
			base === ''
				? shown(property, parameters)
				: property.displayOptions === undefined
					? true
					: undefined;
		if (isShown === undefined) return undefined;
		if (!isShown) continue;
		const path = `${base}${property.name}`;
		const send = property.routing?.send;
		if (send?.property !== undefined) {
			if (send.value !== undefined || String(send.property).startsWith('=')) return undefined;
			routed.push({
				path,
				property,
				to: send.type === 'query' ? 'qs' : 'body',
				field: String(send.property),
				dotted: send.propertyInDotNotation !== false,
			});
		}
		if (property.type === 'collection') {
			const present = (values as IDataObject | undefined)?.[property.name];
			const options = (property.options as INodeProperties[]).filter(
				(option) => present && typeof present === 'object' && option.name in present,
			);
			const inner = routedParameters(options, parameters, present, `${path}.`);
			if (!inner) return undefined;
			routed.push(...inner);
		} else if (property.type === 'fixedCollection') {
			return undefined;
		}
	}
	return routed;
}

function put(target: IDataObject, field: string, dotted: boolean, value: unknown): void {
	const path = dotted ? field.split('.') : [field];
	let at = target;
	for (const key of path.slice(0, -1)) {
		if (!at[key] || typeof at[key] !== 'object') at[key] = {};
		at = at[key] as IDataObject;
	}
	at[path[path.length - 1]] = value as IDataObject[string];
}

function compose(
	ctx: IExecuteSingleFunctions,
	routed: Routed[],
	first: IHttpRequestOptions,
): IHttpRequestOptions {
	const body: IDataObject = {};
	const qs: IDataObject = {};
	for (const { path, property, to, field, dotted } of routed) {
		const extractValue = property.extractValue !== undefined || property.type === 'resourceLocator';
		put(
			to === 'qs' ? qs : body,
			field,
			dotted,
			ctx.getNodeParameter(path, undefined, { extractValue }),
		);
	}
	return { ...first, headers: { ...first.headers }, body, qs };
}

function same(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (
		!a ||
		!b ||
		typeof a !== 'object' ||
		typeof b !== 'object' ||
		Array.isArray(a) !== Array.isArray(b)
	)
		return false;
	const keys = Object.keys(a);
	if (keys.length !== Object.keys(b).length) return false;
	return keys.every((key) => key in b && same((a as IDataObject)[key], (b as IDataObject)[key]));
}

/** The context of another item of the run: n8n's item contexts resolve parameters and input for their `itemIndex`. */
function itemContext(
	ctx: IExecutePaginationFunctions,
	itemIndex: number,
): IExecutePaginationFunctions | undefined {
	const other = Object.create(ctx, {
		itemIndex: { value: itemIndex },
	}) as IExecutePaginationFunctions;
	return other.getItemIndex() === itemIndex ? other : undefined;
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
	const executeData = ctx.getExecuteData();
	const composed = executeData && composedFirst.get(executeData);
	if (!composed) return undefined;
	composedFirst.delete(executeData);
	const { request: first, properties } = composed;
	const node = ctx.getNode();
	const routed = routedParameters(properties, node.parameters, node.parameters);
	if (!routed || !itemContext(ctx, 0)) return undefined;
	const asComposed = compose(ctx, routed, first);
	if (!same(asComposed.body, first.body ?? {}) || !same(asComposed.qs, first.qs ?? {}))
		return undefined;
	return checkEvery(gate, routed, first, requestData, check, ctx);
}

async function checkEvery(
	gate: RunGate,
	routed: Routed[],
	first: IHttpRequestOptions,
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
			options = compose(other, routed, first);
			for (const step of requestData.preSend) options = await step.call(other, options);
		} catch (error) {
			failures.set(itemIndex, error);
			continue;
		}
		failures.set(itemIndex, await check(other, options));
	}
	gate.checkedAhead(failures);
}
