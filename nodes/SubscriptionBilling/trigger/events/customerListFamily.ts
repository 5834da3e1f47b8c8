import type { IDataObject } from 'n8n-workflow';
import { fingerprint } from '../fingerprint';
import { RecordTable, UNKNOWN } from '../recordTable';
import type { CustomerListState } from '../state';
import { isLive, listSnapshot, readCustomerList, type ListSnapshot } from './customerList';
import { trackDateWindow, type Dated } from './dateWindow';
import { readDetailsInPass, type DetailReads } from './detailSweep';
import { fieldChange, valueOf, type FieldChange } from './fieldChanges';
import { newRecords } from './newRecords';
import { renewalItems, renewalsToConfirm } from './renewalDue';
import { DETAIL_FIELDS, detailFields } from './subscriptionDetails';
import { statusChanges, statusItems } from './subscriptionStatus';
import type { CustomerListEvent, CustomerListSettings, PollInput } from './types';

/** The customer fields Customer Updated compares: every field of the customer input. */
export const CUSTOMER_FIELDS = ['name', 'legal_name', 'external_id', 'address', 'processor_customer_id', 'tax_id'] as const;
/** The subscription fields the customer list carries, compared by Subscription Updated. */
export const SUBSCRIPTION_FIELDS = ['name', 'starts_at', 'ends_at', 'status'] as const;
/** Columns kept as values, not hashes: small enough, and their previous value is reported. */
const EXACT_COLUMNS = new Set(['status', 'starts_at', 'ends_at', 'renews_at']);
const NO_EXACT_COLUMNS = new Set<string>();
const STATUS_EVENTS = ['subscriptionStatusChanged', 'subscriptionPaused', 'subscriptionResumed'];

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

/** The subscriptions table's columns for the selected events (state.ts). */
function subscriptionColumns(events: Set<string>, settings: CustomerListSettings): string[] {
	const updated = events.has('subscriptionUpdated');
	const details = updated && settings.subscriptionDetails;
	return [
		...(updated || STATUS_EVENTS.some((event) => events.has(event)) ? ['status'] : []),
		...(updated ? ['name', 'starts_at', 'ends_at'] : []),
		...(details || events.has('subscriptionRenewalDue') ? ['renews_at'] : []),
		...(details ? DETAIL_FIELDS.filter((field) => field !== 'renews_at') : []),
	];
}

/**
 * This poll's subscriptions table: the listed columns from the list; the detail columns from the
 * detail read this poll, else as remembered (`~` until read; a subscription that no longer runs,
 * or is gone when read, forgets them).
 */
function subscriptionsAfter(snapshot: ListSnapshot, before: RecordTable | undefined, columns: string[], reads: DetailReads | undefined): RecordTable {
	const after = RecordTable.after(before, columns, EXACT_COLUMNS);
	for (const subscription of snapshot.subscriptions) {
		const id = String(subscription.subscription_id);
		const detail = reads?.details.get(id);
		const fields = detail && detailFields(detail);
		const kept = before?.row(id);
		const cells = columns.map((column) => {
			if (!(DETAIL_FIELDS as readonly string[]).includes(column)) return after.cell(column, valueOf(subscription, column));
			if (fields) return after.cell(column, fields[column]);
			if (!isLive(subscription) || reads?.asked.has(id)) return UNKNOWN;
			const index = before?.columns.indexOf(column) ?? -1;
			return kept && index >= 0 ? kept[index] : UNKNOWN;
		});
		after.rows.set(fingerprint(id), cells);
	}
	if (!snapshot.complete) after.keepMissing(before);
	return after;
}

/** Whether every detail column of a subscription was remembered: only then are its detail fields compared. */
function detailKnown(table: RecordTable | undefined, id: string): boolean {
	return table !== undefined && DETAIL_FIELDS.every((field) => table.cellOf(id, field) !== undefined);
}

/**
 * Subscription Updated: the listed fields' changes, and with the detail option the detail fields
 * of the subscriptions read this poll, merged into one item per subscription, in the list's order.
 */
function subscriptionUpdates(snapshot: ListSnapshot, before: RecordTable | undefined, after: RecordTable, changes: Map<string, FieldChange>, details: Map<string, IDataObject> | undefined): IDataObject[] {
	const summaries = new Map(snapshot.subscriptions.map((subscription) => [String(subscription.subscription_id), subscription]));
	for (const [id, detail] of details ?? []) {
		if (!detailKnown(before, id)) continue;
		const summary = summaries.get(id);
		const fields = detailFields(detail);
		const change = summary && fieldChange(summary, id, DETAIL_FIELDS, (field) => fields[field], before, after);
		if (!change) continue;
		const merged = changes.get(id) ?? { record: summary!, changed_fields: [], changes: {} };
		merged.changed_fields.push(...change.changed_fields);
		Object.assign(merged.changes, change.changes);
		changes.set(id, merged);
	}
	return snapshot.subscriptions
		.filter((subscription) => changes.has(String(subscription.subscription_id)))
		.map((subscription) => {
			const id = String(subscription.subscription_id);
			const { changed_fields, changes: values } = changes.get(id)!;
			const item: IDataObject = { event: 'subscriptionUpdated', detected_at: snapshot.detectedAt, changed_fields, changes: values as IDataObject, subscription };
			if (details?.has(id)) item.detail = details.get(id);
			return item;
		});
}

