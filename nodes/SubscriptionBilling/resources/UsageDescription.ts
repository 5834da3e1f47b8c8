import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { validateFields, type FieldRule } from '../execute/bodyRules';
import type { Again } from '../execute/perform';
import { errorFieldsOf } from '../shared/apiError';
import { quoted } from '../shared/invalidInput';
import { deletedShaper, writtenShaper } from '../execute/output';
import { showFor, type ResourceDefinition } from '../editor';
import { structuredInputFields, structuredInputStep } from './inputs/structuredInput';
import { brickIdField, subscriptionIdField } from '../shared/idFields';
import { keyValueObjectInput } from './inputs/keyValueObject';
import { faultHandling } from './sharedFields';

const usageProperties = keyValueObjectInput(
	'properties',
	'Properties',
	'properties',
	'Free-form key/value properties attached to the entry',
);

const show = (...operation: string[]) => showFor('usage', operation);

const fields: INodeProperties[] = [
	{
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		description: 'Unique identifier of the usage entry',
		displayOptions: show('create', 'update', 'delete'),
		routing: { send: { type: 'body', property: 'transaction_id' } },
	},
	{
		...subscriptionIdField,
		description: 'The subscription the usage is billed on',
		displayOptions: show('create'),
		routing: { send: { type: 'body', property: 'subscription_id' } },
	},
	{
		...brickIdField,
		description:
			'The usage-based brick (line item) of the subscription: pick it from the usage bricks of the plans or give its ID',
		displayOptions: show('create'),
		routing: { send: { type: 'body', property: 'brick_id' } },
	},
	{
		displayName: 'Value',
		name: 'value',
		type: 'number',
		required: true,
		default: null,
		placeholder: 'e.g. 120',
		description:
			'The usage amount; a whole number when creating an entry. It has no default: an entry is never set to a value you did not give.',
		displayOptions: show('create', 'update'),
		routing: { send: { type: 'body', property: 'value' } },
	},
	{
		displayName: 'Time',
		name: 'time',
		type: 'string',
		required: true,
		default: '={{ $now.toUTC().toISO() }}',
		description: 'When the usage happened, as an ISO 8601 date-time with a time zone',
		displayOptions: show('create'),
		routing: { send: { type: 'body', property: 'time' } },
	},
	...structuredInputFields(usageProperties, show('create', 'update')),
	faultHandling.write,
];

const transactionRule: FieldRule = {
	field: 'transaction_id',
	label: 'Transaction ID',
	type: 'string',
	required: true,
};

/**
 * A transaction ID is recorded once: the API refuses a second entry with it, so Usage → Create run
 * again records nothing twice. The contract does not say how it refuses: a 409, or a 400/422 whose
 * message names transaction_id and says it exists (the sandbox: "A usage entry with transaction_id
 * '…' already exists.").
 */
const recordedOnce: Again = {
	applied: () =>
		'running the node again records nothing twice: the API refuses a Transaction ID it already has',
	madeBefore(error, request) {
		const { status, apiMessage } = errorFieldsOf(error);
		const saysExists =
			/transaction_id/i.test(apiMessage ?? '') && /exist|duplicate|unique/i.test(apiMessage ?? '');
		if (!(status === 409 || ((status === 400 || status === 422) && saysExists))) return undefined;
		const transactionId = ((request.body ?? {}) as IDataObject).transaction_id;
		return `The API already has a usage entry with Transaction ID ${quoted(transactionId)} (recorded by an earlier run, or by another entry given the same ID), so this one was not recorded: nothing was applied twice. To change that entry's value, use Usage → Update with this Transaction ID; for a new entry, give a new Transaction ID.`;
	},
};

export const usageResource: ResourceDefinition = {
	name: 'Usage',
	value: 'usage',
	fields,
	operations: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a usage entry',
			description: 'Record usage of a usage-based brick; the transaction ID must be new',
			returns: 'the entry: transaction_id, subscription_id, brick_id, value and time',
			builderHint: {
				propertyHint:
					'Meters usage: Transaction ID is unique per entry, so build it from the source event ID (never from the time or a random value) and a re-run cannot record it twice',
			},
			method: 'POST',
			path: '/usage',
			kind: 'write',
			again: recordedOnce,
			preSend: [
				structuredInputStep(usageProperties),
				validateFields([
					transactionRule,
					{
						field: 'subscription_id',
						label: subscriptionIdField.displayName,
						type: 'string',
						required: true,
					},
					{ field: 'brick_id', label: brickIdField.displayName, type: 'string', required: true },
					{ field: 'value', label: 'Value', type: 'integer', required: true },
					{ field: 'time', label: 'Time', type: 'dateTime', required: true },
				]),
			],
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete a usage entry',
			description: 'Delete a usage entry by its transaction ID',
			returns: "deleted: true, the transaction_id and the API's message",
			method: 'DELETE',
			path: '/usage',
			kind: 'write',
			preSend: [validateFields([transactionRule])],
			shape: deletedShaper('transaction_id', 'transactionId'),
		},
		{
			name: 'Update',
			value: 'update',
			action: 'Update a usage entry',
			description:
				'Change the value (and properties) of a usage entry; the output shows what was written',
			returns: "the API's message and the transaction_id, value and properties written",
			method: 'PATCH',
			path: '/usage',
			kind: 'write',
			preSend: [
				structuredInputStep(usageProperties),
				validateFields([
					transactionRule,
					{ field: 'value', label: 'Value', type: 'number', required: true },
				]),
			],
			shape: writtenShaper(['transaction_id', 'value', 'properties']),
		},
	],
};
