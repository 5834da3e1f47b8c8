/**
 * The tool variant n8n derives from a `usableAsTool` node, the way n8n 2.8 builds it.
 *
 * n8n's loader offers every `usableAsTool` node a second time as `<name>Tool` (LoadNodesAndCredentials
 * → createAiTools, for the editor's node list) and NodeTypes.getByNameAndVersion('…Tool') builds the
 * executable type: it gives the declarative node its RoutingNode `execute`, clones the type with
 * Object.create and runs `convertNodeToAiTool` on the clone. In n8n 2.8 `convertNodeToAiTool` lives
 * in the n8n CLI package (packages/cli/src/tool-generation), which is not a dependency of this repo.
 * SIMULATED: the conversion below is a line-for-line copy of n8n 2.8.4's dist/tool-generation
 * (ai-tools.js, utils.js); where n8n 2.8.4 is installed (scripts/n8n-local.js), aiTool.test.cts
 * checks that the copy gives the same description as n8n's own code.
 */
import { RoutingNode, type ExecuteContext } from 'n8n-core';
import { NodeConnectionTypes, deepCopy } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

function isFullDescription(obj: unknown): obj is INodeTypeDescription {
	return typeof obj === 'object' && obj !== null && 'properties' in obj;
}
function setToolCodex(
	description: INodeTypeDescription,
	toolSubcategory: string,
	preserveExisting = false,
): void {
	const resources = description.codex?.resources ?? {};
	const existingToolsSubcategory = description.codex?.subcategories?.Tools;
	description.codex = {
		categories: ['AI'],
		subcategories: {
			AI: ['Tools'],
			Tools:
				preserveExisting && existingToolsSubcategory ? existingToolsSubcategory : [toolSubcategory],
		},
		resources,
	};
}
function findLastCalloutIndex(properties: INodeProperties[]): number {
	for (let i = properties.length - 1; i >= 0; i--) if (properties[i].type === 'callout') return i;
	return -1;
}
export function convertNodeToAiTool<T extends { description: INodeTypeDescription }>(item: T): T {
	if (isFullDescription(item.description)) {
		item.description.name += 'Tool';
		item.description.inputs = [];
		item.description.outputs = [NodeConnectionTypes.AiTool];
		item.description.displayName += ' Tool';
		delete item.description.usableAsTool;
		const hasResource = item.description.properties.some((prop) => prop.name === 'resource');
		const hasOperation = item.description.properties.some((prop) => prop.name === 'operation');
		if (!item.description.properties.map((prop) => prop.name).includes('toolDescription')) {
			const descriptionType: INodeProperties = {
				displayName: 'Tool Description',
				name: 'descriptionType',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Set Automatically',
						value: 'auto',
						description: 'Automatically set based on resource and operation',
					},
					{ name: 'Set Manually', value: 'manual', description: 'Manually set the description' },
				],
				default: 'auto',
			};
			const descProp: INodeProperties = {
				displayName: 'Description',
				name: 'toolDescription',
				type: 'string',
				default: item.description.description,
				required: true,
				typeOptions: { rows: 2 },
				description:
					'Explain to the LLM what this tool does, a good, specific description would allow LLMs to produce expected results much more often',
			};
			const lastCallout = findLastCalloutIndex(item.description.properties);
			item.description.properties.splice(lastCallout + 1, 0, descProp);
			if (hasResource || hasOperation) {
				item.description.properties.splice(lastCallout + 1, 0, descriptionType);
				descProp.displayOptions = { show: { descriptionType: ['manual'] } };
			}
		}
	}
	setToolCodex(item.description, 'Other Tools', true);
	return item;
}
/** LoadNodesAndCredentials → createAiTools: the description the editor lists. */
export function toolDescriptionForEditor(description: INodeTypeDescription): INodeTypeDescription {
	return convertNodeToAiTool({ description: deepCopy(description) }).description;
}
/** NodeTypes.getByNameAndVersion('subscriptionBillingTool'): the type that is executed. */
export function toolTypeForExecution(versionedNodeType: INodeType): INodeType {
	// shouldAssignExecuteMethod(versionedNodeType) is true for a declarative node
	versionedNodeType.execute = async function (this: IExecuteFunctions) {
		const routingNode = new RoutingNode(this as ExecuteContext, versionedNodeType);
		return (await routingNode.runNode()) ?? [];
	};
	const clonedProperties = Object.create(
		versionedNodeType.description.properties,
	) as INodeProperties[];
	const clonedDescription = Object.create(versionedNodeType.description, {
		properties: { value: clonedProperties, writable: false },
	}) as INodeTypeDescription;
	const clonedNode = Object.create(versionedNodeType, {
		description: { value: clonedDescription },
	}) as INodeType;
	return convertNodeToAiTool(clonedNode);
}
