import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { isInvoiceFamilyEvent } from './events/types';

const STATE_KEY = 'trigger';
const STATE_VERSION = 2;

/** The trigger's memory is kept per event family: each family reads its own source. */
export type EventFamily = 'customerList' | 'invoices';

/**
 * What one family remembers between polls. `watching` names the settings the memory belongs to
 * (for the invoice family, which customers): memory kept for other settings is not used, and the
 * family's next poll starts from where things stand.
 */
export interface FamilyState {
	watching: string;
	data: IDataObject;
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
		if (isInvoiceFamilyEvent(event)) families.invoices = { watching: invoiceWatching(customerId, [event]), data: stored.data };
		const sections = customerListFromV1(event, stored.data);
		if (sections) families.customerList = { watching: CUSTOMER_LIST_WATCHING, data: sections };
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
 * The invoice family's memory belongs to its customers and its events: its events share one memory
 * (invoices.ts), so an event added later starts from where things stand instead of reporting the past.
 */
export function invoiceWatching(customerId: string | undefined, events: readonly string[]): string {
	return JSON.stringify({ customerId: customerId ?? '*', events: [...events].sort() });
}

export function readFamilyState(ctx: IPollFunctions, family: EventFamily, watching: string): IDataObject | undefined {
	const state = stored(ctx)?.families[family];
	return state && state.watching === watching ? state.data : undefined;
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
