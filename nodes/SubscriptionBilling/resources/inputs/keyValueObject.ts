import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { invalidInput } from '../../shared/invalidInput';
import type { StructuredInput } from './structuredInput';

/** A free-form object entered as key/value rows or JSON (usage properties, order metadata). */
export function keyValueObjectInput(
	name: string,
	displayName: string,
	apiField: string,
	description: string,
): StructuredInput {
	return {
		name,
		displayName,
		apiField,
		shape: 'object',
		required: false,
		rowName: 'pair',
		rowDisplayName: 'Pair',
		rowFields: [
			{ displayName: 'Key', name: 'key', type: 'string', default: '' },
			{ displayName: 'Value', name: 'value', type: 'string', default: '' },
		],
		jsonExample: '{"region": "eu", "seats": 3}',
		description,
		fromRows(ctx: IExecuteSingleFunctions, rows: IDataObject[]) {
			const value: IDataObject = {};
			rows.forEach((row, index) => {
				if (!row.key)
					throw invalidInput(
						ctx,
						displayName,
						`row ${index + 1} has no key: give each pair a key, or remove the row`,
					);
				value[row.key as string] = row.value;
			});
			return value;
		},
	};
}
