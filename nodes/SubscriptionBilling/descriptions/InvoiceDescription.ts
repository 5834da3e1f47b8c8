import type { INodeProperties } from 'n8n-workflow';
import { showFor, type ResourceDefinition } from '../shared/resource';
import { customerIdField } from './idFields';

const show = (...operation: string[]) => showFor('invoice', operation);

const fields: INodeProperties[] = [
	{ ...customerIdField, displayOptions: show('getManyForCustomer') },
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: show('getManyForCustomer'),
		options: [
			{
				displayName: 'Sort',
				name: 'ordering',
				type: 'options',
				options: [
					{ name: 'Due Date, Newest First', value: '-due_at' },
					{ name: 'Due Date, Oldest First', value: 'due_at' },
					{ name: 'Issue Date, Newest First', value: '-issued_at' },
					{ name: 'Issue Date, Oldest First', value: 'issued_at' },
				],
				default: '-issued_at',
				description: 'Order of the invoices; without it the API lists the newest first',
				routing: { send: { type: 'query', property: 'ordering' } },
			},
		],
	},
];

export const invoiceResource: ResourceDefinition = {
	name: 'Invoice',
	value: 'invoice',
	fields,
	operations: [
		{
			name: 'Get Many for Customer',
			value: 'getManyForCustomer',
			action: 'Get many invoices of a customer',
			description: "List a customer's invoices, subscription and standalone alike",
			method: 'GET',
			path: '/customers/{customerId}/invoices',
			kind: 'list',
		},
	],
};
