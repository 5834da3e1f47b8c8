import {
	NodeOperationError,
	deepCopy,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeProperties,
	type NodeApiError,
	type PreSendAction,
} from 'n8n-workflow';
import { asNodeError, errorFieldsOf } from '../shared/apiError';
import { runAsTool } from '../shared/invalidInput';
import { wait } from '../shared/retry';
import { NotSentError } from '../shared/transport';

/** What became of an item that passed its checks. */
type Outcome = 'applied' | 'failed' | 'notSent';

/**
 * One run of the node over its input items, without Continue On Fail. n8n's declarative engine
 * starts every item's request at once and keeps no result of a run that fails, so a run is all or
 * nothing as far as the user can see. The gate makes what is sent match that:
 * - no item is sent before every item has passed its checks; one invalid item stops the run with
 *   nothing sent (`whenChecked`);
 * - once an item has failed at the API, items not yet sent are not sent (`mayStart`), and the
 *   error waits for every item's outcome to say which were applied (`whenSettled`).
 */
export class RunGate {
	private readonly arrived = new Set<number>();
	private readonly checks = new Map<number, unknown>();
	/** Every item was checked before n8n started it (batching: checkAhead): the items are sent as n8n starts them. */
	checkedBeforeStart = false;
	/** The failed checks by item index, kept once every item is checked: each of the run's items asks. */
	private invalid?: Array<[number, unknown]>;
	private readonly outcomes = new Map<number, Outcome>();
	private readonly reasons = new Map<number, unknown>();
	/** The items by outcome, kept once every item has one: each item of a failed run asks. */
	private byOutcome?: Map<Outcome, number[]>;
	private started!: () => void;
	private checked!: () => void;
	private settled!: () => void;
	private readonly allStarted = new Promise<void>((resolve) => (this.started = resolve));
	private readonly allChecked = new Promise<void>((resolve) => (this.checked = resolve));
	private readonly allSettled = new Promise<void>((resolve) => (this.settled = resolve));
	private failedAtApi = false;

	constructor(readonly size: number) {}

	/** Whether the item already passed this gate: a new run of the same node (n8n's Retry On Fail) has begun. */
	has(itemIndex: number): boolean {
		return this.arrived.has(itemIndex);
	}

	/** Records the item's checks (the error when they failed), unless checked ahead, and waits for every item's. */
	async whenChecked(itemIndex: number, failure: unknown): Promise<void> {
		this.arrived.add(itemIndex);
		if (this.arrived.size === this.size) this.started();
		if (!this.checks.has(itemIndex)) this.checks.set(itemIndex, failure);
		if (this.checks.size === this.size) this.checked();
		await this.allChecked;
	}

	/** Records the checks of the items n8n has not started yet, made ahead by the first item. */
	checkedAhead(failures: Map<number, unknown>): void {
		for (const [itemIndex, failure] of failures)
			if (!this.checks.has(itemIndex)) this.checks.set(itemIndex, failure);
		this.checkedBeforeStart = true;
	}

	/**
	 * Waits until n8n has started every item. An item must not fail before: n8n sleeps between
	 * batches before it awaits the items' requests, and a rejection meanwhile goes unhandled.
	 */
	async whenStarted(): Promise<void> {
		await this.allStarted;
	}

	/** The items whose checks failed, by index, with their errors. */
	invalidItems(): Array<[number, unknown]> {
		if (this.invalid) return this.invalid;
		const invalid = [...this.checks]
			.filter(([, failure]) => failure !== undefined)
			.sort(([a], [b]) => a - b);
		if (this.checks.size === this.size) this.invalid = invalid;
		return invalid;
	}

	/** Whether an item may send its first request: not once another item has failed at the API. */
	mayStart(): boolean {
		return !this.failedAtApi;
	}

	/** No item sends its first request from now on. */
	stopSending(): void {
		this.failedAtApi = true;
	}

	/** Records what became of the item; `reason`: the error of an item that failed. */
	record(itemIndex: number, outcome: Outcome, reason?: unknown): void {
		if (outcome === 'failed') {
			this.stopSending();
			this.reasons.set(itemIndex, reason);
		}
		this.outcomes.set(itemIndex, outcome);
		if (this.outcomes.size === this.size) this.settled();
	}

