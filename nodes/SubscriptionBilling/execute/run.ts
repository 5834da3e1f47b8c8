import {
	NodeOperationError,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INode,
	type INodeExecutionData,
	type NodeApiError,
	type PreSendAction,
} from 'n8n-workflow';
import { asNodeError, errorFieldsOf } from '../shared/apiError';
import { runAsTool } from '../shared/invalidInput';
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
	const executeData = ctx.getExecuteData();
	const size = executeData ? runSize(executeData) : 0;
	if (size < 2) return undefined;
	let gate = gates.get(executeData);
	if (!gate || gate.has(itemIndex)) {
		gate = new RunGate(size);
		gates.set(executeData, gate);
	}
	return gate;
}

/** How many input items the run over this execute data has. */
export function runSize(executeData: object): number {
	const inputs = (executeData as { data?: Record<string, unknown[][] | undefined> }).data;
	const items = inputs?.main?.[0] ?? inputs?.ai_tool?.[0];
	return Array.isArray(items) ? items.length : 0;
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
