import { NodeOperationError, type IExecuteSingleFunctions } from 'n8n-workflow';

/** The one error for input rejected before any request: names the field, the problem and the item. */
export function invalidInput(ctx: IExecuteSingleFunctions, field: string, problem: string): NodeOperationError {
	const itemIndex = ctx.getItemIndex();
	return new NodeOperationError(ctx.getNode(), `${field} in item ${itemIndex}: ${problem}`, {
		itemIndex,
		description: 'Nothing was sent to the API for this item. Correct the value and run again.',
	});
}

export function quoted(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
	return text.length > 60 ? `"${text.slice(0, 60)}…"` : `"${text}"`;
}
