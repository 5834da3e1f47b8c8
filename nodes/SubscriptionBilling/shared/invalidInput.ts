import { NodeOperationError, type IDataObject, type IExecuteSingleFunctions } from 'n8n-workflow';

/** The one error for input rejected before any request: names the field, the problem and the item. */
export function invalidInput(ctx: IExecuteSingleFunctions, field: string, problem: string): NodeOperationError {
	const itemIndex = ctx.getItemIndex();
	return new NodeOperationError(ctx.getNode(), `${field} in item ${itemIndex}: ${problem}`, {
		itemIndex,
		description: 'Nothing was sent to the API for this item. Correct the value and run again.',
	});
}

/**
 * The error for a node-level setting (Output's Fields, Fault Handling's limits). A value typed in
 * the field is the same for every item: its error names no item, so a run of many items says it
 * once (runOutcome's invalidRun); one given by an expression is checked per item, as any field.
 * `parameter`: where the node stores it (`faultHandling.maxRetries`).
 */
export function invalidSetting(ctx: IExecuteSingleFunctions, parameter: string, field: string, problem: string): NodeOperationError {
	const stored = parameter.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as IDataObject)[key] : undefined), ctx.getNode().parameters);
	if (typeof stored === 'string' && stored.startsWith('=')) return invalidInput(ctx, field, problem);
	return new NodeOperationError(ctx.getNode(), `${field}: ${problem}`, {
		itemIndex: ctx.getItemIndex(),
		description: 'Nothing was sent to the API. Correct the setting and run again.',
	});
}

export function quoted(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
	return text.length > 60 ? `"${text.slice(0, 60)}…"` : `"${text}"`;
}
