import type {
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';
import { asNodeError, errorFieldsOf } from '../shared/apiError';
import { runAsTool } from '../shared/invalidInput';

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
