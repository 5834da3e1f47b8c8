import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { invalidInput, quoted } from '../../shared/invalidInput';
import type { StructuredInput } from './structuredInput';

/** A value that is not text, in words: "an object", "a list", "true", "null". */
function whatItIs(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (value !== null && typeof value === 'object') return 'an object';
	return String(value);
}

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
			const list = value as unknown[];
			list.forEach((raw, index) => {
				// a number mapped from a numeric column is its text
				const entry = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
				const which = `entry ${index + 1}`;
				if (typeof entry === 'string' && entry.trim() === '')
					throw invalidInput(
						ctx,
						displayName,
						`${which} is empty: give its ${rowDisplayName} or remove the entry`,
					);
				if (typeof entry !== 'string')
					throw invalidInput(ctx, displayName, `${which} is ${whatItIs(entry)}, not text`);
				if (format && !format.pattern.test(entry))
					throw invalidInput(ctx, displayName, `${which}, ${quoted(entry)}, ${format.hint}`);
				list[index] = entry;
			});
		},
	};
}
