import type { INodeProperties } from 'n8n-workflow';
import { validateFields } from '../execute/bodyRules';
import { showFor, type ResourceDefinition } from '../editor';
import { returnAll } from './sharedFields';

const show = (...operation: string[]) => showFor('paymentMethod', operation);

const fields: INodeProperties[] = [
	{
		displayName: 'Payment Method ID',
		name: 'paymentMethodId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. pm_1234',
		description:
			"ID of the payment method at the card payment processor; it must be attached to the subscription's customer",
		displayOptions: show('setDefault'),
		routing: { send: { type: 'body', property: 'payment_method_id' } },
	},
	returnAll.whole,
];

export const paymentMethodResource: ResourceDefinition = {
	name: 'Payment Method',
	value: 'paymentMethod',
	fields,
	operations: [
		{
			name: 'Get Default',
			value: 'getDefault',
			action: 'Get the default payment method',
			description: "Get the default payment method of the subscription's customer",
			returns:
				"the payment method: payment_method_id, is_default, type (card or us_bank_account), and the card's brand and last4 or the bank account's details",
			method: 'GET',
			path: '/subscriptions/{subscriptionId}/payment-methods/default',
			kind: 'read',
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many payment methods',
			description: "List the cards and bank accounts of the subscription's customer",
			returns:
				"the payment methods, each with payment_method_id, is_default, type (card or us_bank_account), and the card's brand and last4 or the bank account's details",
			method: 'GET',
			path: '/subscriptions/{subscriptionId}/payment-methods',
			kind: 'list',
			paged: false,
		},
		{
			name: 'Set Default',
			value: 'setDefault',
			action: 'Set the default payment method',
			description: "Make a payment method the default of the subscription's customer",
			returns: 'subscription_id and default_payment_method_id',
			method: 'PUT',
			path: '/subscriptions/{subscriptionId}/payment-methods/default',
			kind: 'write',
			preSend: [
				validateFields([
					{
						field: 'payment_method_id',
						label: 'Payment Method ID',
						type: 'string',
						required: true,
					},
				]),
			],
		},
		{
			name: 'Set Up',
			value: 'setUp',
			action: 'Set up a payment method',
			description:
				"Start adding a payment method: returns the processor's client secret and publishable key for a checkout form",
			returns:
				'processor_account_id, client_secret, publishable_key and customer_session_client_secret',
			method: 'POST',
			path: '/subscriptions/{subscriptionId}/payment-methods',
			kind: 'write',
		},
	],
};
