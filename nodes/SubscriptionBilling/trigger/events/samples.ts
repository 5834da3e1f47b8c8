import type { IDataObject } from 'n8n-workflow';
import { listSnapshot, readCustomerList, type ListSnapshot } from './customerList';
import { CUSTOMER_FIELDS, SUBSCRIPTION_FIELDS, endDates, renewalDates } from './customerListFamily';
import { nearestInWindow } from './dateWindow';
import { sampleChange } from './fieldChanges';
import { DETAIL_FIELDS, detailFields, readSubscriptionDetails } from './subscriptionDetails';
import { RESUMED_STATUSES } from './subscriptionStatus';
import { EVENT_OPTIONS } from '../description';
import { ID_KEYS, RECORD_OF } from './itemKeys';
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

/**
 * Per event, for an item with no example: what Fetch Test Event looked for, what makes one
 * appear, and the keys of the event's items after `event` and the IDs (itemKeys.ts).
 */
const NO_EXAMPLE: Record<TriggerEvent, { lookedFor: string; toSee: string; keys: string }> = {
	newCustomer: { lookedFor: 'no customer', toSee: 'create a customer in the account', keys: 'detected_at, customer' },
	customerUpdated: { lookedFor: 'no customer', toSee: 'create a customer in the account', keys: 'detected_at, changed_fields, changes, customer' },
	newSubscription: { lookedFor: 'no subscription', toSee: 'create a subscription for a customer in the account', keys: 'detected_at, subscription' },
	subscriptionUpdated: {
		lookedFor: 'no subscription',
		toSee: 'create a subscription for a customer in the account',
		keys: 'detected_at, changed_fields, changes, subscription and, with Compare Detail Fields, detail',
	},
	subscriptionStatusChanged: {
		lookedFor: 'no subscription in the statuses chosen in Only Changes To',
		toSee: 'choose other statuses in Only Changes To (none: every change)',
		keys: 'detected_at, previous_status, status, subscription',
	},
	subscriptionPaused: { lookedFor: 'no paused subscription', toSee: 'pause a subscription in the account', keys: 'detected_at, previous_status, status, subscription' },
	subscriptionResumed: {
		lookedFor: `no subscription in ${RESUMED_STATUSES.join(' or ')}`,
		toSee: 'resume a paused subscription in the account',
		keys: 'detected_at, previous_status, status, subscription',
	},
	subscriptionEndingSoon: {
		lookedFor: 'no subscription ending within Days Before End',
		toSee: "raise Days Before End to reach a running subscription's end date",
		keys: 'detected_at, ends_at, days_left, subscription',
	},
	subscriptionRenewalDue: {
		lookedFor: `no renewal within Days Before Renewal among the ${SAMPLE_DETAIL_READS} subscriptions ending soonest`,
		toSee: "raise Days Before Renewal to reach a running subscription's renewal date",
		keys: 'detected_at, renews_at, days_left, auto_renews, subscription, detail',
	},
	newInvoice: { lookedFor: 'no invoice', toSee: 'wait until an invoice is issued', keys: 'detected_at, invoice' },
	invoicePaid: { lookedFor: 'no paid invoice', toSee: 'wait until an invoice is fully paid', keys: 'detected_at, previous_status, invoice' },
	invoiceOverdue: { lookedFor: 'no overdue invoice', toSee: 'wait until an unpaid invoice passes its due date', keys: 'detected_at, previous_status, invoice' },
	invoicePaymentFailed: {
		lookedFor: 'no invoice with a failed payment',
		toSee: 'wait until a payment attempt on an invoice fails',
		keys: 'detected_at, error, attempt_count, payment, invoice',
	},
};

const RECORD_TEXT = {
	customer: 'customer is the customer as the API lists it',
	subscription: "subscription is the subscription's summary from the customer list, with its customer",
	invoice: 'invoice is the invoice as the API returns it',
};

/**
 * The samples, and for each selected event that has none an item saying so (`no_example`), so a
 * test fetch of several events never looks complete when some showed nothing. It says, in the
 * editor, what the event's items hold and what makes an example appear.
 */
export function withMissingExamples(events: TriggerEvent[], samples: IDataObject[], invoicesOf: string): IDataObject[] {
	const shown = new Set(samples.map((sample) => sample.event));
	const missing = events
		.filter((event) => !shown.has(event))
		.map((event) => {
			const name = EVENT_OPTIONS.find((option) => option.value === event)?.name ?? event;
			const where = isInvoiceFamilyEvent(event) ? `the invoices of ${invoicesOf}` : 'the customer list';
			const { lookedFor, toSee, keys } = NO_EXAMPLE[event];
			const record = RECORD_OF[event];
			return {
				event,
				no_example:
					`${name}: no example to show. Fetch Test Event found ${lookedFor} in ${where}; to see one here, ${toSee}, then fetch again. ` +
					`This item is not an event: once the workflow is active, each ${name} is emitted as an item with the keys event, ${ID_KEYS[record].join(', ')}, ${keys} (${RECORD_TEXT[record]}).`,
			};
		});
	return [...samples, ...missing];
}
