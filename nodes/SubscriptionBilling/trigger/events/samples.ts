import type { IDataObject } from 'n8n-workflow';
import { listSnapshot, readCustomerList, type ListSnapshot } from './customerList';
import { CUSTOMER_FIELDS, SUBSCRIPTION_FIELDS, endDates, renewalDates } from './customerListFamily';
import { nearestInWindow } from './dateWindow';
import { sampleChange } from './fieldChanges';
import { DETAIL_FIELDS, detailFields, readSubscriptionDetails } from './subscriptionDetails';
import { RESUMED_STATUSES } from './subscriptionStatus';
import { EVENT_OPTIONS } from '../description';
import { isInvoiceFamilyEvent, type CustomerListEvent, type CustomerListSettings, type PollInput, type TriggerEvent } from './types';

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

/** What Fetch Test Event looked for, per event, when it found no example. */
const LOOKED_FOR: Record<TriggerEvent, string> = {
	newCustomer: 'no customer',
	customerUpdated: 'no customer',
	newSubscription: 'no subscription',
	subscriptionUpdated: 'no subscription',
	subscriptionStatusChanged: 'no subscription in the statuses chosen in Only Changes To',
	subscriptionPaused: 'no paused subscription',
	subscriptionResumed: `no subscription in ${RESUMED_STATUSES.join(' or ')}`,
	subscriptionEndingSoon: 'no subscription ending within Days Before End',
	subscriptionRenewalDue: `no renewal within Days Before Renewal among the ${SAMPLE_DETAIL_READS} subscriptions ending soonest`,
	newInvoice: 'no invoice',
	invoicePaid: 'no paid invoice',
	invoiceOverdue: 'no overdue invoice',
	invoicePaymentFailed: 'no invoice with a failed payment',
};

/**
 * The samples, and for each selected event that has none an item saying so (`no_example`), so a
 * test fetch of several events never looks complete when some showed nothing.
 */
export function withMissingExamples(events: TriggerEvent[], samples: IDataObject[], invoicesOf: string): IDataObject[] {
	const shown = new Set(samples.map((sample) => sample.event));
	const missing = events
		.filter((event) => !shown.has(event))
		.map((event) => {
			const name = EVENT_OPTIONS.find((option) => option.value === event)?.name ?? event;
			const where = isInvoiceFamilyEvent(event) ? `the invoices of ${invoicesOf}` : 'the customer list';
			return {
				event,
				no_example: `${name}: no example to show. Fetch Test Event found ${LOOKED_FOR[event]} in ${where}. This item is not an event: once one happens, the trigger emits it in the shape the README's Trigger section gives.`,
			};
		});
	return [...samples, ...missing];
}
