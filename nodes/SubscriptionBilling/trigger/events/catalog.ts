import { subscriptionEndingSoon, subscriptionRenewalDue } from './dateWindow';
import { customerUpdated, subscriptionUpdated } from './fieldChanges';
import { invoiceOverdue, invoicePaid, invoicePaymentFailed, newInvoice } from './invoiceEvents';
import { newCustomer, newSubscription } from './newRecords';

import {
	subscriptionPaused,
	subscriptionResumed,
	subscriptionStatusChanged,
} from './subscriptionStatus';
import type { InvoiceEvent, ListEvent } from './types';

/**
 * Every event of the trigger, each defined once (its name, detection, sample and what Fetch Test
 * Event says without one) and listed here; each family's code runs the selected ones in this
 * order, which is the order of a poll's items (docs/development.md, Adding a trigger event).
 */
export const CUSTOMER_LIST_EVENT_DEFINITIONS = [
	newCustomer,
	customerUpdated,
	newSubscription,
	subscriptionUpdated,
	subscriptionStatusChanged,
	subscriptionPaused,
	subscriptionResumed,
	subscriptionEndingSoon,
	subscriptionRenewalDue,
] as const satisfies readonly ListEvent[];

/** One invoice's items come in this order. */
export const INVOICE_EVENT_DEFINITIONS = [
	newInvoice,
	invoicePaymentFailed,
	invoicePaid,
	invoiceOverdue,
] as const satisfies readonly InvoiceEvent[];

export type CustomerListEvent = (typeof CUSTOMER_LIST_EVENT_DEFINITIONS)[number]['value'];
export type InvoiceFamilyEvent = (typeof INVOICE_EVENT_DEFINITIONS)[number]['value'];
/** The event values of the trigger's Events parameter. */
export type TriggerEvent = CustomerListEvent | InvoiceFamilyEvent;

export const CUSTOMER_LIST_EVENTS: CustomerListEvent[] = CUSTOMER_LIST_EVENT_DEFINITIONS.map(
	(definition) => definition.value,
);
export const INVOICE_FAMILY_EVENTS: InvoiceFamilyEvent[] = INVOICE_EVENT_DEFINITIONS.map(
	(definition) => definition.value,
);

export const EVENT_DEFINITIONS: ReadonlyArray<
	ListEvent<TriggerEvent> | InvoiceEvent<TriggerEvent>
> = [...CUSTOMER_LIST_EVENT_DEFINITIONS, ...INVOICE_EVENT_DEFINITIONS];

export function definitionOf(event: string): ListEvent | InvoiceEvent | undefined {
	return EVENT_DEFINITIONS.find((definition) => definition.value === event);
}

export function isCustomerListEvent(event: string): event is CustomerListEvent {
	return definitionOf(event)?.family === 'customerList';
}

export function isInvoiceFamilyEvent(event: string): event is InvoiceFamilyEvent {
	return definitionOf(event)?.family === 'invoices';
}
