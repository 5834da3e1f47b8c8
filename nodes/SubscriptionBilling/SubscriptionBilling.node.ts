import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import {
	nodeProperties,
	executionHints,
	operationSubtitle,
	type ResourceDefinition,
} from './editor';
import { customerResource } from './resources/CustomerDescription';
import { invoiceResource } from './resources/InvoiceDescription';
import { paymentMethodResource } from './resources/PaymentMethodDescription';
import { planResource } from './resources/PlanDescription';
import { SHARED_FIELDS } from './resources/sharedFields';
import { subscriptionResource } from './resources/SubscriptionDescription';
import { subscriptionMilestoneResource } from './resources/SubscriptionMilestoneDescription';
import { subscriptionRecastResource } from './resources/SubscriptionRecastDescription';
import { subscriptionUpgradeResource } from './resources/SubscriptionUpgradeDescription';
import { usageResource } from './resources/UsageDescription';
import { testApiCredential } from './shared/credentialTest';
import { REPOSITORY_URL } from './shared/constants';
import {
	searchBricks,
	searchCustomers,
	searchMilestones,
	searchPlans,
	searchRecastOrders,
	searchSubscriptions,
	searchUpgradeOrders,
} from './shared/listSearch';

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

export class SubscriptionBilling implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Subscription Billing',
		name: 'subscriptionBilling',
		icon: {
			light: 'file:../../icons/subscriptionBilling.svg',
			dark: 'file:../../icons/subscriptionBilling.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: operationSubtitle(resources),
		description:
			'Manage customers, subscriptions, invoices, payment methods and usage of the Subscription Billing Service',
		// the panel's Docs link opens this as it is; the codex's link gets n8n's tracking query appended
		documentationUrl: `${REPOSITORY_URL}#operations`,
		defaults: { name: 'Subscription Billing' },
		usableAsTool: true,
		builderHint: {
			searchHint:
				'Reads and changes a Subscription Billing account: customers (Create or Update onboards by your own External ID), subscriptions, invoices, plans, payment methods, milestones, upgrades, recasts and usage. Map customer, subscription and invoice IDs from earlier nodes; to react to billing events start with Subscription Billing Trigger',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-subscription-billing.subscriptionBillingTrigger',
					relationHint:
						'Starts a workflow on new invoices, payments, failed payments and customer or subscription changes; its items carry the IDs this node takes',
				},
			],
		},
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'subscriptionBillingApi', required: true, testedBy: 'subscriptionBillingApiTest' },
		],
		// the base URL comes from the credential in execute/perform.ts, read once per run, not per item
		requestDefaults: { headers: { Accept: 'application/json' } },
		properties: nodeProperties(resources, SHARED_FIELDS),
		hints: executionHints,
	};

	methods = {
		listSearch: {
			searchCustomers,
			searchSubscriptions,
			searchPlans,
			searchBricks,
			searchMilestones,
			searchUpgradeOrders,
			searchRecastOrders,
		},
		credentialTest: { subscriptionBillingApiTest: testApiCredential },
	};
}
