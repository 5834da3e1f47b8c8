import { NodeOperationError, type IPollFunctions } from 'n8n-workflow';
import { quoted } from '../shared/invalidInput';
import { ID } from '../shared/idChecks';
import { chosenMoment } from './chosenMoment';
import { MAX_CATCH_UP_DAYS, triggerProperties } from './description';
import {
	isCustomerListEvent,
	isInvoiceFamilyEvent,
	type CustomerListEvent,
	type InvoiceFamilyEvent,
	type TriggerEvent,
} from './events/catalog';
import type { CustomerListSettings } from './events/types';

/**
 * Every setting of the trigger is read here, once per poll, before any request. One policy: a
 * saved value the editor would not accept (a number box emptied, a value outside its limits, an
 * expression giving one) is an error naming the field as the editor shows it; nothing is clamped.
 */
function invalid(ctx: IPollFunctions, field: string, problem: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `${field}: ${problem}`, {
		description:
			'Nothing was sent to the API. Correct the setting in the trigger and publish again.',
	});
}

/** The Customer parameter, checked like every id that goes into a path. */
export function checkedCustomerId(ctx: IPollFunctions): string {
	const raw = ctx.getNodeParameter('customerId', undefined, { extractValue: true });
	const value = typeof raw === 'number' ? String(raw) : raw;
	if (typeof value !== 'string' || value.trim() === '')
		throw invalid(
			ctx,
			'Customer',
			'choose the customer whose invoices to watch, or choose All Customers',
		);
	if (!ID.pattern.test(value)) throw invalid(ctx, 'Customer', `"${value}" ${ID.hint}`);
	return value;
}

export interface TriggerSettings extends CustomerListSettings {
	listEvents: CustomerListEvent[];
	invoiceEvents: InvoiceFamilyEvent[];
	/** The one customer whose invoices are watched; undefined: all customers. */
	invoiceCustomerId: string | undefined;
	/** Invoice events: the look-back window (ms). */
	lookBackMs: number;
	/** Invoice events over all customers: most requests one poll sends. */
	requestsPerPoll: number;
	/** Invoice events: the moment chosen to catch up from (epoch ms); undefined: from publishing. */
	invoicesFrom: number | undefined;
}

function selectedEvents(ctx: IPollFunctions): TriggerEvent[] {
	const events = ctx.getNodeParameter('events', []) as TriggerEvent[];
	if (!Array.isArray(events) || events.length === 0)
		throw invalid(ctx, 'Events', 'choose at least one event');
	return [...new Set(events)];
}

/** A number setting, checked against the limits its editor field has (description.ts); 0 when the field is not shown. */
function wholeNumber(ctx: IPollFunctions, name: string, shown: boolean): number {
	if (!shown) return 0;
	const property = triggerProperties.find((candidate) => candidate.name === name)!;
	const { minValue = 0, maxValue = Infinity } = (property.typeOptions ?? {}) as {
		minValue?: number;
		maxValue?: number;
	};
	const value = ctx.getNodeParameter(name, property.default);
	if (
		typeof value === 'number' &&
		Number.isInteger(value) &&
		value >= minValue &&
		value <= maxValue
	)
		return value;
	const range =
		maxValue === Infinity ? `of at least ${minValue}` : `from ${minValue} to ${maxValue}`;
	throw invalid(ctx, property.displayName, `${quoted(value)} is not a whole number ${range}`);
}

const displayNameOf = (name: string) =>
	triggerProperties.find((property) => property.name === name)!.displayName;

/** Invoice Changes From: undefined for Publishing, else the instant Catch Up From names. */
function catchUpMoment(ctx: IPollFunctions, shown: boolean): number | undefined {
	if (!shown) return undefined;
	const from = ctx.getNodeParameter('invoicesFrom', 'publishing');
	if (from === 'publishing') return undefined;
	if (from !== 'date')
		throw invalid(
			ctx,
			displayNameOf('invoicesFrom'),
			`${quoted(from)} is not Publishing or A Date and Time`,
		);
	const value = ctx.getNodeParameter('invoicesFromDate', '');
	const at = chosenMoment(value, ctx.getTimezone());
	if (at === undefined)
		throw invalid(
			ctx,
			displayNameOf('invoicesFromDate'),
			`${quoted(value)} is not a date and time: choose one, or set Invoice Changes From to Publishing`,
		);
	return at;
}

const DAY_MS = 86_400_000;

/**
 * The chosen moment, checked when the invoice events start from it (publishing, `now`): not after
 * now, and at most MAX_CATCH_UP_DAYS before. Later polls go on from the state, whatever its age.
 */
export function checkCatchUpStart(ctx: IPollFunctions, from: number, now: number): void {
	const field = displayNameOf('invoicesFromDate');
	const shown = new Date(from).toISOString();
	if (from > now)
		throw invalid(
			ctx,
			field,
			`${shown} is after now: choose a moment in the past, or set Invoice Changes From to Publishing`,
		);
	if (from < now - MAX_CATCH_UP_DAYS * DAY_MS)
		throw invalid(
			ctx,
			field,
			`${shown} is more than ${MAX_CATCH_UP_DAYS} days ago, the furthest the catch-up goes back: choose a later moment`,
		);
}

/** What the trigger is set to watch, checked before any request. */
export function triggerSettings(ctx: IPollFunctions): TriggerSettings {
	const events = selectedEvents(ctx);
	const listEvents = events.filter(isCustomerListEvent);
	const invoiceEvents = events.filter(isInvoiceFamilyEvent);
	const invoices = invoiceEvents.length > 0;
	const allCustomers = invoices && ctx.getNodeParameter('scope') !== 'customer';
	const subscriptionDetails =
		listEvents.includes('subscriptionUpdated') &&
		ctx.getNodeParameter('subscriptionDetails', false) === true;
	return {
		listEvents,
		invoiceEvents,
		invoiceCustomerId: invoices && !allCustomers ? checkedCustomerId(ctx) : undefined,
		lookBackMs: wholeNumber(ctx, 'lookBackDays', invoices) * 86_400_000,
		requestsPerPoll: wholeNumber(ctx, 'requestsPerPoll', allCustomers),
		invoicesFrom: catchUpMoment(ctx, invoices),
		statuses: listEvents.includes('subscriptionStatusChanged')
			? (ctx.getNodeParameter('statuses', []) as string[])
			: [],
		endingSoonDays: wholeNumber(
			ctx,
			'endingSoonDays',
			listEvents.includes('subscriptionEndingSoon'),
		),
		renewalDueDays: wholeNumber(
			ctx,
			'renewalDueDays',
			listEvents.includes('subscriptionRenewalDue'),
		),
		subscriptionDetails,
		subscriptionReadsPerPoll: wholeNumber(
			ctx,
			'subscriptionReadsPerPoll',
			listEvents.includes('subscriptionRenewalDue') || subscriptionDetails,
		),
	};
}