	/** Waits until every item has an outcome; each one's requests end within their own time limits. */
	async whenSettled(): Promise<void> {
		await this.allSettled;
	}

	/** The error the item failed with. */
	reasonOf(itemIndex: number): unknown {
		return this.reasons.get(itemIndex);
	}

	/** The indexes of the items with this outcome, in order. */
	itemsWith(outcome: Outcome): readonly number[] {
		if (this.outcomes.size < this.size) return this.grouped().get(outcome) ?? [];
		this.byOutcome ??= this.grouped();
		return this.byOutcome.get(outcome) ?? [];
	}

	private grouped(): Map<Outcome, number[]> {
		const groups = new Map<Outcome, number[]>();
		for (const [index, outcome] of this.outcomes) {
			const group = groups.get(outcome);
			if (group) group.push(index);
			else groups.set(outcome, [index]);
		}
		for (const group of groups.values()) group.sort((a, b) => a - b);
		return groups;
	}
}

const gates = new WeakMap<object, RunGate>();

/**
 * The gate of the run the item belongs to, or none when the item is on its own (one input item,
 * or Continue On Fail, where every item gets its own result). The items of a run share the
 * engine's execute data.
 */
export function runGateOf(
	ctx: IExecutePaginationFunctions,
	itemIndex: number,
): RunGate | undefined {
	if (ctx.continueOnFail()) return undefined;
	const executeData = ctx.getExecuteData() as
		| { data?: Record<string, unknown[][] | undefined> }
		| undefined;
	const inputs = executeData?.data;
	const items = inputs?.main?.[0] ?? inputs?.ai_tool?.[0];
	if (!executeData || !Array.isArray(items) || items.length < 2) return undefined;
	let gate = gates.get(executeData);
	if (!gate || gate.has(itemIndex)) {
		gate = new RunGate(items.length);
		gates.set(executeData, gate);
	}
	return gate;
}

/**
 * Request Options > Batching. n8n's RoutingNode starts the items of a run batch by batch, an
 * interval apart, and composes each item's request (its routed parameters) only when it starts
 * the item. A run is all or nothing (the gate above): no item is sent before every item has passed
 * its checks. So that the spacing is taken once, not once by n8n and again after the last item,
 * the first item checks every other item before it is sent (`checkAhead`): it composes each
 * item's request as RoutingNode does, from the parameters' routing, with the parameters resolved
 * for that item, and runs the item's checks on it. The items are then sent as n8n starts them.
 */

interface BatchSettings {
	size: number;
	interval: number;
}

function batchSettings(ctx: IExecuteSingleFunctions): BatchSettings {
	const { batching } = ctx.getNodeParameter('requestOptions', {}) as {
		batching?: { batch?: { batchSize?: number; batchInterval?: number } };
	};
	return { size: batching?.batch?.batchSize ?? 0, interval: batching?.batch?.batchInterval ?? 0 };
}

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

/** The node's properties, whose routing RoutingNode composes requests from. */
let nodeProperties: INodeProperties[] = [];

export function composeFrom(properties: INodeProperties[]): void {
	nodeProperties = properties;
}

/** The first item's request as RoutingNode composed it, before any preSend step, by run. */
const composedFirst = new WeakMap<object, IHttpRequestOptions>();

/** The first preSend step: keeps the first item's request as RoutingNode composed it when the run is checked ahead. */
export const keepComposed: PreSendAction = async function (
	this: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
) {
	const executeData = this.getExecuteData();
	if (
		this.getItemIndex() === 0 &&
		executeData &&
		checksAhead(batchSettings(this), runSize(executeData))
	)
		composedFirst.set(executeData, deepCopy(options));
	return options;
};

