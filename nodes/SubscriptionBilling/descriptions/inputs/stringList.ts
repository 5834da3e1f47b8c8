import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { invalidInput, quoted } from '../../shared/invalidInput';
import type { StructuredInput } from '../../actions/structuredInput';

/**
 * A list of strings entered as rows or as a JSON array (invoice numbers, invoice ids, coupons);
 * `example` is a list the input accepts, shown in the JSON field's description.
 */
export function stringListInput(
	name: string,
	displayName: string,
	apiField: string,
	rowDisplayName: string,
	description: string,
	example: string[],
	format?: { pattern: RegExp; hint: string },
): StructuredInput {
	return {
		name,
		displayName,
		apiField,
		shape: 'array',
		required: false,
		rowName: 'entry',
		rowDisplayName,
		rowFields: [{ displayName: rowDisplayName, name: 'value', type: 'string', default: '' }],
		jsonExample: JSON.stringify(example).replace(/","/g, '", "'),
		description,
		fromRows(_ctx: IExecuteSingleFunctions, rows: IDataObject[]) {
			return rows.map((row) => row.value);
		},
		check(ctx: IExecuteSingleFunctions, value: unknown) {
			(value as unknown[]).forEach((entry, index) => {
				const label = `${displayName}, entry ${index + 1}`;
				if (typeof entry !== 'string' || entry.trim() === '') throw invalidInput(ctx, label, 'is not a non-empty text');
				if (format && !format.pattern.test(entry)) throw invalidInput(ctx, label, `${quoted(entry)} ${format.hint}`);
			});
		},
	};
}
