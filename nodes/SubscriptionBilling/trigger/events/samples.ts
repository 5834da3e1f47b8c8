import type { IDataObject } from 'n8n-workflow';
import {
	CUSTOMER_LIST_EVENT_DEFINITIONS,
	definitionOf,
	type CustomerListEvent,
	type TriggerEvent,
} from './catalog';
import { listSnapshot, readNewestCustomers, type ListSnapshot } from './customerList';
import { DISCOVERY_PAGE_SIZE, newestExamples } from './customerInvoices';
import { ID_KEYS } from './itemKeys';
import type { CustomerListSettings, PollInput } from './types';
import type { TriggerSettings } from '../parameters';
import { NO_EXAMPLE_KEY } from '../../shared/noExampleItem';

/** Fetch Test Event looks at the customers listed last (the newest), at most this many: one request of the list. */
const SAMPLE_CUSTOMERS = 1000;
/** …and at the newest invoices (one page) of at most this many of them, newest first. */
const SAMPLE_INVOICE_CUSTOMERS = 20;

/**
 * Fetch Test Event: a sample of each selected event, or an item saying it has none and what was
 * looked at, from a bounded number of requests whatever the size of the account. State untouched.
 */
export async function fetchTestEvent(
	input: PollInput,
	settings: TriggerSettings,
): Promise<IDataObject[]> {
	const { listEvents, invoiceEvents, invoiceCustomerId } = settings;
	const newest =
		listEvents.length > 0 || (invoiceEvents.length > 0 && !invoiceCustomerId)
			? await readNewestCustomers(input.api, SAMPLE_CUSTOMERS)
			: { customers: [], total: 0 };
	const snapshot = listSnapshot({ customers: newest.customers, complete: true }, input.now);
	const items = await sampleCustomerListEvents(input, listEvents, settings, snapshot);
	const invoiceCustomers = invoiceCustomerId
		? [invoiceCustomerId]
		: newest.customers
				.map((customer) => String(customer.customer_id))
				.reverse()
				.slice(0, SAMPLE_INVOICE_CUSTOMERS);
	items.push(...(await newestExamples(input.api, invoiceCustomers, invoiceEvents, input.now)));
	const listed = newest.customers.length;
	// Which end of the list was read: the newest, or the first without a count.
	const end =
		newest.total === undefined ? 'first' : `last (of ${newest.total.toLocaleString('en-US')})`;
	const list =
		newest.total === listed
			? 'the customer list'
			: `the ${listed.toLocaleString('en-US')} customers listed ${end}`;
	const invoicesOf = invoiceCustomerId
		? 'the chosen customer'
		: newest.total === invoiceCustomers.length
			? 'each customer'
			: `each of the ${invoiceCustomers.length} customers listed ${end}`;
	const invoices = `the newest ${DISCOVERY_PAGE_SIZE} invoices of ${invoicesOf}`;
	return withMissingExamples([...listEvents, ...invoiceEvents], items, {
		list,
		invoices,
		otherCustomer: invoiceCustomerId ? OTHER_CUSTOMER : ONE_CUSTOMER,
	});
}

/**
 * The customer-list events: for each selected event the last matching record of the customers
 * read (the API gives no creation time, so the list's order stands in for it), or the nearest date
 * in the window; previous values are unknown (null).
 */
async function sampleCustomerListEvents(
	input: PollInput,
	events: CustomerListEvent[],
	settings: CustomerListSettings,
	snapshot: ListSnapshot,
): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	for (const event of events) {
		const item = await CUSTOMER_LIST_EVENT_DEFINITIONS.find(
			(definition) => definition.value === event,
		)!.sample(input, snapshot, settings);
		if (item) items.push(item);
	}
	return items;
}

/**
 * How to test the steps after the trigger on an invoice event the sample did not reach: n8n's
 * test runs take a pinned item, and a published workflow polls as usual.
 */
const ONE_CUSTOMER =
	'To test the steps after the trigger on a customer who has one: set Invoices Of to One Customer, choose that customer and fetch again, pin the item (the pin in the output panel), then set Invoices Of back to All Customers. Test runs use the pinned item; the published workflow does not.';
const OTHER_CUSTOMER =
	'To test the steps after the trigger on another customer who has one: choose that customer and fetch again, pin the item (the pin in the output panel), then choose the customer to watch again. Test runs use the pinned item; the published workflow does not.';

const RECORD_TEXT = {
	customer: 'customer is the customer as the API lists it',
	subscription:
		"subscription is the subscription's summary from the customer list, with its customer",
	invoice: 'invoice is the invoice as the API returns it',
};

/**
 * The samples, and for each selected event that has none an item saying so (`no_example`), so a
 * test fetch of several events never looks complete when some showed nothing. It says, in the
 * editor, what the event's items hold and what makes an example appear.
 */
export function withMissingExamples(
	events: TriggerEvent[],
	samples: IDataObject[],
	where: { list: string; invoices: string; otherCustomer: string },
): IDataObject[] {
	const shown = new Set(samples.map((sample) => sample.event));
	const missing = events
		.filter((event) => !shown.has(event))
		.map((event) => {
			const { name, family, record, noExample } = definitionOf(event)!;
			const lookedAt = family === 'invoices' ? where.invoices : where.list;
			const { lookedFor, toSee, keys } = noExample;
			const otherCustomer = family === 'invoices' ? ` ${where.otherCustomer}` : '';
			return {
				event,
				[NO_EXAMPLE_KEY]:
					`${name}: no example to show. Fetch Test Event found ${lookedFor} in ${lookedAt}; to see one here, ${toSee}, then fetch again.${otherCustomer} ` +
					`This item is not an event and has no IDs: once the workflow is active, each ${name} is emitted as an item with the keys event, ${ID_KEYS[record].join(', ')}, ${keys} (${RECORD_TEXT[record]}).`,
			};
		});
	return [...samples, ...missing];
}
