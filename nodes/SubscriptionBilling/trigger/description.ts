import type { INodeProperties } from 'n8n-workflow';
import { customerIdField } from '../shared/idFields';

const INVOICE_EVENTS = ['invoiceOverdue', 'invoicePaid', 'newInvoice'];

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
			{ name: 'Invoice Paid', value: 'invoicePaid', description: 'An invoice was fully paid' },
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
	{
		displayName:
			'Each poll lists all customers, then sends one request per customer: with 10,000 customers, about 10,000 requests per poll. Poll less often, or watch one customer.',
		name: 'allCustomersNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { event: INVOICE_EVENTS, scope: ['all'] } },
	},
];
