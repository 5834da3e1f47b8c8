import { NodeOperationError, type INode } from 'n8n-workflow';
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

/** The error of a run stopped before sending because some of its items did not pass their checks. */
export function invalidRun(node: INode, invalid: Array<[number, unknown]>, size: number): NodeOperationError {
	const [[firstIndex, firstError]] = invalid;
	const others = invalid.slice(1);
	const message = others.length === 0 ? messageOf(firstError) : `${messageOf(firstError)} (and ${others.length} more invalid: ${items(others.map(([index]) => index))})`;
	const listed = invalid.slice(0, LISTED).map(([, error]) => messageOf(error));
	if (invalid.length > LISTED) listed.push(`… ${invalid.length - LISTED} more`);
	const which = invalid.length === 1 ? '' : ` Invalid: ${listed.join('; ')}.`;
	return new NodeOperationError(node, message, {
		itemIndex: firstIndex,
		description: `Nothing was sent to the API for any of the ${size} items: every item is checked before the first request.${which} Correct the ${invalid.length === 1 ? 'value' : 'values'} and run again.`,
	});
}

/**
 * What the other items of a run did, for the error of a write the API refused: which were
 * applied (and would be applied again by running the node again), which were not sent.
 */
export function appliedSoFar(gate: RunGate, failedIndex: number): string {
	const applied = gate.itemsWith('applied');
	const notSent = gate.itemsWith('notSent');
	const alsoFailed = gate.itemsWith('failed').filter((index) => index !== failedIndex);
	const parts = [
		applied.length > 0 ? `${items(applied)} ${applied.length === 1 ? 'was' : 'were'} applied by the API (running the node again applies ${applied.length === 1 ? 'it' : 'them'} again)` : 'no other item was applied',
		alsoFailed.length > 0 ? `${items(alsoFailed)} failed too` : undefined,
		notSent.length > 0 ? `${items(notSent)} ${notSent.length === 1 ? 'was' : 'were'} not sent` : undefined,
	].filter((part): part is string => part !== undefined);
	return `Of the run's ${gate.size} items, ${parts.join('; ')}. Without Continue On Fail, n8n keeps no result of a run that fails: to get one result per item, set Settings > On Error to Continue (using error output).`;
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
		description: 'The run stopped sending after a request failed, and no item reported the failure. Nothing is lost silently: run the node again.',
	});
}

/** Whether the request was held back (the run had failed) before anything of it was sent. */
export function wasNotSent(error: unknown): boolean {
	return error instanceof NotSentError || (error as { cause?: unknown } | undefined)?.cause instanceof NotSentError;
}
