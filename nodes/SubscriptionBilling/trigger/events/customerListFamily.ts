import type { IDataObject } from 'n8n-workflow';
import { isLive, listSnapshot, readCustomerList, type ListSnapshot } from './customerList';
import { trackDateWindow, type Dated } from './dateWindow';
import { readDetailsInPass, type DetailSweep } from './detailSweep';
import { trackFieldChanges, type FieldChange, type RememberedFields } from './fieldChanges';
import { fingerprint } from '../fingerprint';
import { trackNewRecords } from './newRecords';
import { renewalItems, renewalsToConfirm } from './renewalDue';
import { detailFields } from './subscriptionDetails';
import { statusItems, trackStatuses } from './subscriptionStatus';
import type { CustomerListEvent, CustomerListSettings, PollInput, PollOutcome } from './types';

/** The customer fields Customer Updated compares: every field of the customer input. */
export const CUSTOMER_FIELDS = ['name', 'legal_name', 'external_id', 'address', 'processor_customer_id', 'tax_id'] as const;
/** The subscription fields the customer list carries, compared by Subscription Updated. */
export const SUBSCRIPTION_FIELDS = ['name', 'starts_at', 'ends_at', 'status'] as const;

/** Whether the poll reads Subscription Get for running subscriptions (a pass over them, detailSweep.ts). */
export function needsDetails(events: Set<string>, settings: CustomerListSettings): boolean {
	return events.has('subscriptionRenewalDue') || (events.has('subscriptionUpdated') && settings.subscriptionDetails);
}

/** Live subscriptions with their renewal date (`renews_at` of the detail). */
export function renewalDates(snapshot: ListSnapshot, details: Map<string, IDataObject>): Dated[] {
	return snapshot.subscriptions
		.filter((subscription) => details.has(String(subscription.subscription_id)))
		.map((subscription) => {
			const id = String(subscription.subscription_id);
			return { record: subscription, id, date: details.get(id)!.renews_at };
		});
}

export function endDates(snapshot: ListSnapshot): Dated[] {
	return snapshot.subscriptions.filter(isLive).map((subscription) => ({ record: subscription, id: String(subscription.subscription_id), date: subscription.ends_at }));
}

/** Subscription Updated's list fields (name, dates, status): compared on every poll. */
function listedUpdates(snapshot: ListSnapshot, previous: IDataObject): { changes: Map<string, FieldChange>; remembered: RememberedFields } {
	const listed = trackFieldChanges(snapshot.subscriptions, 'subscription_id', SUBSCRIPTION_FIELDS, previous.subscriptionFields as RememberedFields | undefined, snapshot.complete);
	return { changes: new Map(listed.changed.map((change) => [String(change.record.subscription_id), change])), remembered: listed.remembered };
}

/**
 * Subscription Updated: the list fields' changes, and with the detail option the detail fields of
 * the subscriptions read this poll, merged into one item per subscription.
 */
function subscriptionUpdates(snapshot: ListSnapshot, previous: IDataObject, state: IDataObject, changes: Map<string, FieldChange>, details: Map<string, IDataObject> | undefined): IDataObject[] {
	if (details) {
		const withDetail = snapshot.subscriptions
			.filter((subscription) => details.has(String(subscription.subscription_id)))
			.map((subscription) => ({ ...detailFields(details.get(String(subscription.subscription_id))!), subscription_id: subscription.subscription_id, summary: subscription }));
		// Only some subscriptions are read each poll: the others keep what was remembered of them.
		const detailed = trackFieldChanges(withDetail, 'subscription_id', [...Object.keys(detailFields({}))], previous.subscriptionDetails as RememberedFields | undefined, false);
		if (snapshot.complete) {
			const live = new Set(snapshot.subscriptions.filter(isLive).map((subscription) => fingerprint(String(subscription.subscription_id))));
			for (const print of Object.keys(detailed.remembered)) if (!live.has(print)) delete detailed.remembered[print];
		}
		state.subscriptionDetails = detailed.remembered;
		for (const change of detailed.changed) {
			const id = String(change.record.subscription_id);
			const merged = changes.get(id) ?? { record: change.record.summary as IDataObject, changed_fields: [], changes: {} };
			merged.changed_fields.push(...change.changed_fields);
			Object.assign(merged.changes, change.changes);
			changes.set(id, merged);
		}
	}
	// In the order of the customer list.
	return snapshot.subscriptions
		.filter((subscription) => changes.has(String(subscription.subscription_id)))
		.map((subscription) => {
			const id = String(subscription.subscription_id);
			const { changed_fields, changes: values } = changes.get(id)!;
			const item: IDataObject = { event: 'subscriptionUpdated', detected_at: snapshot.detectedAt, changed_fields, changes: values, subscription };
			if (details?.has(id)) item.detail = details.get(id);
			return item;
		});
}

