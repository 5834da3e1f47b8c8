import type { IDataObject } from 'n8n-workflow';
import type { RecordTable } from '../recordTable';

/** A status change seen between two polls. */
export interface StatusChange {
	subscription: IDataObject;
	previous: string;
	status: string;
}

/** Statuses a paused subscription resumes into: it runs again (TERMINATING runs until its end). */
export const RESUMED_STATUSES = ['ACTIVE', 'TERMINATING'];

/**
 * The customer list carries every subscription's status; the subscriptions table remembers each
 * one's last status (its `status` column), and the differences are reported. A subscription seen
 * for the first time is not a change (New Subscription reports it); without a remembered status
 * (the first poll) nothing is.
 */
export function statusChanges(subscriptions: IDataObject[], before: RecordTable | undefined): StatusChange[] {
	const changes: StatusChange[] = [];
	for (const subscription of subscriptions) {
		const cell = before?.cellOf(String(subscription.subscription_id), 'status');
		const previous = cell === undefined ? undefined : before!.value(cell);
		const status = String(subscription.status);
		if (previous !== undefined && String(previous) !== status) changes.push({ subscription, previous: String(previous), status });
	}
	return changes;
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
