import type { ReadAccess } from '../../shared/apiAccess';

/** Events read from the customer list (GET /customers), which carries every subscription's summary. */
export const CUSTOMER_LIST_EVENTS = [
	'newCustomer',
	'customerUpdated',
	'newSubscription',
	'subscriptionUpdated',
	'subscriptionStatusChanged',
	'subscriptionPaused',
	'subscriptionResumed',
	'subscriptionEndingSoon',
	'subscriptionRenewalDue',
] as const;

/** Events read from customers' invoice lists. */
export const INVOICE_FAMILY_EVENTS = ['newInvoice', 'invoicePaid', 'invoiceOverdue', 'invoicePaymentFailed'] as const;

export type CustomerListEvent = (typeof CUSTOMER_LIST_EVENTS)[number];
export type InvoiceFamilyEvent = (typeof INVOICE_FAMILY_EVENTS)[number];

/** The event values of the trigger's Events parameter. */
export type TriggerEvent = CustomerListEvent | InvoiceFamilyEvent;

export function isCustomerListEvent(event: string): event is CustomerListEvent {
	return (CUSTOMER_LIST_EVENTS as readonly string[]).includes(event);
}

export function isInvoiceFamilyEvent(event: string): event is InvoiceFamilyEvent {
	return (INVOICE_FAMILY_EVENTS as readonly string[]).includes(event);
}

export interface PollInput {
	api: ReadAccess;
	/** Time of this poll, used for `detected_at` and to tell whether an invoice is overdue. */
	now: Date;
}

/** What the customer-list events are asked to report, beyond which events. */
export interface CustomerListSettings {
	/** Subscription Status Changed: only changes to these statuses (none: every change). */
	statuses: string[];
	/** Subscription Ending Soon: days before `ends_at`. */
	endingSoonDays: number;
	/** Subscription Renewal Due: days before `renews_at`. */
	renewalDueDays: number;
	/** Subscription Updated: also compare the detail fields (Subscription Get of running subscriptions). */
	subscriptionDetails: boolean;
	/** Renewal Due and the detail fields: most Subscription Gets one poll sends (a pass spans polls). */
	subscriptionReadsPerPoll: number;
}
