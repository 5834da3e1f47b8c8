import type { INodeProperties } from 'n8n-workflow';
import type { FieldRule } from '../execute/bodyRules';

function bodyField(displayName: string, name: string, apiName: string, description: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		default: '',
		description,
		routing: { send: { type: 'body', property: apiName } },
	};
}

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

/** The customer body fields other than the name, shared by create and update. */
export const customerOptionalFields: INodeProperties[] = [
	addressField,
	bodyField('External ID', 'externalId', 'external_id', "Your own ID for the customer, at most 255 characters"),
	bodyField('Legal Name', 'legalName', 'legal_name', 'Used as the buyer name on invoices'),
	bodyField('Processor Customer ID', 'processorCustomerId', 'processor_customer_id', 'ID of the customer at the card payment processor, at most 255 characters'),
	bodyField('Tax ID', 'taxId', 'tax_id', 'Tax identification number, such as an employer number or a VAT number'),
];

export const customerNameField = (required: boolean): INodeProperties => ({
	...bodyField('Name', 'name', 'name', 'Name of the customer; names are unique'),
	required,
});

export const customerBodyRules: FieldRule[] = [
	{ field: 'name', label: 'Name', type: 'string' },
	{ field: 'legal_name', label: 'Legal Name', type: 'string' },
	{ field: 'external_id', label: 'External ID', type: 'string', maxLength: 255 },
	{ field: 'processor_customer_id', label: 'Processor Customer ID', type: 'string', maxLength: 255 },
	{ field: 'tax_id', label: 'Tax ID', type: 'string' },
	{ field: 'address', label: 'Address', type: 'object' },
];
