import type { INodeProperties } from 'n8n-workflow';
import { validateFields } from '../execute/bodyRules';
import { showFor, type ResourceDefinition } from '../editor';
import { milestoneIdField } from '../shared/idFields';

const show = (...operation: string[]) => showFor('subscriptionMilestone', operation);

const IMMEDIATE_ONLY_DATES: Array<[string, string, string, string]> = [
	['Due At', 'dueAt', 'due_at', 'Due date of the standalone invoice'],
	['Issued At', 'issuedAt', 'issued_at', 'Issue date of the standalone invoice'],
	['Service Date', 'serviceDate', 'service_date', 'Date the milestone work was delivered'],
];

const BILL_ON = [
	{ name: 'Immediately', value: 'IMMEDIATELY', description: 'Raise a standalone invoice now' },
	{
		name: 'Next Invoice',
		value: 'NEXT_INVOICE',
		description: "Bill on the subscription's next scheduled invoice",
	},
];

const fields: INodeProperties[] = [
	{ ...milestoneIdField, displayOptions: show('complete') },
	{
		displayName: 'Quantity',
		name: 'quantity',
		type: 'number',
		typeOptions: { minValue: 1 },
		required: true,
		default: null,
		placeholder: 'e.g. 1',
		description:
			"Quantity completed now, a whole number of at least 1; the completed total may not pass the milestone's total",
		displayOptions: show('complete'),
		routing: { send: { type: 'body', property: 'quantity' } },
	},
	{
		displayName: 'Bill On',
		name: 'billOn',
		type: 'options',
		required: true,
		options: BILL_ON,
		// no default: raising an invoice now or later is the user's choice
		default: '',
		description: 'When the completed quantity is billed; there is no default, choose one',
		displayOptions: show('complete'),
		routing: { send: { type: 'body', property: 'bill_on' } },
	},
	{
		displayName: 'Invoice Dates',
		name: 'invoiceDates',
		type: 'collection',
		placeholder: 'Add date',
		default: {},
		description:
			'Dates of the standalone invoice (YYYY-MM-DD); they apply only when billing immediately, so they are not sent for Next Invoice',
		displayOptions: {
			show: {
				resource: ['subscriptionMilestone'],
				operation: ['complete'],
				billOn: ['IMMEDIATELY'],
			},
		},
		options: IMMEDIATE_ONLY_DATES.map(([displayName, name, apiName, description]) => ({
			displayName,
			name,
			type: 'string' as const,
			default: '',
			placeholder: 'e.g. 2026-10-01',
			description,
			routing: { send: { type: 'body' as const, property: apiName } },
		})),
	},
];

export const subscriptionMilestoneResource: ResourceDefinition = {
	name: 'Subscription Milestone',
	value: 'subscriptionMilestone',
	fields,
	startOperation: 'getMany',
	operations: [
		{
			name: 'Complete',
			value: 'complete',
			action: 'Complete a milestone',
			description:
				'Record delivered work on a milestone brick and bill it now or on the next invoice',
			returns:
				'the milestone with its quantity completed and remaining, and the invoice it was billed on',
			method: 'POST',
			path: '/subscriptions/{subscriptionId}/milestones/{milestoneId}/complete',
			kind: 'write',
			preSend: [
				validateFields([
					{ field: 'quantity', label: 'Quantity', type: 'integer', required: true, min: 1 },
					{
						field: 'bill_on',
						label: 'Bill On',
						type: 'string',
						required: true,
						oneOf: ['IMMEDIATELY', 'NEXT_INVOICE'],
					},
					...IMMEDIATE_ONLY_DATES.map(([label, , field]) => ({
						field,
						label,
						type: 'date' as const,
					})),
				]),
			],
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many milestones',
			description:
				'List the milestones of the current agreement with quantity contracted and completed',
			returns:
				'the milestones, each with milestone_id, brick_id, brick_name, quantity, quantity_completed and quantity_remaining',
			method: 'GET',
			path: '/subscriptions/{subscriptionId}/milestones',
			kind: 'list',
			paged: false,
		},
	],
};
