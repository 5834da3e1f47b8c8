import type { IExecutePaginationFunctions, IExecuteSingleFunctions, NodeApiError, NodeOperationError } from 'n8n-workflow';
import { asNodeError } from '../shared/apiError';
import { runAsTool } from '../shared/invalidInput';

/**
 * The error an item fails with. Run as a tool, n8n appends the description to the message
 * ("Details: …") and still shows the description, so it would be said twice: the message carries
 * it instead (which also gives an agent reading only the message what to check).
 */
export function failure(ctx: IExecuteSingleFunctions | IExecutePaginationFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	const nodeError = asNodeError(ctx.getNode(), error, itemIndex);
	if (!runAsTool(ctx) || !nodeError.description || nodeError.message.includes(nodeError.description)) return nodeError;
	nodeError.message = `${nodeError.message.replace(/\.?$/, '.')} ${nodeError.description}`;
	nodeError.description = null;
	return nodeError;
}
