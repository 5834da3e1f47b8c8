import type { INodeProperties } from 'n8n-workflow';
import {
	requireAnyField,
	validateFields,
	omitEmptyFields,
	type FieldRule,
} from '../execute/bodyRules';
import { OUTPUT_PARAMETERS, showFor, type ResourceDefinition } from '../editor';
import {
	type ListLookup,
	matchValueCheck,
	type MatchField,
	type Upsert,
} from '../execute/composite';
import { MAX_PAGE_SIZE } from '../shared/constants';
import { customerOutput } from '../execute/output';
import { customerIdField } from '../shared/idFields';

/** The customer's body fields, each said once: its check (API field, label as the editor shows it) and its parameter. */
const customerBody: Array<{ rule: FieldRule; parameter: string; description?: string }> = [
	{
		rule: { field: 'name', label: 'Name', type: 'string' },
		parameter: 'name',
		description: 'Name of the customer; names are unique',
	},
	{
		rule: { field: 'legal_name', label: 'Legal Name', type: 'string' },
		parameter: 'legalName',
		description: 'Used as the buyer name on invoices',
	},
	{
		rule: { field: 'external_id', label: 'External ID', type: 'string', maxLength: 255 },
		parameter: 'externalId',
		description: 'Your own ID for the customer, at most 255 characters',
	},
	{
		rule: {
			field: 'processor_customer_id',
			label: 'Processor Customer ID',
			type: 'string',
			maxLength: 255,
		},
		parameter: 'processorCustomerId',
		description: 'ID of the customer at the card payment processor, at most 255 characters',
	},
	{
		rule: { field: 'tax_id', label: 'Tax ID', type: 'string' },
		parameter: 'taxId',
		description: 'Tax identification number, such as an employer number or a VAT number',
	},
	{ rule: { field: 'address', label: 'Address', type: 'object' }, parameter: 'address' },
];

const customerBodyRules: FieldRule[] = customerBody.map(({ rule }) => rule);

const addressField: INodeProperties = {
	displayName: 'Address',
	name: 'address',
	type: 'collection',
	placeholder: 'Add address field',
	default: {},
	options: [
		['Line 1', 'line1', 'line_1'],
		['Line 2', 'line2', 'line_2'],
		['City', 'city', 'city'],
		['Region', 'region', 'region'],
		['ZIP', 'zip', 'zip'],
		['Country', 'country', 'country'],
	].map(([displayName, name, apiName]) => ({
		displayName,
		name,
		type: 'string' as const,
		default: '',
		routing: { send: { type: 'body' as const, property: `address.${apiName}` } },
	})),
};

function bodyField({
	rule,
	parameter,
	description,
}: (typeof customerBody)[number]): INodeProperties {
	if (rule.type === 'object') return addressField;
	return {
		displayName: rule.label,
		name: parameter,
		type: 'string',
		default: '',
		description,
		routing: { send: { type: 'body', property: rule.field } },
	};
}

/** The customer body fields other than the name, shared by create and update. */
const customerOptionalFields: INodeProperties[] = customerBody
	.filter(({ rule }) => rule.field !== 'name')
	.map(bodyField)
	.sort((a, b) => a.displayName.localeCompare(b.displayName));

const customerNameField = (required: boolean): INodeProperties => ({
	...bodyField(customerBody[0]),
	required,
});

const show = (...operation: string[]) => showFor('customer', operation);

const byId: ListLookup = {
	parameter: 'customerId',
	label: customerIdField.displayName,
	field: 'customer_id',
	noun: 'customer',
};

/** A create needs the name. */
const createRules = [{ ...customerBodyRules[0], required: true }, ...customerBodyRules.slice(1)];

const matchFields: MatchField[] = [
	{ parameter: 'externalId', label: 'External ID', field: 'external_id' },
	{
		parameter: 'processorCustomerId',
		label: 'Processor Customer ID',
		field: 'processor_customer_id',
	},
];

const upsert: Upsert = {
	matchBy: 'matchBy',
	matchFields,
	searchPath: '/customers/search',
	updatePath: '/customers/{id}',
	idField: 'customer_id',
	noun: 'customer',
};

