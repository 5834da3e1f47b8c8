import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { showFor, type ResourceDefinition } from '../shared/resource';
import { orderIdField, subscriptionIdField } from './idFields';

const show = (...operation: string[]) => showFor('subscriptionRecast', operation);

const fields: INodeProperties[] = [
	{ ...subscriptionIdField, displayOptions: show('delete') },
	{
		...orderIdField,
		description: 'UUID of the recast order to delete',
		displayOptions: show('delete'),
	},
	{
		displayName: 'Deleting a recast is a soft delete: the order stays, with its stage set to CLOSED_DELETE',
		name: 'softDeleteNotice',
		type: 'notice',
		default: '',
		displayOptions: show('delete'),
	},
];

export const subscriptionRecastResource: ResourceDefinition = {
	name: 'Subscription Recast',
	value: 'subscriptionRecast',
	fields,
	operations: [
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete a subscription recast',
			description: 'Soft-delete a recast order: its stage becomes CLOSED_DELETE and the order is kept',
			method: 'DELETE',
			path: '/subscriptions/{subscriptionId}/recast/{orderId}',
			kind: 'write',
			shape(result) {
				return { deleted: true, order_id: this.getNodeParameter('orderId') as string, ...(result as IDataObject) };
			},
		},
	],
};
