import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { customerIdField } from '../shared/idFields';
import { EVENT_DEFINITIONS, INVOICE_FAMILY_EVENTS, type TriggerEvent } from './events/catalog';

export const DEFAULT_LOOK_BACK_DAYS = 7;
export const MAX_LOOK_BACK_DAYS = 90;
/** Chosen from `npm run bench:trigger` (docs/trigger.md): the smallest budget whose sweeps stay within 1.15× the ideal at 100 requests/s. */
export const DEFAULT_REQUESTS_PER_POLL = 1000;
export const MIN_REQUESTS_PER_POLL = 10;
/** How far before publishing the invoice events can catch up from (Catch Up From). */
export const MAX_CATCH_UP_DAYS = 90;

/** The invoice events' settings: how far back late invoices are seen, and a poll's request budget over all customers. */
export function invoiceSettings(show: IDisplayOptions['show']): INodeProperties[] {
	return [
		{
			displayName: 'Look-Back Window (Days)',
			name: 'lookBackDays',
			type: 'number',
			default: DEFAULT_LOOK_BACK_DAYS,
			typeOptions: { minValue: 1, maxValue: MAX_LOOK_BACK_DAYS, numberPrecision: 0 },
			description:
				'An invoice that appears late (back-dated, or published after its issue time) is reported if it appears within this many days of its issue time; one that appears later is not. Each visit of a customer reads the invoices issued in this window.',
			displayOptions: { show },
		},
		{
			displayName: 'Requests Per Poll',
			name: 'requestsPerPoll',
			type: 'number',
			default: DEFAULT_REQUESTS_PER_POLL,
			typeOptions: { minValue: MIN_REQUESTS_PER_POLL, numberPrecision: 0 },
			description:
				'Most requests one poll sends. With more customers than that, one pass over all customers spans several polls, each resuming where the last stopped (after a restart of n8n: from the state n8n saved last) (at 100 requests/s: 1,000 requests take about 10 seconds). Nothing is missed or doubled between polls; a change is reported within one pass: about customers ÷ Requests Per Poll polls.',
			displayOptions: { show: { ...show, scope: ['all'] } },
		},
		{
			displayName:
				"Cost: one request per poll, plus one Invoice Search per 1,000 watched invoices (open, or paid within the look-back window) older than the customer's newest 100",
			name: 'oneCustomerNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { ...show, scope: ['customer'] } },
		},
		{
			displayName:
				"All Customers: each invoice change is reported within one pass over all customers, about customers ÷ Requests Per Poll polls: 11 at 10,000 customers and the default, so about 11 minutes when polling every minute (a pass also reads the customer list, 1 request per 1,000 customers: hence 11, not 10). A pass costs one request per customer (two with open invoices older than the look-back window), spread over its polls. n8n's log says how long each pass took, and when a restart of n8n lengthened it.",
			name: 'allCustomersNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { ...show, scope: ['all'] } },
		},
	];
}

/** The invoice events' starting moment: publishing, or a date and time the user picks (a catch-up). */
export function catchUpSettings(show: IDisplayOptions['show']): INodeProperties[] {
	return [
		{
			displayName: 'Invoice Changes From',
			name: 'invoicesFrom',
			type: 'options',
			noDataExpression: true,
			default: 'publishing',
			description:
				"Publishing: invoice changes from the moment the workflow is published. A Date and Time: also every change since then (this week's failed payments, say), each once, in the first pass over the customers. For New Invoice, Invoice Paid, Invoice Payment Failed and Invoice Overdue only: customer and subscription events start at publishing (the API gives customers no creation time).",
			options: [
				{ name: 'Publishing', value: 'publishing' },
				{ name: 'A Date and Time (Catch Up)', value: 'date' },
			],
			displayOptions: { show },
		},
		{
			displayName: 'Catch Up From',
			name: 'invoicesFromDate',
			type: 'dateTime',
			required: true,
			default: '',
			description: `Every invoice issued, paid, failing a payment or falling overdue after this moment (in the workflow's time zone) is reported once, nothing from before; at most ${MAX_CATCH_UP_DAYS} days before publishing. Taken when the invoice events start (publishing): changed on a published trigger, it starts no new catch-up.`,
			hint: "The catch-up is the first pass over all customers: about customers ÷ Requests Per Poll polls (11 at 10,000 customers and the default; One Customer: the first poll), each poll emitting what it found. n8n's log says when it ended.",
			displayOptions: { show: { ...show, invoicesFrom: ['date'] } },
		},
	];
}