/** Create or Update: the match field on its own, the other fields as for Create. */
function upsertFields(): INodeProperties[] {
	const optional = (match: MatchField) =>
		customerOptionalFields.filter((field) => field.name !== match.parameter);
	return [
		{
			displayName: 'Match By',
			name: 'matchBy',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'External ID', value: 'externalId', description: 'Your own ID for the customer' },
				{
					name: 'Processor Customer ID',
					value: 'processorCustomerId',
					description: 'The ID of the customer at the card payment processor',
				},
			],
			default: 'externalId',
			description:
				'The field that tells whether the customer exists: one Search by it, then a create or an update of the customer found',
			displayOptions: show('upsert'),
		},
		...matchFields.flatMap((match): INodeProperties[] => {
			const field = customerOptionalFields.find(
				(candidate) => candidate.name === match.parameter,
			) as INodeProperties;
			const onlyFor = {
				show: { resource: ['customer'], operation: ['upsert'], matchBy: [match.parameter] },
			};
			return [
				{
					...field,
					required: true,
					description: `${field.description}; the customer with this value is updated, or created when there is none`,
					displayOptions: onlyFor,
				},
				{
					displayName: 'Additional Fields',
					name: 'additionalFields',
					type: 'collection',
					placeholder: 'Add field',
					default: {},
					displayOptions: onlyFor,
					options: optional(match),
				},
			];
		}),
	];
}

const fields: ResourceDefinition['fields'] = [
	{
		displayName: `The API has no get by ID for customers: this reads the customer list, ${MAX_PAGE_SIZE} a request, until the customer is found (one request per ${MAX_PAGE_SIZE} customers listed before it; the whole list for an ID that does not exist). To find customers by name or by your own ID, Search is one request.`,
		name: 'getNotice',
		type: 'notice',
		default: '',
		displayOptions: show('get'),
	},
	{ ...customerIdField, displayOptions: show('get', 'update') },
	OUTPUT_PARAMETERS,
	{ ...customerNameField(true), displayOptions: show('create', 'upsert') },
	...upsertFields(),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add field',
		default: {},
		displayOptions: show('create'),
		options: customerOptionalFields,
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add field',
		default: {},
		displayOptions: show('update'),
		description: 'Only the fields given are changed',
		options: [customerNameField(false), ...customerOptionalFields].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
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
				description:
					'Customers whose name contains this text as typed, ignoring case: the API\'s own match, so word order and spaces count ("acme corp" finds Acme Corporation, "corp acme" does not). The Subscription and Plan pickers instead match each word in any order.',
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
	startOperation: 'getMany',
	operations: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a customer',
			description: 'Create a customer; only the name is required and it must be unique',
			method: 'POST',
			path: '/customers',
			kind: 'write',
			output: customerOutput,
			preSend: [omitEmptyFields, validateFields(createRules)],
		},
		{
			name: 'Create or Update',
			value: 'upsert',
			action: 'Create or update a customer',
			description: 'Create a new record, or update the current one if it already exists (upsert)',
			toolSummary:
				'Create a customer, or update the one that already has the given External ID or Processor Customer ID (Match By): one search by that value, then an update of the customer found or a create. The result says which in action: created or updated',
			builderHint: {
				propertyHint:
					'The onboarding step: finds the customer by its External ID (your own ID) or Processor Customer ID, updates it when found and creates it otherwise; output has action created or updated',
			},
			method: 'POST',
			path: '/customers',
			kind: 'write',
			upsert,
			output: customerOutput,
			preSend: [omitEmptyFields, matchValueCheck(upsert), validateFields(createRules)],
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a customer',
			description: `Find a customer by its ID in the customer list (the API has no get by ID): one request per ${MAX_PAGE_SIZE} customers listed before it`,
			builderHint: {
				propertyHint:
					'Needs the customer_id from an earlier node; to find a customer by your own ID use Search with External ID, one request',
			},
			method: 'GET',
			path: '/customers',
			kind: 'read',
			lookup: byId,
			output: customerOutput,
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many customers',
			description: 'List all customers with their subscriptions',
			method: 'GET',
			path: '/customers',
			kind: 'list',
			paged: true,
			output: customerOutput,
		},
		{
			name: 'Search',
			value: 'search',
			action: 'Search customers',
			description: 'Find customers by part of the name, by external ID or by processor customer ID',
			builderHint: {
				propertyHint:
					'Finds customers by External ID (your own ID), Name or Processor Customer ID in one request; give at least one Search Field',
			},
			method: 'POST',
			path: '/customers/search',
			kind: 'list',
			paged: true,
			output: customerOutput,
			preSend: [
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
			description: "Change a customer's name, address or IDs; fields not given stay as they are",
			method: 'PATCH',
			path: '/customers/{customerId}',
			kind: 'write',
			output: customerOutput,
			preSend: [
				omitEmptyFields,
				requireAnyField(customerBodyRules, 'Update Fields'),
				validateFields(customerBodyRules),
			],
		},
	],
};
