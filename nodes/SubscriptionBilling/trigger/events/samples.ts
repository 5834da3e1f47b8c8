import type { IDataObject } from 'n8n-workflow';
import { readCustomerList, subscriptionsOf } from './customerList';
import type { PollInput } from './types';

/**
 * Fetch Test Event for the customer-list events: the last matching record of the customer list
 * (the API gives no creation time, so the list's order stands in for it), state untouched.
 */
export async function sampleFromCustomerList(input: PollInput, event: 'newCustomer' | 'newSubscription' | 'subscriptionStatusChanged', onlyStatuses: string[]): Promise<IDataObject[]> {
	const { customers } = await readCustomerList(input.api);
	const detectedAt = input.now.toISOString();
	if (event === 'newCustomer') {
		const customer = customers.at(-1);
		return customer ? [{ event, detected_at: detectedAt, customer }] : [];
	}
	const subscriptions = subscriptionsOf(customers).filter(
		(subscription) => event === 'newSubscription' || onlyStatuses.length === 0 || onlyStatuses.includes(String(subscription.status)),
	);
	const subscription = subscriptions.at(-1);
	if (!subscription) return [];
	return event === 'newSubscription'
		? [{ event, detected_at: detectedAt, subscription }]
		: [{ event, detected_at: detectedAt, previous_status: null, status: subscription.status, subscription }];
}