/** Subscription Gets one poll sends at most by default: the same budget as the invoice events' sweep. */
export const DEFAULT_SUBSCRIPTION_READS_PER_POLL = DEFAULT_REQUESTS_PER_POLL;

const subscriptionReadsPerPoll: INodeProperties = {
	displayName: 'Subscription Reads Per Poll',
	name: 'subscriptionReadsPerPoll',
	type: 'number',
	default: DEFAULT_SUBSCRIPTION_READS_PER_POLL,
	typeOptions: { minValue: MIN_REQUESTS_PER_POLL, numberPrecision: 0 },
	description:
		'Most running subscriptions one poll reads (Subscription Get) for Subscription Renewal Due and Compare Detail Fields. With more than that, one pass over them spans several polls (running subscriptions ÷ this), each resuming where the last stopped (after a restart of n8n: from the state n8n saved last); a renewal date or detail change is seen within one pass. Renewals entering the window and subscriptions whose listed fields changed are read first (up to half).',
};

/** Shown with Subscription Renewal Due, or with Subscription Updated when Compare Detail Fields is on */
export const detailSettings: INodeProperties[] = [
	{ ...subscriptionReadsPerPoll, displayOptions: { show: { events: ['subscriptionRenewalDue'] } } },
	{
		...subscriptionReadsPerPoll,
		displayOptions: {
			show: { events: ['subscriptionUpdated'], subscriptionDetails: [true] },
			hide: { events: ['subscriptionRenewalDue'] },
		},
	},
];

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

const LIST_COST =
	'Cost: the customer list, read once per poll for all customer and subscription events (1 request per 1,000 customers).';
const INVOICE_COST =
	'Cost: One Customer, 1 request a poll; All Customers, 1 request per customer per pass over all customers, spread over polls by Requests Per Poll.';

/** Every event, as the editor names and describes it with what it costs per poll (events/catalog.ts), by name. */
export const EVENT_OPTIONS: Array<INodePropertyOptions & { value: TriggerEvent }> =
	EVENT_DEFINITIONS.map(({ name, value, summary, cost, family }) => ({
		name,
		value,
		description: `${summary} ${cost ?? (family === 'invoices' ? INVOICE_COST : LIST_COST)}`,
	})).sort((a, b) => a.name.localeCompare(b.name));

/** Display options: shown when Events includes one of `events` (and the `more` conditions hold). */
function whenEvents(
	events: readonly string[],
	more: IDisplayOptions['show'] = {},
): IDisplayOptions {
	return { show: { events: [...events], ...more } };
}

/** `property`, shown when Events includes one of `events` (and the `more` conditions hold). */
function forEvents(
	property: INodeProperties,
	events: readonly string[],
	more: IDisplayOptions['show'] = {},
): INodeProperties {
	return { ...property, displayOptions: whenEvents(events, more) };
}

