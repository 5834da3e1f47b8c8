import type { INodeProperties } from 'n8n-workflow';
import { customerIdField } from '../shared/idFields';
import { invoiceSettings } from './invoiceSettings';

const INVOICE_EVENTS = ['invoiceOverdue', 'invoicePaid', 'invoicePaymentFailed', 'newInvoice'];

export const SUBSCRIPTION_STATUSES = [
	'ACTIVE',
	'INACTIVE',
	'OPEN_ORDER',
	'ORDER_NEEDED',
	'PAUSED',
	'SCHEDULED',
	'SUPERSEDED',
	'TERMINATED',
	'TERMINATING',
];

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'When the workflow is activated, the trigger remembers where things stand and emits nothing from the past. From then on, each change is emitted once. Fetch Test Event shows the most recent matching item and changes nothing.',
		name: 'firstPollNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		default: 'invoicePaid',
		options: [
			{ name: 'Invoice Overdue', value: 'invoiceOverdue', description: 'An unpaid invoice passed its due date' },
			{ name: 'Invoice Paid', value: 'invoicePaid', description: 'An invoice became fully paid (again, after a refund)' },
			{
				name: 'Invoice Payment Failed',
				value: 'invoicePaymentFailed',
				description: 'A payment with an error appeared on an invoice',
			},
			{ name: 'New Customer', value: 'newCustomer', description: 'A customer was created' },
			{ name: 'New Invoice', value: 'newInvoice', description: 'An invoice was issued' },
			{ name: 'New Subscription', value: 'newSubscription', description: 'A subscription appeared on a customer' },
			{
				name: 'Subscription Status Changed',
				value: 'subscriptionStatusChanged',
				description: 'A subscription changed status (e.g. to TERMINATING, PAUSED or TERMINATED)',
			},
		],
	},
	{
		displayName: 'Only Changes To',
		name: 'statuses',
		type: 'multiOptions',
		default: [],
		description: 'Emit only changes to these statuses; none chosen: every change',
		options: SUBSCRIPTION_STATUSES.map((status) => ({ name: status, value: status })),
		displayOptions: { show: { event: ['subscriptionStatusChanged'] } },
	},
	{
		displayName: 'Invoices Of',
		name: 'scope',
		type: 'options',
		noDataExpression: true,
		default: 'customer',
		options: [
			{ name: 'One Customer', value: 'customer' },
			{ name: 'All Customers', value: 'all' },
		],
		displayOptions: { show: { event: INVOICE_EVENTS } },
	},
	{
		...customerIdField,
		displayOptions: { show: { event: INVOICE_EVENTS, scope: ['customer'] } },
	},
	...invoiceSettings({ event: INVOICE_EVENTS }),
];
