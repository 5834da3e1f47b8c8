import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { isInvoiceFamilyEvent } from './events/types';

const STATE_KEY = 'trigger';
const STATE_VERSION = 2;

/** The trigger's memory is kept per event family: each family reads its own source. */
export type EventFamily = 'customerList' | 'invoices';

/**
 * What one family remembers between polls. `watching` names the settings the memory belongs to
 * (for the invoice family, which customers): memory kept for other settings is not used, and the
 * family's next poll starts from where things stand. `events`: the family's events selected when
 * it was written, so that an event added later is told apart (it starts from where things stand
 * while the others carry on); absent in a customer-list state saved before it was kept.
 */
export interface FamilyState {
	watching: string;
	events?: string[];
	data: IDataObject;
}

/** A family's memory as a poll reads it. */
export interface FamilyMemory {
	data: IDataObject;
	/** The family's events the memory was kept for; undefined: not known (a state saved before they were kept). */
	events: string[] | undefined;
}

interface StoredState {
	version: typeof STATE_VERSION;
	families: Partial<Record<EventFamily, FamilyState>>;
}

/** The customer-list family's memory belongs to no setting: each event keeps its own section. */
export const CUSTOMER_LIST_WATCHING = 'customer list';

/** Version 1 kept one event's memory: `{ version: 1, watching: '{"event":…,"customerId":…}', data }`. */
interface StoredStateV1 {
	version: 1;
	watching: string;
	data: IDataObject;
}

/** The sections the customer-list family keeps, from what version 1 kept for its one event. */
function customerListFromV1(event: string, data: IDataObject): IDataObject | undefined {
	if (event === 'newCustomer' && typeof data.known === 'string') return { knownCustomers: data.known };
	if (event === 'newSubscription' && typeof data.known === 'string') return { knownSubscriptions: data.known };
	if (event === 'subscriptionStatusChanged' && data.statuses) return { statuses: data.statuses };
	return undefined;
}

/** Version 1's memory read as the families keep it now, so a saved workflow neither repeats nor misses. */
function fromVersion1(stored: StoredStateV1): StoredState {
	const families: StoredState['families'] = {};
	try {
		const { event, customerId } = JSON.parse(stored.watching) as { event: string; customerId?: string };
		// The invoice family reads version 1's invoice state itself (its `customer` or `customers`).
		if (isInvoiceFamilyEvent(event)) families.invoices = { watching: invoiceWatching(customerId), events: [event], data: stored.data };
		const sections = customerListFromV1(event, stored.data);
		if (sections) families.customerList = { watching: CUSTOMER_LIST_WATCHING, events: [event], data: sections };
	} catch {
		// Unreadable: start from where things stand.
	}
	return { version: STATE_VERSION, families };
}

function stored(ctx: IPollFunctions): StoredState | undefined {
	const value = ctx.getWorkflowStaticData('node')[STATE_KEY] as StoredState | StoredStateV1 | undefined;
	if (value?.version === 1) return fromVersion1(value);
	return value?.version === STATE_VERSION ? value : undefined;
}

/**
 * The invoice family's memory belongs to its customers: another customer (or All Customers instead
 * of one) starts it over. Its events share it; each event added later only learns at first
 * (invoices.ts), so adding or removing one does not touch the others.
 */
export function invoiceWatching(customerId: string | undefined): string {
	return JSON.stringify({ customerId: customerId ?? '*' });
}

/**
 * Until events were kept apart, the invoice family's `watching` named its events too
 * (`{customerId, events}`): read as its customers and its events.
 */
function withEvents(state: FamilyState): FamilyState {
	if (state.events) return state;
	try {
		const { customerId, events } = JSON.parse(state.watching) as { customerId?: unknown; events?: unknown };
		if (typeof customerId === 'string' && Array.isArray(events)) return { ...state, watching: JSON.stringify({ customerId }), events: events.map(String) };
	} catch {
		// Not JSON: the customer list's `watching`.
	}
	return state;
}

export function readFamilyState(ctx: IPollFunctions, family: EventFamily, watching: string): FamilyMemory | undefined {
	const saved = stored(ctx)?.families[family];
	const state = saved && withEvents(saved);
	return state && state.watching === watching ? { data: state.data, events: state.events } : undefined;
}

/** The events selected now that the memory was not kept for: they only learn at first. None when the memory is new, or its events unknown. */
export function addedEvents<T extends string>(memory: FamilyMemory | undefined, selected: readonly T[]): T[] {
	const before = memory?.events;
	return before ? selected.filter((event) => !before.includes(event)) : [];
}

/**
 * Replaces the remembered state of every family in one assignment, after every request of the poll
 * succeeded: a poll that fails part-way leaves the previous state as it was. A family not polled
 * (none of its events selected) is forgotten: selected again later, it starts from where things stand.
 */
export function writeFamilyStates(ctx: IPollFunctions, families: Partial<Record<EventFamily, FamilyState>>): void {
	const state: StoredState = { version: STATE_VERSION, families };
	ctx.getWorkflowStaticData('node')[STATE_KEY] = state as unknown as IDataObject;
}
