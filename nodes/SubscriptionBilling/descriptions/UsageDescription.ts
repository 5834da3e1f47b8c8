import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { validateFields, type FieldRule } from '../shared/bodyRules';
import { parseJsonParameter } from '../shared/jsonParameter';
import { showFor, type ResourceDefinition } from '../shared/resource';
import { invalidInput } from '../shared/invalidInput';

const show = (...operation: string[]) => showFor('usage', operation);

const fields: INodeProperties[] = [
	{
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		description: 'Unique identifier of the usage entry',
		displayOptions: show('update', 'delete'),
		routing: { send: { type: 'body', property: 'transaction_id' } },
	},
	{
		displayName: 'Value',
		name: 'value',
		type: 'number',
		required: true,
		default: 0,
		description: 'The usage amount',
		displayOptions: show('update'),
		routing: { send: { type: 'body', property: 'value' } },
	},
	{
		displayName: 'Properties',
		name: 'specifyProperties',
		type: 'options',
		options: [
			{ name: 'None', value: 'none' },
			{ name: 'Using Fields Below', value: 'keypair' },
			{ name: 'Using JSON', value: 'json' },
		],
		default: 'none',
		description: 'Free-form key/value properties attached to the entry',
		displayOptions: show('update'),
	},
	{
		displayName: 'Properties',
		name: 'propertiesUi',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add property',
		default: {},
		displayOptions: { show: { resource: ['usage'], operation: ['update'], specifyProperties: ['keypair'] } },
		options: [
			{
				displayName: 'Property',
				name: 'property',
				values: [
					{ displayName: 'Key', name: 'key', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	{
		displayName: 'Properties (JSON)',
		name: 'propertiesJson',
		type: 'json',
		default: '{}',
		description: 'A JSON object, e.g. {"region": "eu", "seats": 3}',
		displayOptions: { show: { resource: ['usage'], operation: ['update'], specifyProperties: ['json'] } },
	},
];

async function addProperties(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
	const mode = this.getNodeParameter('specifyProperties', 'none') as string;
	if (mode === 'none') return requestOptions;
	let properties: IDataObject;
	if (mode === 'json') {
		properties = parseJsonParameter(this, this.getNodeParameter('propertiesJson', '{}'), 'Properties (JSON)', 'object') as IDataObject;
	} else {
		const pairs = this.getNodeParameter('propertiesUi.property', []) as Array<{ key: string; value: string }>;
		properties = {};
		for (const [index, pair] of pairs.entries()) {
			if (!pair.key) throw invalidInput(this, `Properties, row ${index + 1}`, 'has no key');
			properties[pair.key] = pair.value;
		}
	}
	(requestOptions.body as IDataObject).properties = properties;
	return requestOptions;
}

const transactionRule: FieldRule = { field: 'transaction_id', label: 'Transaction ID', type: 'string', required: true };

export const usageResource: ResourceDefinition = {
	name: 'Usage',
	value: 'usage',
	fields,
	operations: [
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete a usage entry',
			description: 'Delete a usage entry by its transaction ID',
			method: 'DELETE',
			path: '/usage',
			kind: 'write',
			preSend: [validateFields([transactionRule])],
			shape(result) {
				return { deleted: true, transaction_id: this.getNodeParameter('transactionId') as string, ...result };
			},
		},
		{
			name: 'Update',
			value: 'update',
			action: 'Update a usage entry',
			description: 'Change the value (and properties) of a usage entry',
			method: 'PATCH',
			path: '/usage',
			kind: 'write',
			preSend: [
				addProperties,
				validateFields([transactionRule, { field: 'value', label: 'Value', type: 'number', required: true }]),
			],
		},
	],
};
