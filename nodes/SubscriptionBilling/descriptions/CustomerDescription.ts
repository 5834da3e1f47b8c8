import type { INodeProperties } from 'n8n-workflow';
import { requireAnyField, validateFields } from '../actions/bodyRules';
import { omitEmptyFields } from '../actions/emptyFields';
import { outputFields, outputShaper, selectedFieldsCheck } from '../actions/output';
import { showFor, type ResourceDefinition } from '../actions/resource';
import { customerOutput } from './outputs';
import { customerIdField } from '../shared/idFields';
import { customerBodyRules, customerNameField, customerOptionalFields } from './customerFields';

const show = (...operation: string[]) => showFor('customer', operation);

const fields: INodeProperties[] = [
	...outputFields(show('getMany', 'search'), customerOutput),
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
			shape: outputShaper(customerOutput),
			preSend: [selectedFieldsCheck(customerOutput)],
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
			shape: outputShaper(customerOutput),
			preSend: [
				selectedFieldsCheck(customerOutput),
				requireAnyField(
					[
						{ field: 'external_id', label: 'External ID' },
						{ field: 'name', label: 'Name' },
						{ field: 'processor_customer_id', label: 'Processor Customer ID' },
					],
					'Search Fields',
				),
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
			preSend: [omitEmptyFields, requireAnyField(customerBodyRules, 'Update Fields'), validateFields(customerBodyRules)],
		},
	],
};
