import type { IDataObject } from 'n8n-workflow';
import { listSnapshot, readCustomerList, type ListSnapshot } from './customerList';
import { CUSTOMER_FIELDS, SUBSCRIPTION_FIELDS, endDates, renewalDates } from './customerListFamily';
import { nearestInWindow } from './dateWindow';
import { sampleChange } from './fieldChanges';
import { DETAIL_FIELDS, detailFields, readSubscriptionDetails } from './subscriptionDetails';
import { RESUMED_STATUSES } from './subscriptionStatus';
import type { CustomerListEvent, CustomerListSettings, PollInput } from './types';

/** Subscriptions whose detail Fetch Test Event reads at most, nearest end date first, to find a renewal date. */
const SAMPLE_DETAIL_READS = 20;

function lastWithStatus(snapshot: ListSnapshot, statuses: string[]): IDataObject | undefined {
	return snapshot.subscriptions.filter((subscription) => statuses.length === 0 || statuses.includes(String(subscription.status))).at(-1);
}

/** Live subscriptions, nearest end date first: renewals are due near the end of a term. */
function nearestEndFirst(snapshot: ListSnapshot): string[] {
	return endDates(snapshot)
		.sort((a, b) => String(a.date).localeCompare(String(b.date)))
		.map((entry) => entry.id);
}

async function sampleOf(input: PollInput, snapshot: ListSnapshot, event: CustomerListEvent, settings: CustomerListSettings): Promise<IDataObject | undefined> {
	const base = { event, detected_at: snapshot.detectedAt };
	const statusItem = (subscription: IDataObject | undefined) => subscription && { ...base, previous_status: null, status: subscription.status, subscription };
	switch (event) {
		case 'newCustomer': {
			const customer = snapshot.customers.at(-1);
			return customer && { ...base, customer };
		}
		case 'customerUpdated': {
			const customer = snapshot.customers.at(-1);
			return customer && { ...base, ...sampleChange(customer, CUSTOMER_FIELDS), customer };
		}
		case 'newSubscription': {
			const subscription = snapshot.subscriptions.at(-1);
			return subscription && { ...base, subscription };
		}
		case 'subscriptionUpdated': {
			const subscription = snapshot.subscriptions.at(-1);
			if (!subscription) return undefined;
			if (!settings.subscriptionDetails) return { ...base, ...sampleChange(subscription, SUBSCRIPTION_FIELDS), subscription };
			const detail = (await readSubscriptionDetails(input.api, [String(subscription.subscription_id)])).get(String(subscription.subscription_id));
			const fields = detail ? { ...subscription, ...detailFields(detail) } : subscription;
			return { ...base, ...sampleChange(fields, [...SUBSCRIPTION_FIELDS, ...(detail ? DETAIL_FIELDS : [])]), subscription, ...(detail && { detail }) };
		}
		case 'subscriptionStatusChanged':
			return statusItem(lastWithStatus(snapshot, settings.statuses));
		case 'subscriptionPaused':
			return statusItem(lastWithStatus(snapshot, ['PAUSED']));
		case 'subscriptionResumed':
			return statusItem(lastWithStatus(snapshot, RESUMED_STATUSES));
		case 'subscriptionEndingSoon': {
			const due = nearestInWindow(endDates(snapshot), settings.endingSoonDays, input.now);
			return due && { ...base, ends_at: due.date, days_left: due.daysLeft, subscription: due.record };
		}
		case 'subscriptionRenewalDue': {
			const details = await readSubscriptionDetails(input.api, nearestEndFirst(snapshot).slice(0, SAMPLE_DETAIL_READS));
			const due = nearestInWindow(renewalDates(snapshot, details), settings.renewalDueDays, input.now);
			if (!due) return undefined;
			const detail = details.get(String(due.record.subscription_id))!;
			return { ...base, renews_at: due.date, days_left: due.daysLeft, auto_renews: detail.auto_renews ?? null, subscription: due.record, detail };
		}
	}
}

/**
 * Fetch Test Event for the customer-list events: for each selected event the last matching record
 * of the customer list (the API gives no creation time, so the list's order stands in for it), or
 * the nearest date in the window; previous values are unknown (null). State untouched.
 */
export async function sampleCustomerListEvents(input: PollInput, events: CustomerListEvent[], settings: CustomerListSettings): Promise<IDataObject[]> {
	const snapshot = listSnapshot(await readCustomerList(input.api), input.now);
	const items: IDataObject[] = [];
	for (const event of events) {
		const item = await sampleOf(input, snapshot, event, settings);
		if (item) items.push(item);
	}
	return items;
}
