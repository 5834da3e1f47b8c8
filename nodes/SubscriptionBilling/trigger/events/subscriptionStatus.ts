import type { IDataObject } from 'n8n-workflow';
import { fingerprint, packFingerprints, unpackFingerprints } from '../fingerprint';
import { readCustomerList, subscriptionsOf } from './customerList';
import type { PollInput, PollOutcome } from './types';

/** Remembered as { STATUS: packed fingerprints of the subscriptions last seen in it }. */
type StatusesByFingerprint = Map<string, string>;

function unpack(stored: IDataObject | undefined): StatusesByFingerprint {
	const map: StatusesByFingerprint = new Map();
	for (const [status, packed] of Object.entries(stored ?? {})) {
		for (const print of unpackFingerprints(packed as string)) map.set(print, status);
	}
	return map;
}

function pack(map: StatusesByFingerprint): IDataObject {
	const byStatus = new Map<string, string[]>();
	for (const [print, status] of map) {
		const list = byStatus.get(status) ?? [];
		list.push(print);
		byStatus.set(status, list);
	}
	const packed: IDataObject = {};
	for (const [status, prints] of [...byStatus].sort(([a], [b]) => a.localeCompare(b))) packed[status] = packFingerprints(prints);
	return packed;
}

/**
 * Subscription Status Changed: the customer list carries every subscription's status; the trigger
 * remembers each subscription's last status and reports a difference, with the previous status.
 * A subscription seen for the first time is not a change (New Subscription reports it).
 */
export async function pollStatusChanges(input: PollInput, onlyStatuses: string[]): Promise<PollOutcome> {
	const { customers, complete } = await readCustomerList(input.api);
	const before = unpack(input.previous?.statuses as IDataObject | undefined);
	const after: StatusesByFingerprint = complete ? new Map() : new Map(before);
	const detectedAt = input.now.toISOString();
	const items: IDataObject[] = [];
	for (const subscription of subscriptionsOf(customers)) {
		const print = fingerprint(String(subscription.subscription_id));
		const status = String(subscription.status);
		const previous = before.get(print);
		after.set(print, status);
		if (!input.previous || previous === undefined || previous === status) continue;
		if (onlyStatuses.length > 0 && !onlyStatuses.includes(status)) continue;
		items.push({ event: 'subscriptionStatusChanged', detected_at: detectedAt, previous_status: previous, status, subscription });
	}
	return { items, state: { statuses: pack(after) } };
}
