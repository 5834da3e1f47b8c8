import type { IDataObject } from 'n8n-workflow';
import { isLive, listSnapshot, readCustomerList, type ListSnapshot } from './customerList';
import { trackDateWindow, type Dated } from './dateWindow';
import { trackFieldChanges, type RememberedFields } from './fieldChanges';
import { trackNewRecords } from './newRecords';
import { detailFields, readSubscriptionDetails } from './subscriptionDetails';
import { statusItems, trackStatuses } from './subscriptionStatus';
import type { CustomerListEvent, CustomerListSettings, PollInput, PollOutcome } from './types';

/** The customer fields Customer Updated compares: every field of the customer input. */
export const CUSTOMER_FIELDS = ['name', 'legal_name', 'external_id', 'address', 'processor_customer_id', 'tax_id'] as const;
/** The subscription fields the customer list carries, compared by Subscription Updated. */
export const SUBSCRIPTION_FIELDS = ['name', 'starts_at', 'ends_at', 'status'] as const;

/** Whether the poll reads Subscription Get for each live subscription. */
export function needsDetails(events: Set<string>, settings: CustomerListSettings): boolean {
	return events.has('subscriptionRenewalDue') || (events.has('subscriptionUpdated') && settings.subscriptionDetails);
}

/** Each live subscription's detail, keyed by subscription id. */
export async function liveDetails(input: PollInput, snapshot: ListSnapshot): Promise<Map<string, IDataObject>> {
	return readSubscriptionDetails(input.api, snapshot.subscriptions.filter(isLive).map((subscription) => String(subscription.subscription_id)));
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

/** Subscription Updated: list fields, and with the detail option the detail fields, merged into one item per subscription. */
function subscriptionUpdates(snapshot: ListSnapshot, previous: IDataObject, state: IDataObject, details: Map<string, IDataObject> | undefined): IDataObject[] {
	const listed = trackFieldChanges(snapshot.subscriptions, 'subscription_id', SUBSCRIPTION_FIELDS, previous.subscriptionFields as RememberedFields | undefined, snapshot.complete);
	state.subscriptionFields = listed.remembered;
	const changes = new Map(listed.changed.map((change) => [String(change.record.subscription_id), change]));
	if (details) {
		const withDetail = snapshot.subscriptions
			.filter((subscription) => details.has(String(subscription.subscription_id)))
			.map((subscription) => ({ ...detailFields(details.get(String(subscription.subscription_id))!), subscription_id: subscription.subscription_id, summary: subscription }));
		const detailed = trackFieldChanges(withDetail, 'subscription_id', [...Object.keys(detailFields({}))], previous.subscriptionDetails as RememberedFields | undefined, snapshot.complete);
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
 * Every selected customer-list event from one reading of the customer list (and, when an event
 * needs them, one Subscription Get per live subscription). The state keeps one section per kind of
 * memory; an event whose section is missing (its first poll, or just selected) only remembers.
 */
export async function pollCustomerListEvents(input: PollInput, selected: CustomerListEvent[], settings: CustomerListSettings): Promise<PollOutcome> {
	const events = new Set<string>(selected);
	const snapshot = listSnapshot(await readCustomerList(input.api), input.now);
	const details = needsDetails(events, settings) ? await liveDetails(input, snapshot) : undefined;
	const previous = input.previous ?? {};
	const state: IDataObject = {};
	const items: IDataObject[] = [];
	const { detectedAt, complete } = snapshot;

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
	if (events.has('subscriptionUpdated')) {
		items.push(...subscriptionUpdates(snapshot, previous, state, settings.subscriptionDetails ? details : undefined));
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
	if (events.has('subscriptionRenewalDue') && details) {
		const { due, notified } = trackDateWindow(renewalDates(snapshot, details), settings.renewalDueDays, input.now, previous.renewalDue as string | undefined, complete);
		state.renewalDue = notified;
		for (const { record, date, daysLeft } of due) {
			const detail = details.get(String(record.subscription_id))!;
			items.push({ event: 'subscriptionRenewalDue', detected_at: detectedAt, renews_at: date, days_left: daysLeft, auto_renews: detail.auto_renews ?? null, subscription: record, detail });
		}
	}
	return { items, state };
}
