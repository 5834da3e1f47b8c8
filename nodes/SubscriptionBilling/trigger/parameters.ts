import { NodeOperationError, type IPollFunctions } from 'n8n-workflow';
import { ID_HINT, ID_PATTERN } from '../shared/pathParameters';

/** The Customer parameter, checked like every id that goes into a path. */
export function checkedCustomerId(ctx: IPollFunctions): string {
	const raw = ctx.getNodeParameter('customerId', undefined, { extractValue: true });
	const value = typeof raw === 'number' ? String(raw) : raw;
	if (typeof value !== 'string' || value.trim() === '') {
		throw new NodeOperationError(ctx.getNode(), 'Customer: choose the customer whose invoices to watch, or choose All Customers');
	}
	if (!ID_PATTERN.test(value)) throw new NodeOperationError(ctx.getNode(), `Customer: "${value}" ${ID_HINT}`);
	return value;
}
