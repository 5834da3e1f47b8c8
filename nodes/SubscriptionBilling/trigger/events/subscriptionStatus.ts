import type { IDataObject } from 'n8n-workflow';
import type { RecordTable } from '../state/recordTable';
import type { ListSnapshot } from './customerList';
import type { CustomerListSettings, ListEvent } from './types';

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
export function statusChanges(
	subscriptions: IDataObject[],
	before: RecordTable | undefined,
): StatusChange[] {
	const changes: StatusChange[] = [];
	for (const subscription of subscriptions) {
		const cell = before?.cellOf(String(subscription.subscription_id), 'status');
		const previous = cell === undefined ? undefined : before!.value(cell, 'status');
		const status = String(subscription.status);
		if (previous !== undefined && String(previous) !== status)
			changes.push({ subscription, previous: String(previous), status });
	}
	return changes;
}

function lastWithStatus(snapshot: ListSnapshot, statuses: string[]): IDataObject | undefined {
	return snapshot.subscriptions
		.filter(
			(subscription) => statuses.length === 0 || statuses.includes(String(subscription.status)),
		)
		.at(-1);
}

/** A status event: its items are the status changes it keeps (`reports`); its sample the last subscription in one of `sampleStatuses`. */
function statusEvent<V extends string>(
	value: V,
	texts: Pick<ListEvent, 'name' | 'summary' | 'noExample'>,
	reports: (change: StatusChange, settings: CustomerListSettings) => boolean,
	sampleStatuses: (settings: CustomerListSettings) => string[],
): ListEvent<V> {
	return {
		value,
		family: 'customerList',
		record: 'subscription',
		...texts,
		subscriptionColumns: () => ['status'],
		detect: ({ snapshot, subscriptionsBefore, settings }) =>
			statusChanges(snapshot.subscriptions, subscriptionsBefore)
				.filter((change) => reports(change, settings))
				.map(({ subscription, previous, status }) => ({
					event: value,
					detected_at: snapshot.detectedAt,
					previous_status: previous,
					status,
					subscription,
				})),
		sample: async (_input, snapshot, settings) => {
			const subscription = lastWithStatus(snapshot, sampleStatuses(settings));
			return (
				subscription && {
					event: value,
					detected_at: snapshot.detectedAt,
					previous_status: null,
					status: subscription.status,
					subscription,
				}
			);
		},
	};
}

const STATUS_KEYS = 'detected_at, previous_status, status, subscription';

export const subscriptionStatusChanged = statusEvent(
	'subscriptionStatusChanged',
	{
		name: 'Subscription Status Changed',
		summary: 'A subscription changed status (e.g. to TERMINATING, PAUSED or TERMINATED).',
		noExample: {
			lookedFor: 'no subscription in the statuses chosen in Only Changes To',
			toSee: 'choose other statuses in Only Changes To (none: every change)',
			keys: STATUS_KEYS,
		},
	},
	(change, { statuses }) => statuses.length === 0 || statuses.includes(change.status),
	({ statuses }) => statuses,
);

export const subscriptionPaused = statusEvent(
	'subscriptionPaused',
	{
		name: 'Subscription Paused',
		summary: "A subscription's status changed to PAUSED.",
		noExample: {
			lookedFor: 'no paused subscription',
			toSee: 'pause a subscription in the account',
			keys: STATUS_KEYS,
		},
	},
	(change) => change.status === 'PAUSED',
	() => ['PAUSED'],
);

export const subscriptionResumed = statusEvent(
	'subscriptionResumed',
	{
		name: 'Subscription Resumed',
		summary: 'A paused subscription runs again (PAUSED to ACTIVE or TERMINATING).',
		noExample: {
			lookedFor: `no subscription in ${RESUMED_STATUSES.join(' or ')}`,
			toSee: 'resume a paused subscription in the account',
			keys: STATUS_KEYS,
		},
	},
	(change) => change.previous === 'PAUSED' && RESUMED_STATUSES.includes(change.status),
	() => RESUMED_STATUSES,
);
