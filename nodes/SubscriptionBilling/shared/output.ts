import type { IDataObject, IDisplayOptions, IExecutePaginationFunctions, INodeProperties } from 'n8n-workflow';
import type { Shaper } from './perform';

export type Simplifier = (result: IDataObject) => IDataObject;

/** The Output choice (Simplified / Raw / Selected Fields) for operations returning large objects. */
export function outputFields(displayOptions: IDisplayOptions, simplifiedFields: string): INodeProperties[] {
	return [
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{ name: 'Simplified', value: 'simplified', description: `Only the fields people act on: ${simplifiedFields}` },
				{ name: 'Raw', value: 'raw', description: 'Everything the API returns' },
				{ name: 'Selected Fields', value: 'selected', description: 'Only the fields you name' },
			],
			default: 'simplified',
			displayOptions,
		},
		{
			displayName: 'Fields',
			name: 'fields',
			type: 'string',
			default: '',
			placeholder: 'e.g. subscription_id, status, customer.name',
			description: 'Comma-separated field names; dots reach into objects',
			displayOptions: { show: { ...displayOptions.show, output: ['selected'] } },
		},
	];
}

function pick(result: IDataObject, path: string): unknown {
	return path.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as IDataObject)[key] : undefined), result);
}

/** Applies the chosen output mode to each result. */
export function outputShaper(simplify: Simplifier): Shaper {
	return function (this: IExecutePaginationFunctions) {
		const mode = this.getNodeParameter('output', 'simplified') as string;
		if (mode === 'raw') return (result) => result;
		if (mode === 'simplified') return simplify;
		const paths = String(this.getNodeParameter('fields', ''))
			.split(',')
			.map((path) => path.trim())
			.filter(Boolean);
		return (result) => {
			const selected: IDataObject = {};
			for (const path of paths) selected[path] = pick(result, path) as IDataObject[keyof IDataObject];
			return selected;
		};
	};
}

/** A delete's output: `{deleted: true}`, the id the API acted on, and what the API answered. */
export function deletedShaper(apiField: string, parameter: string): Shaper {
	return function (this: IExecutePaginationFunctions) {
		const id = this.getNodeParameter(parameter) as string;
		return (result) => ({ deleted: true, [apiField]: id, ...result });
	};
}