/**
 * Every selected customer-list event from one reading of the customer list and, when an event
 * needs them, Subscription Get for up to Subscription Reads Per Poll running subscriptions: those
 * due for renewal or changed, then the next ones of the pass over all of them. The state keeps one
 * section per kind of memory; an event whose section is missing (its first poll, or just selected)
 * only remembers. An event just added to the selection (`added`) emits nothing this poll, also when
 * it shares its section with an event selected before (Status Changed, Paused and Resumed share
 * `statuses`): what that section holds is from before the event was chosen.
 */
export async function pollCustomerListEvents(input: PollInput, selected: CustomerListEvent[], settings: CustomerListSettings, added: readonly CustomerListEvent[] = []): Promise<PollOutcome> {
	const events = new Set<string>(selected);
	const snapshot = listSnapshot(await readCustomerList(input.api), input.now);
	const previous = input.previous ?? {};
	const state: IDataObject = {};
	const items: IDataObject[] = [];
	const { detectedAt, complete } = snapshot;
	const listed = events.has('subscriptionUpdated') ? listedUpdates(snapshot, previous) : undefined;
	const renewals = events.has('subscriptionRenewalDue');
	const sweepBefore = previous.detailSweep as DetailSweep | undefined;
	const startLearning = renewals && previous.renewalDue === undefined;
	const reads = needsDetails(events, settings)
		? await readDetailsInPass(input, snapshot, sweepBefore, {
				first: [
					...(renewals && !startLearning ? renewalsToConfirm(snapshot, sweepBefore, previous.renewalDue as string | undefined, settings.renewalDueDays) : []),
					...(settings.subscriptionDetails && listed ? [...listed.changes.keys()] : []),
				],
				budget: settings.subscriptionReadsPerPoll,
				renewals,
				startLearning,
			})
		: undefined;
	if (reads) state.detailSweep = reads.sweep as IDataObject;

	if (events.has('newCustomer')) {
		const { added, known } = trackNewRecords(snapshot.customers, 'customer_id', previous.knownCustomers as string | undefined, complete);
		state.knownCustomers = known;
		for (const customer of added) items.push({ event: 'newCustomer', detected_at: detectedAt, customer });
	}
	if (events.has('customerUpdated')) {
		const { changed, remembered } = trackFieldChanges(snapshot.customers, 'customer_id', CUSTOMER_FIELDS, previous.customerFields as RememberedFields | undefined, complete);
		state.customerFields = remembered;
		for (const { record, changed_fields, changes } of changed) items.push({ event: 'customerUpdated', detected_at: detectedAt, changed_fields, changes, customer: record });
	}
	if (events.has('newSubscription')) {
		const { added, known } = trackNewRecords(snapshot.subscriptions, 'subscription_id', previous.knownSubscriptions as string | undefined, complete);
		state.knownSubscriptions = known;
		for (const subscription of added) items.push({ event: 'newSubscription', detected_at: detectedAt, subscription });
	}
	if (listed) {
		state.subscriptionFields = listed.remembered;
		items.push(...subscriptionUpdates(snapshot, previous, state, listed.changes, settings.subscriptionDetails ? reads?.details : undefined));
	}
	if (['subscriptionStatusChanged', 'subscriptionPaused', 'subscriptionResumed'].some((event) => events.has(event))) {
		const { changes, statuses } = trackStatuses(snapshot.subscriptions, previous.statuses as IDataObject | undefined, complete);
		state.statuses = statuses;
		items.push(...statusItems(changes, events, settings.statuses, detectedAt));
	}
	if (events.has('subscriptionEndingSoon')) {
		const { due, notified } = trackDateWindow(endDates(snapshot), settings.endingSoonDays, input.now, previous.endingSoon as string | undefined, complete);
		state.endingSoon = notified;
		for (const { record, date, daysLeft } of due) items.push({ event: 'subscriptionEndingSoon', detected_at: detectedAt, ends_at: date, days_left: daysLeft, subscription: record });
	}
	if (renewals && reads) {
		const renewal = renewalItems(snapshot, reads, previous.renewalDue as string | undefined, settings.renewalDueDays, startLearning || sweepBefore?.b === 1);
		state.renewalDue = renewal.notified;
		items.push(...renewal.items);
	}
	const learning = new Set<string>(added);
	return { items: items.filter((item) => !learning.has(String(item.event))), state };
}
