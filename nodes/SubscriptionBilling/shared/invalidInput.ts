import {
	NodeOperationError,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type INodeParameters,
	type NodeParameterValueType,
} from 'n8n-workflow';
import { noExampleCause } from './noExampleItem';

/** The node run as an AI agent's tool: n8n derives a node type named `<node>Tool` from it. */
export function runAsTool(ctx: IExecuteSingleFunctions | IExecutePaginationFunctions): boolean {
	return ctx.getNode().type.endsWith('Tool');
}

/** The one error for input rejected before any request: names the field, the problem and the item. */
export function invalidInput(
	ctx: IExecuteSingleFunctions,
	field: string,
	problem: string,
): NodeOperationError {
	if (runAsTool(ctx)) return invalidToolInput(ctx, field, problem);
	const itemIndex = ctx.getItemIndex();
	const cause = noExampleCause(inputItem(ctx), itemIndex);
	const said = !cause
		? problem
		: problem.startsWith('is empty')
			? `is empty: ${cause}`
			: `${problem}. ${cause[0].toUpperCase()}${cause.slice(1)}`;
	return new NodeOperationError(ctx.getNode(), `${field} in item ${itemIndex}: ${said}`, {
		itemIndex,
		description: cause
			? "Nothing was sent to the API for this item. Test this step on a real event: follow the trigger's no_example, or pin an item of a real event on the trigger."
			: 'Nothing was sent to the API for this item. Correct the value and run again.',
	});
}

/** The item the node is acting on, when it has one. */
function inputItem(ctx: IExecuteSingleFunctions): IDataObject | undefined {
	try {
		return ctx.getInputData().json;
	} catch {
		return undefined;
	}
}

/**
 * The error for a node-level setting (Output's Fields, Fault Handling's limits). A value typed in
 * the field is the same for every item: its error names no item, so a run of many items says it
 * once (runErrors.ts's invalidRun); one given by an expression is checked per item, as any field.
 * `parameter`: where the node stores it (`faultHandling.maxRetries`).
 */
export function invalidSetting(
	ctx: IExecuteSingleFunctions,
	parameter: string,
	field: string,
	problem: string,
): NodeOperationError {
	const stored = parameter
		.split('.')
		.reduce<unknown>(
			(value, key) =>
				value && typeof value === 'object' ? (value as IDataObject)[key] : undefined,
			ctx.getNode().parameters,
		);
	if (typeof stored === 'string' && stored.startsWith('='))
		return invalidInput(ctx, field, problem);
	return new NodeOperationError(ctx.getNode(), `${field}: ${problem}`, {
		itemIndex: ctx.getItemIndex(),
		description: 'Nothing was sent to the API. Correct the setting and run again.',
	});
}

/**
 * The same error when the node runs as an AI tool (n8n's `…Tool` variant): its reader is a model,
 * which knows the tool's arguments (the `$fromAI` keys), not items, and needs to know whether it can
 * correct the value itself.
 */
function invalidToolInput(
	ctx: IExecuteSingleFunctions,
	field: string,
	problem: string,
): NodeOperationError {
	const { named, keys } = fieldAsNamed(ctx, field);
	return new NodeOperationError(ctx.getNode(), `${named}: ${problem}`, {
		itemIndex: ctx.getItemIndex(),
		description:
			keys.length === 0
				? "Nothing was sent to the API. This value is set in the tool's node, not by a tool argument: it cannot be corrected by calling the tool again."
				: 'Nothing was sent to the API. Correct the argument and call the tool again.',
	});
}

/** The field as its reader knows it: run as a tool, with the tool arguments (`$fromAI` keys) that fill it, if any. */
export function fieldAsNamed(
	ctx: IExecuteSingleFunctions | IExecutePaginationFunctions,
	field: string,
): { named: string; keys: string[] } {
	const keys = runAsTool(ctx) ? toolArguments(ctx.getNode().parameters, comparable(field)) : [];
	return {
		named:
			keys.length === 0
				? field
				: `${field} (tool argument ${keys.map((key) => `"${key}"`).join(', ')})`,
		keys,
	};
}

const comparable = (name: string) =>
	name
		.toLowerCase()
		.replace(/[^a-z0-9]/g, '')
		.replace(/id$/, '');
const FROM_AI = /\$fromAI\(\s*(['"`])(.+?)\1/g;

/** The `$fromAI` keys in the parameter (or collection) whose name is the field's, as the model knows them. */
function toolArguments(parameters: INodeParameters, field: string, inField = false): string[] {
	return Object.entries(parameters).flatMap(([name, value]) =>
		keysIn(value, inField || comparable(name) === field, field),
	);
}

function keysIn(
	value: NodeParameterValueType | undefined,
	inField: boolean,
	field: string,
): string[] {
	if (typeof value === 'string')
		return inField ? [...value.matchAll(FROM_AI)].map((match) => match[2]) : [];
	if (Array.isArray(value))
		return value.flatMap((entry) => keysIn(entry as NodeParameterValueType, inField, field));
	if (value && typeof value === 'object')
		return toolArguments(value as INodeParameters, field, inField);
	return [];
}

export function quoted(value: unknown): string {
	const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
	return text.length > 60 ? `"${text.slice(0, 60)}…"` : `"${text}"`;
}
