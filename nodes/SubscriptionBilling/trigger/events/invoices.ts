import type { IDataObject } from 'n8n-workflow';
import { forEachConcurrently } from '../concurrency';
import { fingerprint } from '../fingerprint';
import { readCustomerList } from './customerList';
import { mostRecentInvoice, trackCustomerInvoices, type InvoiceEvent } from './customerInvoices';
import { decodeCustomerInvoices, encodeCustomerInvoices } from './invoiceState';
import type { PollInput, PollOutcome } from './types';

/** Customers whose invoices are read at the same time when watching all customers. */
const PARALLEL_CUSTOMERS = 4;

/** One customer: state `{ customer: encoded CustomerInvoices }`. */
export async function pollCustomerInvoices(input: PollInput, event: InvoiceEvent, customerId: string): Promise<PollOutcome> {
	const previous = decodeCustomerInvoices(input.previous?.customer);
	const { items, entry } = await trackCustomerInvoices(input.api, customerId, previous, !input.previous, event, input.now);
	return { items, state: entry ? { customer: encodeCustomerInvoices(entry) } : {} };
}

/**
 * All customers: the customer list, then one request per customer (more only when a customer has
 * more new invoices than fit on a page, or watched invoices older than that page).
 * State `{ customers: { fingerprint of customer id: encoded CustomerInvoices } }`, only for customers with invoices.
 */
export async function pollAllCustomersInvoices(input: PollInput, event: InvoiceEvent): Promise<PollOutcome> {
	const { customers, complete } = await readCustomerList(input.api);
	const before = (input.previous?.customers ?? {}) as Record<string, string>;
	const after: Record<string, string> = complete ? {} : { ...before };
	const found = new Map<string, IDataObject[]>();
	await forEachConcurrently(customers, PARALLEL_CUSTOMERS, async (customer) => {
		const id = String(customer.customer_id);
		const print = fingerprint(id);
		const { items, entry } = await trackCustomerInvoices(input.api, id, decodeCustomerInvoices(before[print]), !input.previous, event, input.now);
		found.set(id, items);
		if (entry) after[print] = encodeCustomerInvoices(entry);
	});
	// Items in the order of the customer list, whatever order the requests finished in.
	const items = customers.flatMap((customer) => found.get(String(customer.customer_id)) ?? []);
	return { items, state: { customers: after } };
}

/** Fetch Test Event: the most recent matching invoice, looking at the newest customers first. */
export async function sampleInvoice(input: PollInput, event: InvoiceEvent, customerId: string | undefined): Promise<IDataObject[]> {
	const ids = customerId ? [customerId] : (await readCustomerList(input.api)).customers.map((customer) => String(customer.customer_id)).reverse();
	for (const id of ids) {
		const item = await mostRecentInvoice(input.api, id, event, input.now);
		if (item) return [item];
	}
	return [];
}
