import type { INodeProperties } from 'n8n-workflow';

export const customerIdField: INodeProperties = {
	displayName: 'Customer ID',
	name: 'customerId',
	type: 'string',
	required: true,
	default: '',
	description: 'ID of the customer (letters, digits and hyphens)',
};

export const subscriptionIdField: INodeProperties = {
	displayName: 'Subscription ID',
	name: 'subscriptionId',
	type: 'string',
	required: true,
	default: '',
	description: 'ID of the subscription (letters, digits and hyphens)',
};

export const orderIdField: INodeProperties = {
	displayName: 'Order ID',
	name: 'orderId',
	type: 'string',
	required: true,
	default: '',
	description: 'UUID of the order',
};
