import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import type { OperationDefinition } from './operation';
import type { OutputDefinition } from '../execute/output';

/** Where the Output / Fields parameters stand among a resource's fields; at the end when not placed. */
export const OUTPUT_PARAMETERS = 'Output / Fields';

export interface ResourceDefinition {
	name: string;
	value: string;
	operations: OperationDefinition[];
	/**
	 * The operation a new node starts on when it is not the picker's first (a read, not a write: an
	 * AI tool added from the panel starts on it).
	 */
	startOperation?: string;
	/** The operation's own fields; Output / Fields, list and fault-handling fields are added from the operations. */
	fields: Array<INodeProperties | typeof OUTPUT_PARAMETERS>;
}

/** Display options for fields of some operations of one resource. */
export function showFor(resource: string, operation: string[]): IDisplayOptions {
	return { show: { resource: [resource], operation } };
}

/** The Output choice (Simplified / Raw / Selected Fields) for operations of one resource returning large objects. */
function outputFields(resource: string, operation: string[], output: OutputDefinition): INodeProperties[] {
	const names = output.parameters;
	const show = { resource: [resource], operation };
	return [
		{
			displayName: 'Output',
			name: names.output,
			type: 'options',
			options: [
				{ name: 'Simplified', value: 'simplified', description: `Only the fields people act on: ${output.simplifiedFields}` },
				{ name: 'Raw', value: 'raw', description: 'Everything the API returns' },
				{ name: 'Selected Fields', value: 'selected', description: 'Only the fields you name' },
			],
			default: 'simplified',
			displayOptions: { show },
		},
		{
			displayName: 'Fields',
			name: names.fields,
			type: 'string',
			required: true,
			default: '',
			placeholder: `e.g. ${output.example}`,
			description: `Comma-separated fields of the ${output.noun} as the API documents them; a dot reaches into an object and keeps it nested (address.city gives {"address": {"city": …}})`,
			displayOptions: { show: { ...show, [names.output]: ['selected'] } },
		},
	];
}

/** The resource's fields, with an Output / Fields pair for each kind of result its operations return. */
export function resourceFields(resource: ResourceDefinition): INodeProperties[] {
	const outputs = [...new Set(resource.operations.flatMap((operation) => (operation.output ? [operation.output] : [])))];
	const outputParameters = outputs.flatMap((output) =>
		outputFields(
			resource.value,
			resource.operations
				.filter((operation) => operation.output === output)
				.map((operation) => operation.value)
				.sort(),
			output,
		),
	);
	const at = resource.fields.indexOf(OUTPUT_PARAMETERS);
	const fields = resource.fields.filter((field): field is INodeProperties => field !== OUTPUT_PARAMETERS);
	fields.splice(at === -1 ? fields.length : at, 0, ...outputParameters);
	return fields;
}
