import type { IDisplayOptions, INodeProperties, IPollFunctions } from 'n8n-workflow';

export const DEFAULT_LOOK_BACK_DAYS = 7;
export const MAX_LOOK_BACK_DAYS = 90;
/** Chosen from `npm run bench:trigger` (docs/trigger.md): the smallest budget whose sweeps stay within 1.15× the ideal at 100 requests/s. */
export const DEFAULT_REQUESTS_PER_POLL = 1000;
export const MIN_REQUESTS_PER_POLL = 10;

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
				"Most requests one poll sends. With more customers than that, one pass over all customers spans several polls, each resuming where the last stopped (at 100 requests/s: 1,000 requests take about 10 seconds). Nothing is missed or doubled between polls; a change is reported within one pass.",
			displayOptions: { show: { ...show, scope: ['all'] } },
		},
		{
			displayName:
				'Cost: one request per poll, plus one Invoice Search per 1,000 watched invoices (open, or paid within the look-back window) older than the customer\'s newest 100',
			name: 'oneCustomerNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { ...show, scope: ['customer'] } },
		},
		{
			displayName:
				'All Customers: one request per customer (two with open invoices older than the look-back window), spread over polls by Requests Per Poll. A change is reported within one pass over all customers: at 10,000 customers and 100 requests/s, about 2 minutes of polling.',
			name: 'allCustomersNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { ...show, scope: ['all'] } },
		},
	];
}

export interface InvoiceSettings {
	lookBackMs: number;
	requestsPerPoll: number;
}

/** The settings as the node stores them; a number box left empty or out of range falls back to its limit. */
export function readInvoiceSettings(ctx: IPollFunctions): InvoiceSettings {
	const days = Number(ctx.getNodeParameter('lookBackDays', DEFAULT_LOOK_BACK_DAYS));
	const budget = Number(ctx.getNodeParameter('requestsPerPoll', DEFAULT_REQUESTS_PER_POLL));
	return {
		lookBackMs: Math.min(MAX_LOOK_BACK_DAYS, Math.max(1, Number.isFinite(days) ? days : DEFAULT_LOOK_BACK_DAYS)) * 86_400_000,
		requestsPerPoll: Math.max(MIN_REQUESTS_PER_POLL, Number.isFinite(budget) && budget > 0 ? Math.floor(budget) : DEFAULT_REQUESTS_PER_POLL),
	};
}
