import type { IDataObject } from 'n8n-workflow';
import { IdSet } from '../state/idSet';
import type { RecordTable } from '../state/recordTable';
import { isLive, type ListSnapshot } from './customerList';
import type { DetailReads, ListEvent } from './types';
import { readSubscriptionDetails } from './subscriptionDetails';
/*
 * The events of a date entering a window: Subscription Ending Soon (the end date, in the customer
 * list) and Subscription Renewal Due (the renewal date, read from each subscription's detail).
 */

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

function inWindow(date: string, days: number, now: Date): boolean {
	const daysLeft = daysUntil(date, now);
	return daysLeft !== undefined && daysLeft >= 0 && daysLeft <= days;
}

/** The renewal date the subscriptions table remembers ('' without one); undefined: not read yet. */
export function rememberedRenewal(table: RecordTable | undefined, id: string): string | undefined {
	const cell = table?.cellOf(id, 'renews_at');
	if (cell === undefined) return undefined;
	const value = table!.value(cell, 'renews_at');
	return typeof value === 'string' ? value : '';
}

/**
 * Running subscriptions whose remembered renewal date is within the window and not yet reported:
 * read again this poll, so that what is reported is what the API says now.
 */
export function renewalsToConfirm(
	snapshot: ListSnapshot,
	before: RecordTable | undefined,
	notified: string | undefined,
	days: number,
): string[] {
	if (!before || notified === undefined) return [];
	const reported = IdSet.read(notified);
	return snapshot.subscriptions
		.filter(isLive)
		.map((subscription) => String(subscription.subscription_id))
		.filter((id) => {
			const date = rememberedRenewal(before, id);
			return (
				date !== undefined && inWindow(date, days, snapshot.now) && !reported.has(`${id}|${date}`)
			);
		});
}

/**
 * Subscription Renewal Due from the renewal dates the table knows (`after`: this poll's): a
 * subscription is reported from the detail read this poll, once per renewal date. In the first pass
 * after the event was chosen, a date read for the first time that was in the window already when
 * the pass started (`reads.renewalsSince`) is only remembered, as the first poll of the other events.
 */
export function renewalItems(
	snapshot: ListSnapshot,
	reads: DetailReads,
	after: RecordTable,
	notified: string | undefined,
	days: number,
): { items: IDataObject[]; notified: string } {
	const since = reads.renewalsSince;
	const sinceDate = since !== undefined && Number.isFinite(since) ? new Date(since) : snapshot.now;
	const reported = IdSet.read(notified);
	const entries: Dated[] = [];
	let allKnown = true;
	for (const subscription of snapshot.subscriptions.filter(isLive)) {
		const id = String(subscription.subscription_id);
		const date = rememberedRenewal(after, id);
		if (date === undefined) allKnown = false;
		if (date === undefined || date === '') continue;
		// A date not read this poll and not reported yet waits for its confirming read.
		if (reads.details.has(id) || reported.has(`${id}|${date}`))
			entries.push({ record: subscription, id, date });
		if (since !== undefined && reads.firstRead.has(id) && inWindow(date, days, sinceDate))
			reported.add(`${id}|${date}`);
	}
	const { due, notified: remembered } = trackDateWindow(
		entries,
		days,
		snapshot.now,
		reported.store(),
		snapshot.complete && allKnown,
	);
	const items = due.map(({ record, date, daysLeft }) => {
		const detail = reads.details.get(String(record.subscription_id))!;
		return {
			event: 'subscriptionRenewalDue',
			detected_at: snapshot.detectedAt,
			renews_at: date,
			days_left: daysLeft,
			auto_renews: detail.auto_renews ?? null,
			subscription: record,
			detail,
		};
	});
	return { items, notified: remembered };
}

/** Live subscriptions with their renewal date (`renews_at` of the detail). */
function renewalDates(snapshot: ListSnapshot, details: Map<string, IDataObject>): Dated[] {
	return snapshot.subscriptions
		.filter((subscription) => details.has(String(subscription.subscription_id)))
		.map((subscription) => {
			const id = String(subscription.subscription_id);
			return { record: subscription, id, date: details.get(id)!.renews_at };
		});
}

/** Subscriptions whose detail Fetch Test Event reads at most, nearest end date first, to find a renewal date. */
const SAMPLE_DETAIL_READS = 20;

export const subscriptionRenewalDue: ListEvent<'subscriptionRenewalDue'> = {
	value: 'subscriptionRenewalDue',
	family: 'customerList',
	record: 'subscription',
	name: 'Subscription Renewal Due',
	summary:
		"A running subscription's renewal date (renews_at) is within the days you set: once per subscription and renewal date.",
	cost: 'Cost: the customer list (1 request per 1,000 customers), plus 1 request (Subscription Get) per running subscription per pass, at most Subscription Reads Per Poll a poll.',
	noExample: {
		lookedFor: `no renewal within Days Before Renewal among the ${SAMPLE_DETAIL_READS} subscriptions ending soonest`,
		toSee: "raise Days Before Renewal to reach a running subscription's renewal date",
		keys: 'detected_at, renews_at, days_left, auto_renews, subscription, detail',
	},
	subscriptionColumns: () => ['renews_at'],
	pass: {
		reads: () => true,
		learns: 'renewals',
		starts: ({ previous }) => previous?.renewalDue === undefined,
	},
	readFirst: ({ snapshot, subscriptionsBefore, previous, settings }) =>
		renewalsToConfirm(snapshot, subscriptionsBefore, previous?.renewalDue, settings.renewalDueDays),
	detect: ({ snapshot, reads, subscriptionsAfter, previous, settings, state }) => {
		if (!reads) return [];
		const renewal = renewalItems(
			snapshot,
			reads,
			subscriptionsAfter!,
			previous?.renewalDue,
			settings.renewalDueDays,
		);
		state.renewalDue = renewal.notified;
		return renewal.items;
	},
	// Renewals are due near the end of a term: the running subscriptions nearest their end are read.
	sample: async (input, snapshot, settings) => {
		const nearestEnd = endDates(snapshot).sort((a, b) =>
			String(a.date).localeCompare(String(b.date)),
		);
		const { details } = await readSubscriptionDetails(
			input.api,
			nearestEnd.slice(0, SAMPLE_DETAIL_READS).map((entry) => entry.id),
		);
		const due = nearestInWindow(
			renewalDates(snapshot, details),
			settings.renewalDueDays,
			input.now,
		);
		if (!due) return undefined;
		const detail = details.get(String(due.record.subscription_id))!;
		return {
			event: 'subscriptionRenewalDue',
			detected_at: snapshot.detectedAt,
			renews_at: due.date,
			days_left: due.daysLeft,
			auto_renews: detail.auto_renews ?? null,
			subscription: due.record,
			detail,
		};
	},
};