function runSize(executeData: object): number {
	const inputs = (executeData as { data?: Record<string, unknown[][] | undefined> }).data;
	const items = inputs?.main?.[0] ?? inputs?.ai_tool?.[0];
	return Array.isArray(items) ? items.length : 0;
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
	const first = executeData && composedFirst.get(executeData);
	if (!first) return undefined;
	composedFirst.delete(executeData);
	const node = ctx.getNode();
	const routed = routedParameters(nodeProperties, node.parameters, node.parameters);
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

/** How many invalid items an error lists one by one. */
const LISTED = 10;

/** Item indexes as ranges: "0–2, 5". */
export function itemList(indexes: readonly number[]): string {
	const ranges: string[] = [];
	for (let i = 0; i < indexes.length; i++) {
		let end = i;
		while (end + 1 < indexes.length && indexes[end + 1] === indexes[end] + 1) end++;
		ranges.push(end === i ? String(indexes[i]) : `${indexes[i]}–${indexes[end]}`);
		i = end;
	}
	return ranges.join(', ');
}

function items(indexes: readonly number[]): string {
	return `${indexes.length === 1 ? 'item' : 'items'} ${itemList(indexes)}`;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/**
 * The error of a run stopped before sending because some of its items did not pass their checks.
 * A problem said alike for several items (a setting's, or the same value from an expression) is
 * said once, with the items it applies to.
 */
export function invalidRun(
	node: INode,
	invalid: Array<[number, unknown]>,
	size: number,
): NodeOperationError {
	const first = messageOf(invalid[0][1]);
	const others = invalid.filter(([, error]) => messageOf(error) !== first).map(([index]) => index);
	const message =
		others.length === 0 ? first : `${first} (and ${others.length} more invalid: ${items(others)})`;
	const byProblem = new Map<string, Array<[number, string]>>();
	for (const [index, error] of invalid) {
		const said = messageOf(error);
		const problem = said.replace(/ in item \d+:/, ':');
		byProblem.set(problem, [...(byProblem.get(problem) ?? []), [index, said]]);
	}
	const listed = [...byProblem]
		.slice(0, LISTED)
		.map(([problem, each]) =>
			each.length === 1 ? each[0][1] : `${problem} (${items(each.map(([index]) => index))})`,
		);
	if (byProblem.size > LISTED) listed.push(`… ${byProblem.size - LISTED} more`);
	const which = others.length === 0 ? '' : ` Invalid: ${listed.join('; ')}.`;
	return new NodeOperationError(node, message, {
		itemIndex: invalid[0][0],
		description: `Nothing was sent to the API for any of the ${size} items: every item is checked before the first request.${which} Correct the ${byProblem.size === 1 ? 'value' : 'values'} and run again.`,
	});
}

/** What running the node again does to the items a failed run applied: the same writes are applied again. */
export const APPLIED_AGAIN = (count: number) =>
	`running the node again applies ${count === 1 ? 'it' : 'them'} again`;

/** The run's other failed items with their reasons: "items 3, 5 failed too (item 3: ERR_…; item 5: …)". */
function alsoFailed(gate: RunGate, others: readonly number[]): string {
	const reasons = others
		.slice(0, LISTED)
		.map((index) => `item ${index}: ${messageOf(gate.reasonOf(index))}`);
	if (others.length > LISTED) reasons.push(`… ${others.length - LISTED} more`);
	return `${items(others)} failed too (${reasons.join('; ')})`;
}

/**
 * The error of a run in which the API refused items, said by the first of them (the one n8n
 * shows): the message counts the others, the description gives each one's reason and, for a write
 * (`again`: what running the node again does to an applied item), which items were applied and
 * which not sent.
 */
export function failedRun(
	error: NodeApiError | NodeOperationError,
	gate: RunGate,
	failedIndex: number,
	again?: (count: number) => string,
): void {
	const others = gate.itemsWith('failed').filter((index) => index !== failedIndex);
	if (others.length > 0) {
		const shown =
			others.length > LISTED ? `${itemList(others.slice(0, LISTED))}, …` : itemList(others);
		error.message = `${error.message} (and ${others.length} more failed: ${others.length === 1 ? 'item' : 'items'} ${shown})`;
	}
	const applied = gate.itemsWith('applied');
	const notSent = gate.itemsWith('notSent');
	const parts = [
		again === undefined
			? undefined
			: applied.length > 0
				? `${items(applied)} ${applied.length === 1 ? 'was' : 'were'} applied by the API (${again(applied.length)})`
				: 'no other item was applied',
		others.length > 0 ? alsoFailed(gate, others) : undefined,
		again !== undefined && notSent.length > 0
			? `${items(notSent)} ${notSent.length === 1 ? 'was' : 'were'} not sent`
			: undefined,
	].filter((part): part is string => part !== undefined);
	if (parts.length === 0) return;
	error.description = withSentence(
		error.description,
		`Of the run's ${gate.size} items, ${parts.join('; ')}. Without Continue On Fail, n8n keeps no result of a run that fails: to get one result per item, set Settings > On Error to Continue (using error output).`,
	);
}

/** A description with one more sentence. */
export function withSentence(description: string | null | undefined, sentence: string): string {
	const text = (description ?? '').trim();
	if (text === '') return sentence;
	return `${text}${/[.!?]$/.test(text) ? '' : '.'} ${sentence}`;
}

/**
 * The error of an item held back after the run stopped sending, when no item failed after all (a
 * write that failed for good is the item's failure): the run must not look complete without it.
 */
export function notSentAlone(node: INode, itemIndex: number): NodeOperationError {
	return new NodeOperationError(node, `Item ${itemIndex} was not sent`, {
		itemIndex,
		description:
			'The run stopped sending after a request failed, and no item reported the failure. Nothing is lost silently: run the node again.',
	});
}

/** Whether the request was held back (the run had failed) before anything of it was sent. */
export function wasNotSent(error: unknown): boolean {
	return (
		error instanceof NotSentError ||
		(error as { cause?: unknown } | undefined)?.cause instanceof NotSentError
	);
}

/**
 * The error an item fails with. Run as a tool, n8n appends the description to the message
 * ("Details: …") and still shows the description, so it would be said twice: the message carries
 * it instead (which also gives an agent reading only the message what to check).
 */
export function failure(
	ctx: IExecuteSingleFunctions | IExecutePaginationFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	const nodeError = asNodeError(ctx.getNode(), error, itemIndex);
	if (
		!runAsTool(ctx) ||
		!nodeError.description ||
		nodeError.message.includes(nodeError.description)
	)
		return nodeError;
	nodeError.message = `${nodeError.message.replace(/\.?$/, '.')} ${nodeError.description}`;
	nodeError.description = null;
	return nodeError;
}

/**
 * The item a failed input item becomes when the node continues on fail (either output). n8n's
 * engine replaces the JSON of any item carrying an `error` object with the message alone, and it
 * routes to the error output only items whose JSON is `{ error }`; so everything lives under
 * `error`: n8n's message and description, and the API's code, HTTP status, error id and message.
 */
export function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const { message, description } = error as { message?: unknown; description?: unknown };
	return {
		json: {
			error: {
				message: typeof message === 'string' ? message : String(error),
				description: typeof description === 'string' ? description : null,
				...errorFieldsOf(error),
			},
		},
		pairedItem: { item: itemIndex },
	};
}

const DEFERRED = '__subscriptionBillingCheckFailed';

/**
 * A check that failed before the request (preSend) is kept on the request, and the later checks are
 * skipped: the request step (perform.ts) then fails the item itself, so that a failed check stops
 * the whole run before anything is sent (RunGate), and on Continue On Fail gives the same error
 * item as an API error (n8n's own would carry the message only).
 */
export function deferFailures(steps: PreSendAction[]): PreSendAction[] {
	return steps.map(
		(step) =>
			async function (
				this: IExecuteSingleFunctions,
				options: IHttpRequestOptions,
			): Promise<IHttpRequestOptions> {
				if (DEFERRED in options) return options;
				try {
					return await step.call(this, options);
				} catch (error) {
					return Object.assign(options, { [DEFERRED]: error });
				}
			},
	);
}

/** Throws the failure a check kept on the request, if any. */
export function throwDeferred(options: IHttpRequestOptions): void {
	if (!(DEFERRED in options)) return;
	const failure = (options as unknown as Record<string, unknown>)[DEFERRED];
	delete (options as unknown as Record<string, unknown>)[DEFERRED];
	throw failure;
}
