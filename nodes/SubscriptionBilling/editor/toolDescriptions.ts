import type { INodeProperties } from 'n8n-workflow';
import type { OperationDefinition } from './operation';
import { resourceFields, type ResourceDefinition } from './resource';
import { idSource } from '../shared/idChecks';

/** OpenAI refuses a function description over 1,024 characters; n8n passes the text on as it is. */
export const MAX_TOOL_DESCRIPTION = 1024;

const shownFor = (field: INodeProperties, resource: string, operation: string) =>
	field.displayOptions?.show?.resource?.includes(resource) === true && field.displayOptions.show.operation?.includes(operation) === true;

function returned(operation: OperationDefinition): string | undefined {
	const output = operation.output;
	if (!output) return operation.returns;
	return operation.kind === 'list' ? `a list of ${output.noun}s, each with ${output.simplifiedFields}` : `the ${output.noun}: ${output.simplifiedFields}`;
}

/**
 * What an AI model is told about the operation as a tool: what it does, what it returns, which IDs it
 * needs and which operation finds each, all from the operation's own definition and fields.
 */
export function toolDescription(resource: ResourceDefinition, operation: OperationDefinition): string {
	const ids = resourceFields(resource).flatMap((field) => {
		const source = field.type === 'resourceLocator' && shownFor(field, resource.value, operation.value) ? idSource(field.name) : undefined;
		return source ? [source.text] : [];
	});
	const returns = returned(operation);
	return [
		`${operation.description}.`,
		returns ? `Returns ${returns}.` : '',
		ids.length ? `Needs ${ids.join('; and ')}.` : '',
	]
		.filter(Boolean)
		.join(' ');
}

/**
 * The tool's Description, by operation: n8n gives a node used as a tool its own Description only
 * when the node has none, and then by default says no more than the operation's action. Shown only
 * on the tool (`@tool`); what the user writes there replaces it.
 */
export function toolDescriptionFields(resources: ResourceDefinition[]): INodeProperties[] {
	return resources.flatMap((resource) =>
		resource.operations.map(
			(operation): INodeProperties => ({
				displayName: 'Description',
				name: 'toolDescription',
				type: 'string',
				default: toolDescription(resource, operation),
				typeOptions: { rows: 4 },
				description: 'What the AI model is told about this tool: by default what the operation does, what it returns and where its IDs come from',
				displayOptions: { show: { '@tool': [true], resource: [resource.value], operation: [operation.value] } },
			}),
		),
	);
}
