import type { INodeProperties } from 'n8n-workflow';
import { deletedShaper } from '../execute/output';
import { showFor, type ResourceDefinition } from '../editor';
import { orderIdField } from '../shared/idFields';
import { orderCreateFields, orderCreateSteps, signSteps } from './orderFields';

const BILLING_FREQUENCIES = ['MONTHLY', 'QUARTERLY', 'SEMI_ANNUALLY', 'ANNUALLY', 'ALL_UPFRONT'];

const createFields: INodeProperties[] = [
	{
		displayName: 'Contract Length (Months)',
		name: 'contractLength',
		type: 'number',
		typeOptions: { minValue: 1 },
		required: true,
		default: null,
		placeholder: 'e.g. 12',
		description: 'Length of the new agreement in months, a whole number of at least 1',
		routing: { send: { type: 'body', property: 'contract_length' } },
	},
	{
		displayName: 'Billing Frequency',
		name: 'billingFrequency',
		type: 'options',
		required: true,
		options: BILLING_FREQUENCIES.map((value) => ({
			name:
				value.charAt(0) +
				value
					.slice(1)
					.toLowerCase()
					.replace(/_(\w)/g, (_, letter: string) => ` ${letter.toUpperCase()}`),
			value,
		})),
		// no default: how often the new agreement bills is the user's choice
		default: '',
		description: 'How often the new agreement bills; there is no default, choose one',
		routing: { send: { type: 'body', property: 'billing_frequency' } },
	},
];

const additionalFields: INodeProperties[] = [
	{
		displayName: 'Adjustment Credit',
		name: 'adjustmentCredit',
		type: 'number',
		default: 0,
		description: 'Credit granted for the unused part of the current agreement',
		routing: { send: { type: 'body', property: 'adjustment_credit' } },
	},
	{
		displayName: 'Adjustment Credit Label',
		name: 'adjustmentCreditLabel',
		type: 'string',
		default: '',
		routing: { send: { type: 'body', property: 'adjustment_credit_label' } },
	},
	{
		displayName: 'Payment Terms',
		name: 'paymentTerms',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 30,
		description: 'Payment terms of the new agreement, in days',
		routing: { send: { type: 'body', property: 'payment_terms' } },
	},
	{
		displayName: 'Transaction Method',
		name: 'transactionMethod',
		type: 'options',
		options: [
			{ name: 'Order Form', value: 'ORDER_FORM' },
			{ name: 'Payment Processor', value: 'PROCESSOR' },
		],
		default: 'ORDER_FORM',
		routing: { send: { type: 'body', property: 'transaction_method' } },
	},
];

const show = (...operation: string[]) => showFor('subscriptionRecast', operation);

export const subscriptionRecastResource: ResourceDefinition = {
	name: 'Subscription Recast',
	value: 'subscriptionRecast',
	fields: [
		{ ...orderIdField('recast'), displayOptions: show('getSignUrl', 'start', 'delete') },
		...orderCreateFields('subscriptionRecast', 'recast', createFields, additionalFields),
		{
			displayName:
				'Deleting a recast is a soft delete: the order stays, with its stage set to CLOSED_DELETE',
			name: 'softDeleteNotice',
			type: 'notice',
			default: '',
			displayOptions: show('delete'),
		},
	],
	startOperation: 'getMany',
	operations: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a subscription recast',
			description:
				'Prepare a recast order that replaces the current agreement with a new term, bricks and billing; it starts open (stage BUILDING)',
			returns: 'order_id',
			method: 'POST',
			path: '/subscriptions/{subscriptionId}/recast',
			kind: 'write',
			preSend: orderCreateSteps([
				{
					field: 'contract_length',
					label: 'Contract Length (Months)',
					type: 'integer',
					required: true,
					min: 1,
				},
				{
					field: 'billing_frequency',
					label: 'Billing Frequency',
					type: 'string',
					required: true,
					oneOf: BILLING_FREQUENCIES,
				},
				{ field: 'adjustment_credit', label: 'Adjustment Credit', type: 'number' },
				{ field: 'payment_terms', label: 'Payment Terms', type: 'integer', min: 0 },
			]),
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete a subscription recast',
			description:
				'Soft-delete a recast order: its stage becomes CLOSED_DELETE and the order is kept',
			returns: "deleted: true, the order_id and the API's message",
			method: 'DELETE',
			path: '/subscriptions/{subscriptionId}/recast/{orderId}',
			kind: 'write',
			shape: deletedShaper('order_id', 'orderId'),
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many subscription recasts',
			description: 'List the recast orders of a subscription',
			returns: 'the recast orders, each with order_id, stage, starts_at and ends_at',
			method: 'GET',
			path: '/subscriptions/{subscriptionId}/recast',
			kind: 'list',
			paged: false,
		},
		{
			name: 'Get Sign URL',
			value: 'getSignUrl',
			action: 'Get a sign URL for a recast',
			description: 'Get a URL at which the recast order is signed',
			returns: 'url',
			method: 'POST',
			path: '/subscriptions/{subscriptionId}/recast/{orderId}/sign',
			kind: 'read',
			preSend: signSteps,
		},
		{
			name: 'Start',
			value: 'start',
			action: 'Start a subscription recast',
			description: 'Put a prepared recast into effect, replacing the current agreement',
			returns: 'subscription_id',
			method: 'POST',
			path: '/subscriptions/{subscriptionId}/recast/{orderId}/start',
			kind: 'write',
		},
	],
};
