import type { IDataObject } from 'n8n-workflow';
import type { RecordTable } from '../state/recordTable';
import type { ListEvent } from './types';

/**
 * New Customer and New Subscription: the API gives no creation time, so a record is new when the
 * table of the poll before has no row for it. Without that table (the event's first poll) nothing is new.
 */
export function newRecords(
	records: IDataObject[],
	idField: string,
	before: RecordTable | undefined,
): IDataObject[] {
	return before
		? records.filter((record) => before.row(String(record[idField])) === undefined)
		: [];
}

export const newCustomer: ListEvent<'newCustomer'> = {
	value: 'newCustomer',
	family: 'customerList',
	record: 'customer',
	name: 'New Customer',
	summary: 'A customer was created.',
	noExample: {
		lookedFor: 'no customer',
		toSee: 'create a customer in the account',
		keys: 'detected_at, customer',
	},
	customerColumns: [],
	detect: ({ snapshot, customersBefore }) =>
		newRecords(snapshot.customers, 'customer_id', customersBefore).map((customer) => ({
			event: 'newCustomer',
			detected_at: snapshot.detectedAt,
			customer,
		})),
	// The list's order stands in for creation time: the last customer is the newest.
	sample: async (_input, snapshot) => {
		const customer = snapshot.customers.at(-1);
		return customer && { event: 'newCustomer', detected_at: snapshot.detectedAt, customer };
	},
};

export const newSubscription: ListEvent<'newSubscription'> = {
	value: 'newSubscription',
	family: 'customerList',
	record: 'subscription',
	name: 'New Subscription',
	summary: 'A subscription appeared on a customer.',
	noExample: {
		lookedFor: 'no subscription',
		toSee: 'create a subscription for a customer in the account',
		keys: 'detected_at, subscription',
	},
	subscriptionColumns: () => [],
	detect: ({ snapshot, subscriptionsBefore }) =>
		newRecords(snapshot.subscriptions, 'subscription_id', subscriptionsBefore).map(
			(subscription) => ({
				event: 'newSubscription',
				detected_at: snapshot.detectedAt,
				subscription,
			}),
		),
	sample: async (_input, snapshot) => {
		const subscription = snapshot.subscriptions.at(-1);
		return (
			subscription && { event: 'newSubscription', detected_at: snapshot.detectedAt, subscription }
		);
	},
};
