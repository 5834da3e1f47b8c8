import { NodeOperationError, type INode, type NodeApiError } from 'n8n-workflow';
import { NotSentError } from '../shared/transport';
import type { RunGate } from './runGate';

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
