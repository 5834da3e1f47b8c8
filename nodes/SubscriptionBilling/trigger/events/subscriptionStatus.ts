import type { IDataObject } from 'n8n-workflow';
import { fingerprint, packFingerprints, unpackFingerprints } from '../fingerprint';

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

/** A status change seen between two polls. */
export interface StatusChange {
	subscription: IDataObject;
	previous: string;
	status: string;
}

/** Statuses a paused subscription resumes into: it runs again (TERMINATING runs until its end). */
export const RESUMED_STATUSES = ['ACTIVE', 'TERMINATING'];

/**
 * The customer list carries every subscription's status; the trigger remembers each
 * subscription's last status (`statuses`, packed by status) and reports the differences. A
 * subscription seen for the first time is not a change (New Subscription reports it); without a
 * remembered state (the first poll) nothing is.
 */
export function trackStatuses(subscriptions: IDataObject[], stored: IDataObject | undefined, complete: boolean): { changes: StatusChange[]; statuses: IDataObject } {
	const before = unpack(stored);
	const after: StatusesByFingerprint = complete ? new Map() : new Map(before);
	const changes: StatusChange[] = [];
	for (const subscription of subscriptions) {
		const print = fingerprint(String(subscription.subscription_id));
		const status = String(subscription.status);
		const previous = before.get(print);
		after.set(print, status);
		if (stored && previous !== undefined && previous !== status) changes.push({ subscription, previous, status });
	}
	return { changes, statuses: pack(after) };
}

/** The items of the status events among `events`, from one set of changes. */
export function statusItems(changes: StatusChange[], events: Set<string>, onlyStatuses: string[], detectedAt: string): IDataObject[] {
	const items: IDataObject[] = [];
	const item = (event: string, { subscription, previous, status }: StatusChange) => ({ event, detected_at: detectedAt, previous_status: previous, status, subscription });
	if (events.has('subscriptionStatusChanged')) {
		for (const change of changes) if (onlyStatuses.length === 0 || onlyStatuses.includes(change.status)) items.push(item('subscriptionStatusChanged', change));
	}
	if (events.has('subscriptionPaused')) {
		for (const change of changes) if (change.status === 'PAUSED') items.push(item('subscriptionPaused', change));
	}
	if (events.has('subscriptionResumed')) {
		for (const change of changes) if (change.previous === 'PAUSED' && RESUMED_STATUSES.includes(change.status)) items.push(item('subscriptionResumed', change));
	}
	return items;
}
