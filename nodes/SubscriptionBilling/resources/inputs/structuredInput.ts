import type {
	IDataObject,
	IDisplayOptions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	PreSendAction,
} from 'n8n-workflow';
import { parseJsonParameter } from './jsonParameter';

/**
 * A body field that holds a list or an object (bricks, coupons, metadata, properties), entered
 * either as repeatable rows in the editor or as JSON (typed, or mapped from an expression).
 */
export interface StructuredInput {
	/** Base name of the parameters: `<name>Input` (the mode), `<name>Ui` (the rows), `<name>Json`. */
	name: string;
	displayName: string;
	apiField: string;
	shape: 'array' | 'object';
	required: boolean;
	rowName: string;
	rowDisplayName: string;
	rowFields: INodeProperties[];
	jsonExample: string;
	description: string;
	/** Turns the editor's rows into the API's value. */
	fromRows: (ctx: IExecuteSingleFunctions, rows: IDataObject[]) => unknown;
	/** Checks the final value (from rows or JSON) and throws a named error. */
	check?: (ctx: IExecuteSingleFunctions, value: unknown) => void;
}

export function structuredInputFields(
	input: StructuredInput,
	displayOptions: IDisplayOptions,
): INodeProperties[] {
	const show = displayOptions.show ?? {};
	const modes = [
		...(input.required ? [] : [{ name: 'None', value: 'none' }]),
		{ name: 'Using Fields Below', value: 'fields' },
		{ name: 'Using JSON', value: 'json' },
	];
	const defaultMode = input.required ? 'fields' : 'none';
	const emptyJson = input.shape === 'array' ? '[]' : '{}';
	return [
		{
			displayName: input.displayName,
			name: `${input.name}Input`,
			type: 'options',
			options: modes,
			default: defaultMode,
			description: input.description,
			displayOptions,
		},
		{
			displayName: input.displayName,
			name: `${input.name}Ui`,
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: `Add ${input.rowDisplayName.toLowerCase()}`,
			default: {},
			displayOptions: { show: { ...show, [`${input.name}Input`]: ['fields'] } },
			options: [
				{ displayName: input.rowDisplayName, name: input.rowName, values: input.rowFields },
			],
		},
		{
			displayName: `${input.displayName} (JSON)`,
			name: `${input.name}Json`,
			type: 'json',
			default: emptyJson,
			description: `A JSON ${input.shape}, or an expression giving one, e.g. ${input.jsonExample}`,
			displayOptions: { show: { ...show, [`${input.name}Input`]: ['json'] } },
		},
	];
}

/** The preSend step that puts the input's value into the body. */
export function structuredInputStep(input: StructuredInput): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const mode = this.getNodeParameter(
			`${input.name}Input`,
			input.required ? 'fields' : 'none',
		) as string;
		if (mode === 'none') return requestOptions;
		const value =
			mode === 'json'
				? parseJsonParameter(
						this,
						this.getNodeParameter(`${input.name}Json`, ''),
						`${input.displayName} (JSON)`,
						input.shape,
					)
				: input.fromRows(
						this,
						this.getNodeParameter(`${input.name}Ui.${input.rowName}`, []) as IDataObject[],
					);
		input.check?.(this, value);
		requestOptions.body = { ...(requestOptions.body as IDataObject), [input.apiField]: value };
		return requestOptions;
	};
}
