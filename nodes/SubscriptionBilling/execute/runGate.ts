import type {
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	PreSendAction,
} from 'n8n-workflow';
import {
	keepWithRequest,
	keptWithRequest,
	runOf,
	runSize,
	takeFromRequest,
} from './n8nRoutingInsides';

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
 * or Continue On Fail, where every item gets its own result).
 */
export function runGateOf(
	ctx: IExecutePaginationFunctions,
	itemIndex: number,
): RunGate | undefined {
	if (ctx.continueOnFail()) return undefined;
	const run = runOf(ctx);
	const size = run ? runSize(run) : 0;
	if (!run || size < 2) return undefined;
	let gate = gates.get(run);
	if (!gate || gate.has(itemIndex)) {
		gate = new RunGate(size);
		gates.set(run, gate);
	}
	return gate;
}

/**
 * A check that failed before the request (preSend) is kept with the request, and the later checks
 * are skipped: the request step (perform.ts) then fails the item itself, so that a failed check
 * stops the whole run before anything is sent (RunGate), and on Continue On Fail gives the same
 * error item as an API error (n8n's own would carry the message only).
 */
export function deferFailures(steps: PreSendAction[]): PreSendAction[] {
	return steps.map(
		(step) =>
			async function (
				this: IExecuteSingleFunctions,
				options: IHttpRequestOptions,
			): Promise<IHttpRequestOptions> {
				if (keptWithRequest(options)) return options;
				try {
					return await step.call(this, options);
				} catch (error) {
					return keepWithRequest(options, { failure: error });
				}
			},
	);
}

/** Throws the failure a check kept with the request, if any. */
export function throwDeferred(options: IHttpRequestOptions): void {
	const kept = takeFromRequest(options) as { failure: unknown } | undefined;
	if (kept) throw kept.failure;
}
