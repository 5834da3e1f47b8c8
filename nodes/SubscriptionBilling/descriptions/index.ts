import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { faultHandlingFields, listFields } from '../actions/commonFields';
import { operationOption } from '../actions/operation';
import type { ResourceDefinition } from '../actions/resource';
import { customerResource } from './CustomerDescription';
import { invoiceResource } from './InvoiceDescription';
import { paymentMethodResource } from './PaymentMethodDescription';
import { planResource } from './PlanDescription';
import { subscriptionResource } from './SubscriptionDescription';
import { subscriptionMilestoneResource } from './SubscriptionMilestoneDescription';
import { subscriptionRecastResource } from './SubscriptionRecastDescription';
import { subscriptionUpgradeResource } from './SubscriptionUpgradeDescription';
import { usageResource } from './UsageDescription';

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

/** The operation picker of a resource; two, by version, when version 2 starts on another operation. */
function operationPickers(resource: ResourceDefinition): INodeProperties[] {
	const options = resource.operations.map(operationOption).sort((a, b) => a.name.localeCompare(b.name));
	const firstOperation = options[0].value as string;
	const picker = (show: IDisplayOptions['show'], operation: string): INodeProperties => ({
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource.value], ...show } },
		options: [...options],
		default: operation,
	});
	const start = resource.startOperation;
	if (!start || start === firstOperation) return [picker({}, firstOperation)];
	return [picker({ '@version': [1] }, firstOperation), picker({ '@version': [2] }, start)];
}

/** Resource picker, then for each resource its operation picker, its fields, list and fault-handling fields. */
export function nodeProperties(): INodeProperties[] {
	const firstResource = resources[0].value;
	return [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resources.map(({ name, value }) => ({ name, value })),
			default: firstResource,
		},
		...resources.flatMap(operationPickers),
		...resources.flatMap((resource) => [...resource.fields, ...listFields(resource), ...faultHandlingFields(resource)]),
	];
}
