import type { INodeProperties, IPollFunctions } from 'n8n-workflow';
import { DEFAULT_REQUESTS_PER_POLL, MIN_REQUESTS_PER_POLL } from './invoiceSettings';

/** Subscription Gets one poll sends at most by default: the same budget as the invoice events' sweep. */
export const DEFAULT_SUBSCRIPTION_READS_PER_POLL = DEFAULT_REQUESTS_PER_POLL;

const subscriptionReadsPerPoll: INodeProperties = {
	displayName: 'Subscription Reads Per Poll',
	name: 'subscriptionReadsPerPoll',
	type: 'number',
	default: DEFAULT_SUBSCRIPTION_READS_PER_POLL,
	typeOptions: { minValue: MIN_REQUESTS_PER_POLL, numberPrecision: 0 },
	description:
		'Most running subscriptions one poll reads (Subscription Get) for Subscription Renewal Due and Compare Detail Fields. With more than that, one pass over them spans several polls, each resuming where the last stopped (the first pass runs within the poll at publishing); a renewal date or detail change is seen within one pass. Renewals entering the window and subscriptions whose listed fields changed are read first (up to half).',
};

/** Shown with Subscription Renewal Due, or with Subscription Updated when Compare Detail Fields is on */
export const detailSettings: INodeProperties[] = [
	{ ...subscriptionReadsPerPoll, displayOptions: { show: { events: ['subscriptionRenewalDue'] } } },
	{
		...subscriptionReadsPerPoll,
		displayOptions: { show: { events: ['subscriptionUpdated'], subscriptionDetails: [true] }, hide: { events: ['subscriptionRenewalDue'] } },
	},
];

/** The setting as the node stores it; a number box left empty or below its minimum falls back. */
export function readSubscriptionReadsPerPoll(ctx: IPollFunctions): number {
	const budget = Number(ctx.getNodeParameter('subscriptionReadsPerPoll', DEFAULT_SUBSCRIPTION_READS_PER_POLL));
	return Math.max(MIN_REQUESTS_PER_POLL, Number.isFinite(budget) && budget > 0 ? Math.floor(budget) : DEFAULT_SUBSCRIPTION_READS_PER_POLL);
}
