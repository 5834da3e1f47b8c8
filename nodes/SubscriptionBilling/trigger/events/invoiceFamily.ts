import type { IDataObject } from 'n8n-workflow';
import type { InvoiceEvent } from './customerInvoices';
import { pollAllCustomersInvoices, pollCustomerInvoices, sampleInvoice as sampleOneInvoiceEvent } from './invoices';
import type { InvoiceFamilyEvent, PollInput, PollOutcome } from './types';

/**
 * The invoice events' entry points as the node calls them: all selected invoice events of one poll,
 * and one event's test sample. Here each event reads the invoices on its own (its state under its
 * own key); the invoice family's single reading for all events replaces this adapter.
 */
function supported(event: InvoiceFamilyEvent): InvoiceEvent {
	if (event === 'invoicePaymentFailed') throw new Error('Invoice Payment Failed is not part of this build of the trigger');
	return event;
}

/** This adapter keeps each event's state under its name; version 1 kept its one event's state bare. */
function previousOf(previous: IDataObject | undefined, event: InvoiceFamilyEvent): IDataObject | undefined {
	if (previous && ('customer' in previous || 'customers' in previous)) return previous;
	return previous?.[event] as IDataObject | undefined;
}

export async function pollInvoiceEvents(input: PollInput, events: InvoiceFamilyEvent[], customerId: string | undefined): Promise<PollOutcome> {
	const items: IDataObject[] = [];
	const state: IDataObject = {};
	for (const event of events) {
		const one = { ...input, previous: previousOf(input.previous, event) };
		const outcome = customerId ? await pollCustomerInvoices(one, supported(event), customerId) : await pollAllCustomersInvoices(one, supported(event));
		items.push(...outcome.items);
		state[event] = outcome.state;
	}
	return { items, state };
}

export async function sampleInvoice(input: PollInput, event: InvoiceFamilyEvent, customerId: string | undefined): Promise<IDataObject[]> {
	return sampleOneInvoiceEvent(input, supported(event), customerId);
}
