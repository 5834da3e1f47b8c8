import { IdSet, storedId } from '../state/idSet';
import type { DetailPass } from '../state/triggerState';
import { isLive, type ListSnapshot } from './customerList';
import { readSubscriptionDetails } from './subscriptionDetails';
import type { DetailReads, PollInput } from './types';

/** Running subscriptions, in the customer list's order (new ones come last). */
export function liveSubscriptionIds(snapshot: ListSnapshot): string[] {
	return snapshot.subscriptions
		.filter(isLive)
		.map((subscription) => String(subscription.subscription_id));
}

/** Where the pass resumes: after the subscription it read last, or where that one stood. */
function resumeAt(ids: string[], pass: DetailPass): number {
	if (pass.lastRead === undefined) return 0;
	const after = ids.findIndex((id) => storedId(id) === pass.lastRead);
	return after >= 0 ? after + 1 : Math.min(pass.position ?? 0, ids.length);
}

/**
 * Reads `first` (subscriptions that must be read this poll: due renewals to confirm, changed
 * ones), then continues the pass, `budget` reads in all. `startLearning`: Renewal Due was just
 * chosen, a new pass starts that only learns renewal dates; `startDetails`: Compare Detail Fields
 * was just chosen, a new pass starts that learns the detail fields.
 */
export async function readDetailsInPass(
	input: PollInput,
	snapshot: ListSnapshot,
	previous: DetailPass | undefined,
	{
		first,
		budget,
		renewals,
		startLearning,
		startDetails,
	}: {
		first: string[];
		budget: number;
		renewals: boolean;
		startLearning: boolean;
		startDetails: boolean;
	},
): Promise<DetailReads> {
	const ids = liveSubscriptionIds(snapshot);
	const started = startLearning || startDetails;
	const pass: DetailPass = started ? {} : { ...(previous ?? {}) };
	// A new pass while Renewal Due still learns (a state saved mid-pass) learns its dates again from
	// the start, reporting from the same moment.
	if (startLearning || (started && previous?.learningRenewals))
		pass.learningRenewals = {
			readAhead: '',
			since: previous?.learningRenewals?.since ?? input.now.getTime(),
		};
	if (startDetails) pass.learningDetails = true;
	if (!renewals) delete pass.learningRenewals;
	const renewalsSince = pass.learningRenewals && (pass.learningRenewals.since ?? Infinity);
	// At most half the reads go to `first`, so the pass keeps moving.
	const asked = new Set(first.slice(0, Math.ceil(budget / 2)));
	const start = resumeAt(ids, pass);
	let end = start;
	while (end < ids.length && asked.size < budget) asked.add(ids[end++]);
	const until = started ? input.learnUntil : undefined;
	const { details, unread } = await readSubscriptionDetails(
		input.api,
		[...asked],
		() => until === undefined || Date.now() < until,
	);
	// Stopped by `until`: the pass has reached the first subscription it did not read.
	if (unread.size > 0) {
		const reached = ids.findIndex((id, index) => index >= start && unread.has(id));
		if (reached >= 0 && reached < end) end = reached;
		for (const id of unread) asked.delete(id);
	}

	const firstRead = new Set<string>();
	if (pass.learningRenewals) {
		const position = new Map(ids.map((id, index) => [id, index]));
		const readAhead = IdSet.read(pass.learningRenewals.readAhead);
		for (const id of details.keys()) {
			const at = position.get(id) ?? -1;
			if (at >= start && !readAhead.has(id)) firstRead.add(id);
			if (at >= end) readAhead.add(id);
		}
		for (const id of ids.slice(0, end)) readAhead.delete(id);
		pass.learningRenewals = { ...pass.learningRenewals, readAhead: readAhead.store() };
	}
	if (end >= ids.length) {
		delete pass.lastRead;
		delete pass.position;
		delete pass.learningRenewals;
		delete pass.learningDetails;
	} else if (end > start) {
		pass.lastRead = storedId(ids[end - 1]);
		pass.position = end;
	}
	return { details, asked, pass, renewalsSince, firstRead };
}
