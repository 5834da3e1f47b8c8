import type { INodeProperties } from 'n8n-workflow';
import { validateFields, omitEmptyFields, sendEmptyJsonObject } from '../execute/bodyRules';
import { showFor, type ResourceDefinition } from '../editor';
import { subscriptionOutput } from '../execute/output';
import { redirectUrlField, redirectUrlRule } from './redirectUrl';

const show = (...operation: string[]) => showFor('subscription', operation);

const fields: INodeProperties[] = [
	{
		...redirectUrlField,
		required: false,
		description:
			'Absolute http(s) URL the signer is sent to after signing; leave empty to send none',
		displayOptions: show('getSignUrl'),
	},
];

export const subscriptionResource: ResourceDefinition = {
	name: 'Subscription',
	value: 'subscription',
	fields,
	operations: [
		{
			name: 'Get',
			value: 'get',
			action: 'Get a subscription',
			description:
				'Get a subscription by ID with its status, dates, totals, customer, billing, line items, schedule, phases, pauses and contacts',
			method: 'GET',
			path: '/subscriptions/{subscriptionId}',
			kind: 'read',
			output: subscriptionOutput,
		},
		{
			name: 'Get Management URL',
			value: 'getManagementUrl',
			action: 'Get a management URL',
			description:
				'Get a short-lived billing portal URL where the customer manages the subscription',
			returns: 'url and url_expires_at',
			method: 'GET',
			path: '/subscriptions/{subscriptionId}/billing-portal',
			kind: 'read',
		},
		{
			name: 'Get Sign URL',
			value: 'getSignUrl',
			action: 'Get a sign URL for a subscription',
			description: "Get a URL at which the subscription's open order is signed",
			returns: 'url',
			method: 'POST',
			path: '/subscriptions/{subscriptionId}/sign',
			kind: 'read',
			preSend: [
				omitEmptyFields,
				validateFields([{ ...redirectUrlRule, required: false }]),
				sendEmptyJsonObject,
			],
		},
	],
};
