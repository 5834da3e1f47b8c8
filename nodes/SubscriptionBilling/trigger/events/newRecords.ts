import type { IDataObject } from 'n8n-workflow';
import { fingerprint, packFingerprints, unpackFingerprints } from '../fingerprint';
import { readCustomerList, subscriptionsOf } from './customerList';
import type { PollInput, PollOutcome } from './types';

/**
 * New Customer and New Subscription: the API gives no creation time, so the trigger remembers the
 * fingerprints of the ids it has seen; an id not among them is new.
 */
function newRecords(records: IDataObject[], idField: string, complete: boolean, input: PollInput, toItem: (record: IDataObject) => IDataObject): PollOutcome {
	const known = unpackFingerprints(input.previous?.known as string | undefined);
	const seen = new Set<string>();
	const items: IDataObject[] = [];
	for (const record of records) {
		const print = fingerprint(String(record[idField]));
		seen.add(print);
		if (input.previous && !known.has(print)) items.push(toItem(record));
	}
	// A listing that changed while it was paged may have missed a record: keep what was known too.
	if (!complete) for (const print of known) seen.add(print);
	return { items, state: { known: packFingerprints(seen) } };
}

export async function pollNewCustomers(input: PollInput): Promise<PollOutcome> {
	const { customers, complete } = await readCustomerList(input.api);
	const detectedAt = input.now.toISOString();
	return newRecords(customers, 'customer_id', complete, input, (customer) => ({ event: 'newCustomer', detected_at: detectedAt, customer }));
}

export async function pollNewSubscriptions(input: PollInput): Promise<PollOutcome> {
	const { customers, complete } = await readCustomerList(input.api);
	const detectedAt = input.now.toISOString();
	return newRecords(subscriptionsOf(customers), 'subscription_id', complete, input, (subscription) => ({
		event: 'newSubscription',
		detected_at: detectedAt,
		subscription,
	}));
}
