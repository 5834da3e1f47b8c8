/**
 * The node's alike definitions said once (nodes/SubscriptionBilling/alikeDefinitions.ts): what n8n
 * makes of the description, for every resource and operation, as the node and as an AI tool, is
 * what it makes of the definitions as each resource states them.
 */
import {
	NodeHelpers,
	type INodeParameters,
	type INodeProperties,
	type INodeTypeDescription,
} from 'n8n-workflow';
import {
	SubscriptionBilling,
	resources,
} from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { statedDefinitions } from '../nodes/SubscriptionBilling/editor';

const { description } = new SubscriptionBilling();
const NODE = { typeVersion: 1 };

/** The parameters n8n resolves for a node with `values`, and the fields it shows, in order. */
function editorView(
	properties: INodeProperties[],
	values: INodeParameters,
	asTool: boolean,
): { parameters: INodeParameters | null; shown: string[] } {
	const type: INodeTypeDescription = {
		...description,
		name: asTool ? `${description.name}Tool` : description.name,
		properties,
	};
	const parameters = NodeHelpers.getNodeParameters(properties, values, true, false, NODE, type);
	const shown = properties
		.filter((property) =>
			NodeHelpers.displayParameter(parameters ?? {}, property, NODE, type, parameters ?? {}),
		)
		.map(({ displayOptions: _, ...field }) => JSON.stringify(field));
	return { parameters, shown };
}

const cases = resources.flatMap((resource) =>
	resource.operations.flatMap((operation) =>
		[false, true].flatMap((asTool) =>
			[{}, { returnAll: true }].map((more) => ({
				resource: resource.value,
				operation: operation.value,
				asTool,
				more,
			})),
		),
	),
);

describe('alike definitions said once', () => {
	const stated = statedDefinitions(resources, async (options) => options);

	test('fewer definitions than the resources state', () => {
		expect(description.properties.length).toBeLessThan(stated.length);
	});

	test.each(cases)(
		'$resource → $operation (as a tool: $asTool, $more): the same parameters and the same fields shown, in the same order',
		({ resource, operation, asTool, more }) => {
			const values = { resource, operation, ...more };
			expect(editorView(description.properties, values, asTool)).toEqual(
				editorView(stated, values, asTool),
			);
		},
	);
});
