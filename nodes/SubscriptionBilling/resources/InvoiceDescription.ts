import type { INodeProperties } from 'n8n-workflow';
import { validateFields } from '../execute/bodyRules';
import { OUTPUT_PARAMETERS, showFor, type ResourceDefinition } from '../editor';
import { invoiceOutput } from '../execute/output';
import { structuredInputFields, structuredInputStep } from './inputs/structuredInput';
import { UUID } from '../shared/idChecks';
import { customerIdField } from '../shared/idFields';
import { subscriptionId } from './sharedFields';
import { stringListInput } from './inputs/stringList';

const show = (...operation: string[]) => showFor('invoice', operation);

const invoiceNumbers = stringListInput(
	'invoiceNumbers',
	'Invoice Numbers',
	'invoice_numbers',
	'Invoice Number',
	'Only invoices with these numbers',
	['INV-0001', 'INV-0002'],
);
const invoiceIds = stringListInput(
	'invoiceIds',
	'Invoice IDs',
	'invoice_ids',
	'Invoice ID',
	'Only invoices with these UUIDs',
	['3f2c8a4e-9b1d-4e7a-8c55-1d2e3f4a5b6c', '7a9e1c3b-5d2f-4b8e-a6c4-0f1e2d3c4b5a'],
	UUID,
);

function sortOption(
	values: Array<[string, string]>,
	defaultValue: string,
	description: string,
): INodeProperties {
	return {
		displayName: 'Sort',
		name: 'ordering',
		type: 'options',
		options: values.map(([name, value]) => ({ name, value })),
		default: defaultValue,
		description,
		routing: { send: { type: 'query', property: 'ordering' } },
	};
}

const fields: ResourceDefinition['fields'] = [
	{
		displayName:
			"The API searches one customer's invoices at a time: a customer is required. For a subscription's invoices use Get Many for Subscription; to search every customer, run this once per customer (e.g. after Customer → Get Many).",
		name: 'searchNotice',
		type: 'notice',
		default: '',
		displayOptions: show('search'),
	},
	OUTPUT_PARAMETERS,
	{ ...customerIdField, displayOptions: show('getManyForCustomer') },
	{
		...customerIdField,
		description: 'The customer whose invoices are searched: the API requires one',
		displayOptions: show('search'),
		routing: { send: { type: 'body', property: 'customer_id' } },
	},
	...structuredInputFields(invoiceNumbers, show('search')),
	...structuredInputFields(invoiceIds, show('search')),
	subscriptionId,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: show('getManyForCustomer'),
		options: [
			sortOption(
				[
					['Due Date, Newest First', '-due_at'],
					['Due Date, Oldest First', 'due_at'],
					['Issue Date, Newest First', '-issued_at'],
					['Issue Date, Oldest First', 'issued_at'],
				],
				'-issued_at',
				'Order of the invoices; without it the API lists the newest first',
			),
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: show('getManyForSubscription'),
		options: [
			{
				displayName: 'Scope',
				name: 'scope',
				type: 'options',
				options: [
					{ name: 'All', value: 'all' },
					{ name: 'Current', value: 'current', description: 'Invoices of the current agreement' },
					{ name: 'Past', value: 'past', description: 'Invoices of earlier agreements' },
				],
				default: 'all',
				routing: { send: { type: 'query', property: 'scope' } },
			},
			sortOption(
				[
					['Amount, Largest First', '-amount'],
					['Amount, Smallest First', 'amount'],
					['Created, Newest First', '-created_at'],
					['Created, Oldest First', 'created_at'],
					['Due Date, Newest First', '-due_at'],
					['Due Date, Oldest First', 'due_at'],
				],
				'-created_at',
				'Order of the invoices',
			),
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
			action: 'Get many customer invoices',
			description: "List a customer's invoices, newest first, subscription and standalone alike",
			method: 'GET',
			path: '/customers/{customerId}/invoices',
			kind: 'list',
			paged: true,
			output: invoiceOutput,
		},
		{
			name: 'Get Many for Subscription',
			value: 'getManyForSubscription',
			action: 'Get many subscription invoices',
			description: "List a subscription's invoices, of the current agreement, past ones, or all",
			method: 'GET',
			path: '/subscriptions/{subscriptionId}/invoices',
			kind: 'list',
			paged: true,
			output: invoiceOutput,
		},
		{
			name: 'Search',
			value: 'search',
			action: 'Search invoices',
			description: "Find a customer's invoices by invoice number or invoice ID",
			method: 'POST',
			path: '/invoices/search',
			kind: 'list',
			paged: true,
			output: invoiceOutput,
			preSend: [
				structuredInputStep(invoiceNumbers),
				structuredInputStep(invoiceIds),
				validateFields([
					{
						field: 'customer_id',
						label: customerIdField.displayName,
						type: 'string',
						required: true,
					},
				]),
			],
		},
	],
};
