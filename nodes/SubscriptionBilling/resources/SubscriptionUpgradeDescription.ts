import { showFor, type ResourceDefinition } from '../editor';
import { orderIdField } from '../shared/idFields';
import { orderCreateFields, orderCreateSteps, signSteps } from './orderFields';
import { chargeImmediately, faultHandling, orderRedirectUrl } from './sharedFields';

export const subscriptionUpgradeResource: ResourceDefinition = {
	name: 'Subscription Upgrade',
	value: 'subscriptionUpgrade',
	fields: [
		{
			...orderIdField('upgrade'),
			displayOptions: showFor('subscriptionUpgrade', ['getSignUrl', 'start']),
		},
		orderRedirectUrl,
		chargeImmediately,
		...orderCreateFields('subscriptionUpgrade', 'upgrade', [], []),
		faultHandling.read,
	],
	startOperation: 'getMany',
	operations: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a subscription upgrade',
			description:
				'Prepare an upgrade order that adds, removes or changes add-ons; it starts open (stage BUILDING)',
			returns: 'order_id, contract_value, pdf_url, starts_at, ends_at and order_type',
			method: 'POST',
			path: '/subscriptions/{subscriptionId}/upgrade',
			kind: 'write',
			preSend: orderCreateSteps([]),
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many subscription upgrades',
			description: 'List the upgrade orders of a subscription',
			returns: 'the upgrade orders, each with order_id, stage, starts_at and ends_at',
			method: 'GET',
			path: '/subscriptions/{subscriptionId}/upgrade',
			kind: 'list',
			paged: false,
		},
		{
			name: 'Get Sign URL',
			value: 'getSignUrl',
			action: 'Get a sign URL for an upgrade',
			description: 'Get a URL at which the upgrade order is signed',
			returns: 'url',
			method: 'POST',
			path: '/subscriptions/{subscriptionId}/upgrade/{orderId}/sign',
			kind: 'read',
			preSend: signSteps,
		},
		{
			name: 'Start',
			value: 'start',
			action: 'Start a subscription upgrade',
			description: 'Put a prepared upgrade into effect, charging now or on the next invoice',
			returns: 'subscription_id',
			method: 'POST',
			path: '/subscriptions/{subscriptionId}/upgrade/{orderId}/start',
			kind: 'write',
		},
	],
};