/** The canvas subtitle: the chosen events by the names the editor shows. */
const NAMES = JSON.stringify(
	Object.fromEntries(EVENT_OPTIONS.map((option) => [option.value, option.name])),
);
export const TRIGGER_SUBTITLE = `={{ ($parameter["events"] || []).map((event) => (${NAMES})[event] || event).join(", ") || "No event chosen" }}`;

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'Each change is emitted once, from the moment the workflow is published; nothing from before (the invoice events can catch up from a date you choose: Invoice Changes From). Customer and subscription changes come at the next poll; invoice changes over All Customers within one pass over all customers (about 11 minutes at 10,000 customers polling every minute, see below); renewal dates and detail fields within one pass over the running subscriptions. Publishing takes seconds at any size. Unpublished and published again, the trigger reports what changed meanwhile, once. Fetch Test Event shows the most recent matching item of each event and changes nothing.',
		name: 'firstPollNotice',
		type: 'notice',
		default: '',
	},
	// n8n's nodes panel lists the options of Events as triggers ("On invoice paid", …) and adds the
	// node with the one picked.
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		noDataExpression: true,
		default: [],
		description:
			'The changes that start the workflow; each item names its event in its event field',
		options: EVENT_OPTIONS,
	},
	forEvents(
		{
			displayName: 'Only Changes To',
			name: 'statuses',
			type: 'multiOptions',
			default: [],
			description: 'Emit only changes to these statuses. None chosen: every status change.',
			hint: 'None chosen: every status change is emitted',
			options: SUBSCRIPTION_STATUSES.map((status) => ({ name: status, value: status })),
		},
		['subscriptionStatusChanged'],
	),
	forEvents(
		{
			displayName: 'Days Before End',
			name: 'endingSoonDays',
			type: 'number',
			default: 30,
			typeOptions: { minValue: 0, maxValue: 366, numberPrecision: 0 },
			description:
				"Subscription Ending Soon: emitted once when a subscription's end date is this many days away or fewer (0: on the day itself)",
		},
		['subscriptionEndingSoon'],
	),
	forEvents(
		{
			displayName: 'Days Before Renewal',
			name: 'renewalDueDays',
			type: 'number',
			default: 30,
			typeOptions: { minValue: 0, maxValue: 366, numberPrecision: 0 },
			description:
				"Subscription Renewal Due: emitted once when a subscription's renewal date is this many days away or fewer (0: on the day itself)",
		},
		['subscriptionRenewalDue'],
	),
	forEvents(
		{
			displayName:
				'Renewal Due: each renewal date is reported once as it enters the window, within one pass over the running subscriptions: running subscriptions ÷ Subscription Reads Per Poll polls (10 at 10,000 and the default). Renewal dates are not in the customer list: each running subscription is read (Subscription Get) once per pass, and read again when its renewal date enters the window. In the first pass after choosing this event, a renewal already in the window then is not reported, nor one whose date is moved into the window before the pass reads it.',
			name: 'renewalCostNotice',
			type: 'notice',
			default: '',
		},
		['subscriptionRenewalDue'],
	),
	forEvents(
		{
			displayName: 'Compare Detail Fields',
			name: 'subscriptionDetails',
			type: 'boolean',
			default: false,
			description:
				'Whether Subscription Updated also compares the renewal date, auto-renewal, totals and line items. These are not in the customer list: each running subscription is read (Subscription Get) once per pass, 1 request per subscription, at most Subscription Reads Per Poll a poll. They carry no time of change: the first pass after publishing only learns them, so a change made before it reads the subscription (within running subscriptions ÷ Subscription Reads Per Poll polls of publishing: 10 polls at 10,000 and the default) is not reported.',
			hint: 'Each detail change is reported within one pass over the running subscriptions: running subscriptions ÷ Subscription Reads Per Poll polls (10 at 10,000 and the default; only Subscription Gets count). The first pass after turning this on only learns.',
		},
		['subscriptionUpdated'],
	),
	...detailSettings,
	{
		displayName: 'Invoices Of',
		name: 'scope',
		type: 'options',
		noDataExpression: true,
		default: 'all',
		description:
			'All Customers: 1 request per customer, spread over polls by Requests Per Poll. One Customer: 1 request per poll.',
		options: [
			{ name: 'All Customers', value: 'all' },
			{ name: 'One Customer', value: 'customer' },
		],
		displayOptions: whenEvents(INVOICE_FAMILY_EVENTS),
	},
	forEvents(customerIdField, INVOICE_FAMILY_EVENTS, { scope: ['customer'] }),
	forEvents(
		{
			displayName:
				'Choose the customer whose invoices to watch, or choose All Customers: until then n8n cannot run Fetch Test Event or activate the workflow.',
			name: 'customerNeededNotice',
			type: 'notice',
			default: '',
		},
		INVOICE_FAMILY_EVENTS,
		{ scope: ['customer'], customerId: [''] },
	),
	// Publishing or a catch-up from a chosen moment.
	...catchUpSettings(whenEvents(INVOICE_FAMILY_EVENTS).show),
	// Look-back window, Requests Per Poll and the cost notices of One Customer and All Customers.
	...invoiceSettings(whenEvents(INVOICE_FAMILY_EVENTS).show),
];
