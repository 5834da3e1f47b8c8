import type { INodeProperties } from 'n8n-workflow';
import { requireAnyField, validateFields } from '../shared/bodyRules';
import { omitEmptyFields } from '../shared/emptyFields';
import { outputFields, outputShaper } from '../shared/output';
import { showFor, type ResourceDefinition } from '../shared/resource';
import { simplifyCustomer } from './simplifiers';
import { customerIdField } from './idFields';
import { CUSTOMER_BODY_FIELDS, customerBodyRules, customerNameField, customerOptionalFields } from './customerFields';

const show = (...operation: string[]) => showFor('customer', operation);

const fields: INodeProperties[] = [
	...outputFields(show('getMany', 'search'), 'ID, names, external and processor IDs, tax ID, country and the active subscriptions'),
	{ ...customerNameField(true), displayOptions: show('create') },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add field',
		default: {},
		displayOptions: show('create'),
		options: customerOptionalFields,
	},
	{ ...customerIdField, displayOptions: show('update') },
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add field',
		default: {},
		displayOptions: show('update'),
		description: 'Only the fields given are changed',
		options: [customerNameField(false), ...customerOptionalFields].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
	{
		displayName: 'Search Fields',
		name: 'searchFields',
		type: 'collection',
		placeholder: 'Add search field',
		default: {},
		displayOptions: show('search'),
		description: 'Customers matching every field given are returned; give at least one',
		options: [
			{
				displayName: 'External ID',
				name: 'externalId',
				type: 'string',
				default: '',
				description: 'Exact match on your own ID for the customer',
				routing: { send: { type: 'body', property: 'external_id' } },
			},
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description: 'Case-insensitive part of the name',
				routing: { send: { type: 'body', property: 'name' } },
			},
			{
				displayName: 'Processor Customer ID',
				name: 'processorCustomerId',
				type: 'string',
				default: '',
				description: 'Exact match on the ID at the card payment processor',
				routing: { send: { type: 'body', property: 'processor_customer_id' } },
			},
		],
	},
];

export const customerResource: ResourceDefinition = {
	name: 'Customer',
	value: 'customer',
	fields,
	operations: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a customer',
			description: 'Create a customer; only the name is required and it must be unique',
			method: 'POST',
			path: '/customers',
			kind: 'write',
			preSend: [omitEmptyFields, validateFields([{ ...customerBodyRules[0], required: true }, ...customerBodyRules.slice(1)])],
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many customers',
			description: 'List all customers',
			method: 'GET',
			path: '/customers',
			kind: 'list',
			paged: true,
			shape: outputShaper(simplifyCustomer),
		},
		{
			name: 'Search',
			value: 'search',
			action: 'Search customers',
			description: 'Find customers by part of the name, by external ID or by processor customer ID',
			method: 'POST',
			path: '/customers/search',
			kind: 'list',
			paged: true,
			shape: outputShaper(simplifyCustomer),
			preSend: [
				requireAnyField(['name', 'external_id', 'processor_customer_id'], 'Search Fields'),
				validateFields(customerBodyRules),
			],
		},
		{
			name: 'Update',
			value: 'update',
			action: 'Update a customer',
			description: 'Change some fields of a customer; fields not given stay as they are',
			method: 'PATCH',
			path: '/customers/{customerId}',
			kind: 'write',
			preSend: [omitEmptyFields, requireAnyField(CUSTOMER_BODY_FIELDS, 'Update Fields'), validateFields(customerBodyRules)],
		},
	],
};
