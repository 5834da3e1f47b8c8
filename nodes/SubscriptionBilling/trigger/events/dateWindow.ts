import type { IDataObject } from 'n8n-workflow';
import { IdSet } from '../state/idSet';
import { isLive, type ListSnapshot } from './customerList';
import type { ListEvent } from './types';

const DAY_MS = 86_400_000;

/** Whole days from today (UTC) to a date (`YYYY-MM-DD`, or a date-time whose date is taken); undefined when it is not one. */
export function daysUntil(date: unknown, now: Date): number | undefined {
	if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(date)) return undefined;
	const day = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
	if (!Number.isFinite(day)) return undefined;
	const today = Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`);
	return Math.round((day - today) / DAY_MS);
}

export interface Dated {
	record: IDataObject;
	id: string;
	date: unknown;
}

export interface DueEntry {
	record: IDataObject;
	date: string;
	daysLeft: number;
}

/**
 * Reports each record whose date is today or within `days` days, once per record and date: the
 * trigger remembers the `id|date` pairs inside the window (`notified`, an IdSet), so
 * a record whose date moves is reported again for its new date. Pairs leave the memory when they
 * leave the window. Without anything remembered (the first poll) nothing is reported.
 */
export function trackDateWindow(
	entries: Dated[],
	days: number,
	now: Date,
	notified: string | undefined,
	complete: boolean,
): { due: DueEntry[]; notified: string } {
	const before = IdSet.read(notified);
	// A listing not read whole keeps what was remembered.
	const inside = IdSet.read(complete ? undefined : notified);
	const due: DueEntry[] = [];
	for (const { record, id, date } of entries) {
		const daysLeft = daysUntil(date, now);
		if (daysLeft === undefined || daysLeft < 0 || daysLeft > days) continue;
		const key = `${id}|${String(date)}`;
		inside.add(key);
		if (notified !== undefined && !before.has(key))
			due.push({ record, date: String(date), daysLeft });
	}
	return { due, notified: inside.store() };
}

/** Fetch Test Event: the entry with the nearest date inside the window. */
export function nearestInWindow(entries: Dated[], days: number, now: Date): DueEntry | undefined {
	let nearest: DueEntry | undefined;
	for (const { record, date } of entries) {
		const daysLeft = daysUntil(date, now);
		if (daysLeft === undefined || daysLeft < 0 || daysLeft > days) continue;
		if (!nearest || daysLeft < nearest.daysLeft) nearest = { record, date: String(date), daysLeft };
	}
	return nearest;
}

/** Running subscriptions with their end date. */
export function endDates(snapshot: ListSnapshot): Dated[] {
	return snapshot.subscriptions.filter(isLive).map((subscription) => ({
		record: subscription,
		id: String(subscription.subscription_id),
		date: subscription.ends_at,
	}));
}

export const subscriptionEndingSoon: ListEvent<'subscriptionEndingSoon'> = {
	value: 'subscriptionEndingSoon',
	family: 'customerList',
	record: 'subscription',
	name: 'Subscription Ending Soon',
	summary:
		"A running subscription's end date (ends_at) is within the days you set: once per subscription and end date.",
	noExample: {
		lookedFor: 'no subscription ending within Days Before End',
		toSee: "raise Days Before End to reach a running subscription's end date",
		keys: 'detected_at, ends_at, days_left, subscription',
	},
	detect: ({ snapshot, settings, previous, state }) => {
		const { due, notified } = trackDateWindow(
			endDates(snapshot),
			settings.endingSoonDays,
			snapshot.now,
			previous?.endingSoon,
			snapshot.complete,
		);
		state.endingSoon = notified;
		return due.map(({ record, date, daysLeft }) => ({
			event: 'subscriptionEndingSoon',
			detected_at: snapshot.detectedAt,
			ends_at: date,
			days_left: daysLeft,
			subscription: record,
		}));
	},
	sample: async (input, snapshot, settings) => {
		const due = nearestInWindow(endDates(snapshot), settings.endingSoonDays, input.now);
		return (
			due && {
				event: 'subscriptionEndingSoon',
				detected_at: snapshot.detectedAt,
				ends_at: due.date,
				days_left: due.daysLeft,
				subscription: due.record,
			}
		);
	},
};
