import type { IDataObject } from 'n8n-workflow';
import { fingerprint } from '../fingerprint';
import { isLive, type ListSnapshot } from './customerList';
import { readSubscriptionDetails } from './subscriptionDetails';
import type { PollInput } from './types';

/**
 * Where the pass over the running subscriptions' details (Subscription Get) stands. A pass reads
 * each running subscription once, over as many polls as Subscription Reads Per Poll needs.
 * - `a`: fingerprint of the last subscription the pass read (it resumes after it), `c`: its
 *   position then (used when that subscription is gone); both absent: the next pass starts.
 * - `b`: 1 while the first pass of Renewal Due runs: a renewal date read for the first time is only
 *   remembered (one that enters the window later in the pass is reported).
 * - `r`: Renewal Due only: the renewal date (`renews_at`, '' without one) of each running
 *   subscription read so far, by fingerprint of its id.
 */
export interface DetailSweep {
	a?: string;
	c?: number;
	b?: 1;
	r?: Record<string, string>;
}

export interface DetailReads {
	/** The details read this poll, by subscription id. */
	details: Map<string, IDataObject>;
	sweep: DetailSweep;
	/** Whether every running subscription has a renewal date in `sweep.r` (read once at least). */
	renewalsKnown: boolean;
	/** Subscriptions whose renewal date was not known before this poll. */
	firstLearned: Set<string>;
}

export function renewalDateOf(detail: IDataObject): string {
	return typeof detail.renews_at === 'string' ? detail.renews_at : '';
}

/** Running subscriptions, in the customer list's order (new ones come last). */
export function liveSubscriptionIds(snapshot: ListSnapshot): string[] {
	return snapshot.subscriptions.filter(isLive).map((subscription) => String(subscription.subscription_id));
}

/** Where the pass resumes: after the subscription it read last, or where that one stood. */
function resumeAt(ids: string[], sweep: DetailSweep): number {
	if (sweep.a === undefined) return 0;
	const after = ids.findIndex((id) => fingerprint(id) === sweep.a);
	return after >= 0 ? after + 1 : Math.min(sweep.c ?? 0, ids.length);
}

/**
 * Reads `first` (subscriptions that must be read this poll: due renewals to confirm, changed
 * ones), then continues the pass, `budget` reads in all. With `renewals`, remembers each renewal
 * date read and forgets subscriptions that no longer run (when the list was read whole).
 */
export async function readDetailsInPass(
	input: PollInput,
	snapshot: ListSnapshot,
	previous: DetailSweep | undefined,
	{ first, budget, renewals, startLearning }: { first: string[]; budget: number; renewals: boolean; startLearning: boolean },
): Promise<DetailReads> {
	const ids = liveSubscriptionIds(snapshot);
	// Renewal Due just chosen: a new pass that only learns the renewal dates.
	const sweep: DetailSweep = startLearning ? { b: 1, r: {} } : { ...(previous ?? {}), r: { ...(previous?.r ?? {}) } };
	if (!renewals) delete sweep.r;
	// At most half the reads go to `first`, so the pass keeps moving.
	const chosen = new Set(first.slice(0, Math.ceil(budget / 2)));
	const start = resumeAt(ids, sweep);
	let end = start;
	while (end < ids.length && chosen.size < budget) chosen.add(ids[end++]);
	const details = await readSubscriptionDetails(input.api, [...chosen]);

	if (end >= ids.length) {
		delete sweep.a;
		delete sweep.c;
		delete sweep.b;
	} else if (end > start) {
		sweep.a = fingerprint(ids[end - 1]);
		sweep.c = end;
	}
	let renewalsKnown = false;
	const firstLearned = new Set<string>();
	if (sweep.r) {
		const known = sweep.r;
		for (const id of chosen) {
			const detail = details.get(id);
			const print = fingerprint(id);
			if (detail && !(print in known)) firstLearned.add(id);
			if (detail) known[print] = renewalDateOf(detail);
			else delete known[print];
		}
		const live = new Set(ids.map(fingerprint));
		if (snapshot.complete) for (const print of Object.keys(known)) if (!live.has(print)) delete known[print];
		renewalsKnown = [...live].every((print) => print in known);
	}
	return { details, sweep, renewalsKnown, firstLearned };
}
