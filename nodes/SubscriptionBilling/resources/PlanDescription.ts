import type { INodeProperties } from 'n8n-workflow';
import { showFor, type ResourceDefinition } from '../editor';
import { planIdField } from '../shared/idFields';
import { limit, returnAll } from './sharedFields';

const show = (...operation: string[]) => showFor('plan', operation);

const fields: INodeProperties[] = [
	{ ...planIdField, displayOptions: show('get') },
	{
		displayName: 'Sort',
		name: 'ordering',
		type: 'options',
		options: [
			{ name: 'Created, Newest First', value: '-created_at' },
			{ name: 'Created, Oldest First', value: 'created_at' },
		],
		default: '-created_at',
		description:
			'Order of the plans. The order shown is always sent: the documents do not say which order the API uses without one.',
		displayOptions: show('getMany'),
		routing: { send: { type: 'query', property: 'ordering' } },
	},
	returnAll.paged,
	limit,
];

export const planResource: ResourceDefinition = {
	name: 'Plan',
	value: 'plan',
	fields,
	operations: [
		{
			name: 'Get',
			value: 'get',
			action: 'Get a plan',
			description: 'Get a plan with its bricks (line items that can be sold)',
			returns: 'plan_id, plan_name and bricks (brick_id, brick_name, brick_type)',
			method: 'GET',
			path: '/plans/{planId}',
			kind: 'read',
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many plans',
			description: 'List the plans with their bricks',
			returns:
				'the plans, each with plan_id, plan_name and bricks (brick_id, brick_name, brick_type)',
			method: 'GET',
			path: '/plans',
			kind: 'list',
			paged: true,
		},
	],
};
