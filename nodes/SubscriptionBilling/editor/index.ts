import type { INodeProperties } from 'n8n-workflow';
import { composeFrom } from '../execute/batching';
import { faultHandlingFields, listFields } from './commonFields';
import { operationOption } from './operation';
import { resourceFields, type ResourceDefinition } from './resource';
import { customerResource } from '../resources/CustomerDescription';
import { invoiceResource } from '../resources/InvoiceDescription';
import { paymentMethodResource } from '../resources/PaymentMethodDescription';
import { planResource } from '../resources/PlanDescription';
import { subscriptionResource } from '../resources/SubscriptionDescription';
import { subscriptionMilestoneResource } from '../resources/SubscriptionMilestoneDescription';
import { subscriptionRecastResource } from '../resources/SubscriptionRecastDescription';
import { subscriptionUpgradeResource } from '../resources/SubscriptionUpgradeDescription';
import { toolDescriptionFields } from './toolDescriptions';
import { usageResource } from '../resources/UsageDescription';

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
	const options = resource.operations.map(operationOption).sort((a, b) => a.name.localeCompare(b.name));
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
		...resources.flatMap((resource) => [...resourceFields(resource), ...listFields(resource), ...faultHandlingFields(resource)]),
	];
	composeFrom(properties);
	return properties;
}
