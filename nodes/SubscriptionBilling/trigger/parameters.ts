import { NodeOperationError, type IPollFunctions } from 'n8n-workflow';
import { ID } from '../shared/idChecks';
import { readSubscriptionReadsPerPoll } from './detailSettings';
import { isCustomerListEvent, isInvoiceFamilyEvent, type CustomerListEvent, type CustomerListSettings, type InvoiceFamilyEvent, type TriggerEvent } from './events/types';

/** The Customer parameter, checked like every id that goes into a path. */
export function checkedCustomerId(ctx: IPollFunctions): string {
	const raw = ctx.getNodeParameter('customerId', undefined, { extractValue: true });
	const value = typeof raw === 'number' ? String(raw) : raw;
	if (typeof value !== 'string' || value.trim() === '') {
		throw new NodeOperationError(ctx.getNode(), 'Customer: choose the customer whose invoices to watch, or choose All Customers');
	}
	if (!ID.pattern.test(value)) throw new NodeOperationError(ctx.getNode(), `Customer: "${value}" ${ID.hint}`);
	return value;
}

export interface TriggerSettings extends CustomerListSettings {
	listEvents: CustomerListEvent[];
	invoiceEvents: InvoiceFamilyEvent[];
	/** The one customer whose invoices are watched; undefined: all customers. */
	invoiceCustomerId: string | undefined;
}

function selectedEvents(ctx: IPollFunctions): TriggerEvent[] {
	const events = ctx.getNodeParameter('events', []) as TriggerEvent[];
	if (!Array.isArray(events) || events.length === 0) throw new NodeOperationError(ctx.getNode(), 'Events: choose at least one event');
	return [...new Set(events)];
}

function days(ctx: IPollFunctions, name: string, label: string, wanted: boolean): number {
	if (!wanted) return 0;
	const value = ctx.getNodeParameter(name, 30) as number;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new NodeOperationError(ctx.getNode(), `${label}: "${String(value)}" is not a whole number of days, 0 or more`);
	return value;
}

/** What the trigger is set to watch, checked before any request. */
export function triggerSettings(ctx: IPollFunctions): TriggerSettings {
	const events = selectedEvents(ctx);
	const listEvents = events.filter(isCustomerListEvent);
	const invoiceEvents = events.filter(isInvoiceFamilyEvent);
	const subscriptionDetails = listEvents.includes('subscriptionUpdated') && ctx.getNodeParameter('subscriptionDetails', false) === true;
	return {
		listEvents,
		invoiceEvents,
		invoiceCustomerId: invoiceEvents.length > 0 && ctx.getNodeParameter('scope') === 'customer' ? checkedCustomerId(ctx) : undefined,
		statuses: listEvents.includes('subscriptionStatusChanged') ? (ctx.getNodeParameter('statuses', []) as string[]) : [],
		endingSoonDays: days(ctx, 'endingSoonDays', 'Days Before End', listEvents.includes('subscriptionEndingSoon')),
		renewalDueDays: days(ctx, 'renewalDueDays', 'Days Before Renewal', listEvents.includes('subscriptionRenewalDue')),
		subscriptionDetails,
		subscriptionReadsPerPoll: listEvents.includes('subscriptionRenewalDue') || subscriptionDetails ? readSubscriptionReadsPerPoll(ctx) : 0,
	};
}