/**
 * Every selected customer-list event from one reading of the customer list and, when an event
 * needs them, Subscription Get for up to Subscription Reads Per Poll running subscriptions: those
 * due for renewal or changed, then the next ones of the pass over all of them. What is not
 * remembered yet (a table, a column, a section: the event's first poll, or just selected) is only
 * remembered. An event just added to the selection (`added`) emits nothing this poll, also where
 * it shares a column with an event selected before (Status Changed, Paused and Resumed share
 * `status`): what that column holds is from before the event was chosen.
 */
export async function pollCustomerListEvents(
	input: PollInput,
	previous: CustomerListState | undefined,
	selected: CustomerListEvent[],
	settings: CustomerListSettings,
	added: readonly CustomerListEvent[] = [],
): Promise<{ items: IDataObject[]; state: CustomerListState }> {
	const events = new Set<string>(selected);
	const snapshot = listSnapshot(await readCustomerList(input.api), input.now);
	const state: CustomerListState = { events: selected };
	const items: IDataObject[] = [];
	const { detectedAt, complete } = snapshot;
	const customersBefore = RecordTable.read(previous?.customers, NO_EXACT_COLUMNS);
	const subscriptionsBefore = RecordTable.read(previous?.subscriptions, EXACT_COLUMNS);
	const updated = events.has('subscriptionUpdated');

	const listedChanges = new Map<string, FieldChange>();
	if (updated) {
		const cells = RecordTable.after(subscriptionsBefore, [], EXACT_COLUMNS);
		for (const subscription of snapshot.subscriptions) {
			const id = String(subscription.subscription_id);
			const change = fieldChange(subscription, id, SUBSCRIPTION_FIELDS, (field) => valueOf(subscription, field), subscriptionsBefore, cells);
			if (change) listedChanges.set(id, change);
		}
	}
	const renewals = events.has('subscriptionRenewalDue');
	const startLearning = renewals && previous?.renewalDue === undefined;
	const comparesDetails = updated && settings.subscriptionDetails;
	const startDetails = comparesDetails && !(previous?.subscriptions?.columns ?? []).includes('line_items');
	const reads = needsDetails(events, settings)
		? await readDetailsInPass(input, snapshot, previous?.detailPass, {
				first: [
					...(renewals && !startLearning ? renewalsToConfirm(snapshot, subscriptionsBefore, previous?.renewalDue, settings.renewalDueDays) : []),
					...(settings.subscriptionDetails && updated ? [...listedChanges.keys()] : []),
				],
				budget: settings.subscriptionReadsPerPoll,
				renewals,
				startLearning,
				startDetails,
			})
		: undefined;
	if (reads) state.detailPass = reads.pass;

	if (events.has('newCustomer') || events.has('customerUpdated')) {
		const columns = events.has('customerUpdated') ? [...CUSTOMER_FIELDS] : [];
		const after = RecordTable.after(customersBefore, columns, NO_EXACT_COLUMNS);
		const updates: IDataObject[] = [];
		for (const customer of snapshot.customers) {
			const id = String(customer.customer_id);
			after.rows.set(fingerprint(id), columns.map((column) => after.cell(column, valueOf(customer, column))));
			const change = events.has('customerUpdated') && fieldChange(customer, id, CUSTOMER_FIELDS, (field) => valueOf(customer, field), customersBefore, after);
			if (change) updates.push({ event: 'customerUpdated', detected_at: detectedAt, changed_fields: change.changed_fields, changes: change.changes as IDataObject, customer });
		}
		if (!complete) after.keepMissing(customersBefore);
		state.customers = after.store();
		if (events.has('newCustomer')) for (const customer of newRecords(snapshot.customers, 'customer_id', customersBefore)) items.push({ event: 'newCustomer', detected_at: detectedAt, customer });
		items.push(...updates);
	}
	const columns = subscriptionColumns(events, settings);
	const subscriptionsAfterPoll = columns.length > 0 || events.has('newSubscription') ? subscriptionsAfter(snapshot, subscriptionsBefore, columns, reads) : undefined;
	if (subscriptionsAfterPoll) state.subscriptions = subscriptionsAfterPoll.store();
	if (events.has('newSubscription')) {
		for (const subscription of newRecords(snapshot.subscriptions, 'subscription_id', subscriptionsBefore)) items.push({ event: 'newSubscription', detected_at: detectedAt, subscription });
	}
	if (updated) items.push(...subscriptionUpdates(snapshot, subscriptionsBefore, subscriptionsAfterPoll!, listedChanges, settings.subscriptionDetails ? reads?.details : undefined));
	if (STATUS_EVENTS.some((event) => events.has(event))) items.push(...statusItems(statusChanges(snapshot.subscriptions, subscriptionsBefore), events, settings.statuses, detectedAt));
	if (events.has('subscriptionEndingSoon')) {
		const { due, notified } = trackDateWindow(endDates(snapshot), settings.endingSoonDays, input.now, previous?.endingSoon, complete);
		state.endingSoon = notified;
		for (const { record, date, daysLeft } of due) items.push({ event: 'subscriptionEndingSoon', detected_at: detectedAt, ends_at: date, days_left: daysLeft, subscription: record });
	}
	if (renewals && reads) {
		const renewal = renewalItems(snapshot, reads, subscriptionsAfterPoll!, previous?.renewalDue, settings.renewalDueDays, reads.learningRenewals);
		state.renewalDue = renewal.notified;
		items.push(...renewal.items);
	}
	const learning = new Set<string>(added);
	return { items: items.filter((item) => !learning.has(String(item.event))), state };
}
