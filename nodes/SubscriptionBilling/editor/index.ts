import type { INodeProperties, NodeHint } from 'n8n-workflow';
import { composeFrom } from '../execute/run';
import {
	faultHandlingFields,
	listFields,
	operationOption,
	resourceFields,
	type ResourceDefinition,
	type OperationDefinition,
} from './resource';
import { customerResource } from '../resources/CustomerDescription';
import { invoiceResource } from '../resources/InvoiceDescription';
import { paymentMethodResource } from '../resources/PaymentMethodDescription';
import { planResource } from '../resources/PlanDescription';
import { subscriptionResource } from '../resources/SubscriptionDescription';
import { subscriptionMilestoneResource } from '../resources/SubscriptionMilestoneDescription';
import { subscriptionRecastResource } from '../resources/SubscriptionRecastDescription';
import { subscriptionUpgradeResource } from '../resources/SubscriptionUpgradeDescription';
import { usageResource } from '../resources/UsageDescription';
import { MAX_PAGE_SIZE } from '../shared/constants';
import { idSource } from '../shared/idChecks';

export const resources: ResourceDefinition[] = [
	customerResource,
	invoiceResource,
	paymentMethodResource,
	planResource,
	subscriptionResource,
	subscriptionMilestoneResource,
	subscriptionRecastResource,
	subscriptionUpgradeResource,
	usageResource,
];

/** The operation picker of a resource, starting on its start operation or else the first. */
function operationPicker(resource: ResourceDefinition): INodeProperties {
	const options = resource.operations
		.map(operationOption)
		.sort((a, b) => a.name.localeCompare(b.name));
	const start = resource.startOperation ?? options[0].value;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource.value] } },
		options,
		default: start,
	};
}

/** Resource picker, then for each resource its operation picker, its fields, list and fault-handling fields. */
export function nodeProperties(): INodeProperties[] {
	const firstResource = resources[0].value;
	const properties: INodeProperties[] = [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resources.map(({ name, value }) => ({ name, value })),
			default: firstResource,
		},
		...resources.map(operationPicker),
		...toolDescriptionFields(resources),
		...resources.flatMap((resource) => [
			...resourceFields(resource),
			...listFields(resource),
			...faultHandlingFields(resource),
		]),
	];
	composeFrom(properties);
	return properties;
}

/**
 * The canvas subtitle: the operation and resource as the editor's pickers show them
 * ("Get Many for Customer: Invoice"), not their stored values. A flat lookup keeps `}}` out of the
 * expression; anything not in it (n8n's Custom API Call) shows the stored values.
 */
export function operationSubtitle(resources: ResourceDefinition[]): string {
	const names = Object.fromEntries(
		resources.flatMap((resource) =>
			resource.operations.map((operation) => [
				`${resource.value}.${operation.value}`,
				`${operation.name}: ${resource.name}`,
			]),
		),
	);
	const key = '$parameter["resource"] + "." + $parameter["operation"]';
	return `={{ (${JSON.stringify(names)})[${key}] || $parameter["operation"] + ": " + $parameter["resource"] }}`;
}

/** Input items from which a run of Customer → Get is worth a word on what it cost. */
export const MANY_CUSTOMER_LOOKUPS = 10;

/**
 * Hints the output panel shows after a run. n8n evaluates a hint's condition in the editor with
 * the node's parameters and its input items, whatever the run did (one refused before sending
 * too), and a declarative node cannot add hints from what a run did (docs/api-assumptions.md,
 * "Execution hints"): a hint says what these settings cost on that many items, not what a run sent.
 */
export const executionHints: NodeHint[] = [
	{
		message: `Customer → Get on ${MANY_CUSTOMER_LOOKUPS} or more items: the API has no get by ID, so each item reads the customer list from its start until it finds its customer: one request per ${MAX_PAGE_SIZE} customers before it. To look up many customers, read the list once with Customer → Get Many (Return All) and join it to these items with a Merge node (Combine by Matching Fields, customer_id).`,
		type: 'info',
		location: 'outputPane',
		whenToDisplay: 'afterExecution',
		displayCondition: `={{ $parameter.resource === 'customer' && $parameter.operation === 'get' && $input.all().length >= ${MANY_CUSTOMER_LOOKUPS} }}`,
	},
];

/** OpenAI refuses a function description over 1,024 characters; n8n passes the text on as it is. */
export const MAX_TOOL_DESCRIPTION = 1024;

const shownFor = (field: INodeProperties, resource: string, operation: string) =>
	field.displayOptions?.show?.resource?.includes(resource) === true &&
	field.displayOptions.show.operation?.includes(operation) === true;

function returned(operation: OperationDefinition): string | undefined {
	const output = operation.output;
	if (!output) return operation.returns;
	return operation.kind === 'list'
		? `a list of ${output.noun}s, each with ${output.simplifiedFields}`
		: `the ${output.noun}: ${output.simplifiedFields}`;
}

/**
 * What an AI model is told about the operation as a tool: what it does, what it returns, which IDs it
 * needs and which operation finds each, all from the operation's own definition and fields.
 */
export function toolDescription(
	resource: ResourceDefinition,
	operation: OperationDefinition,
): string {
	const ids = resourceFields(resource).flatMap((field) => {
		const source =
			field.type === 'resourceLocator' && shownFor(field, resource.value, operation.value)
				? idSource(field.name)
				: undefined;
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
				description:
					'What the AI model is told about this tool: by default what the operation does, what it returns and where its IDs come from',
				displayOptions: {
					show: { '@tool': [true], resource: [resource.value], operation: [operation.value] },
				},
			}),
		),
	);
}
