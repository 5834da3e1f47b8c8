import type { IDataObject } from 'n8n-workflow';
import {
	CUSTOMER_LIST_EVENT_DEFINITIONS,
	definitionOf,
	type CustomerListEvent,
	type TriggerEvent,
} from './catalog';
import { listSnapshot, readCustomerList } from './customerList';
import { ID_KEYS } from './itemKeys';
import type { CustomerListSettings, PollInput } from './types';

/**
 * Fetch Test Event for the customer-list events: for each selected event the last matching record
 * of the customer list (the API gives no creation time, so the list's order stands in for it), or
 * the nearest date in the window; previous values are unknown (null). State untouched.
 */
export async function sampleCustomerListEvents(
	input: PollInput,
	events: CustomerListEvent[],
	settings: CustomerListSettings,
): Promise<IDataObject[]> {
	const snapshot = listSnapshot(await readCustomerList(input.api), input.now);
	const items: IDataObject[] = [];
	for (const event of events) {
		const item = await CUSTOMER_LIST_EVENT_DEFINITIONS.find(
			(definition) => definition.value === event,
		)!.sample(input, snapshot, settings);
		if (item) items.push(item);
	}
	return items;
}

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
	invoicesOf: string,
): IDataObject[] {
	const shown = new Set(samples.map((sample) => sample.event));
	const missing = events
		.filter((event) => !shown.has(event))
		.map((event) => {
			const { name, family, record, noExample } = definitionOf(event)!;
			const where = family === 'invoices' ? `the invoices of ${invoicesOf}` : 'the customer list';
			const { lookedFor, toSee, keys } = noExample;
			return {
				event,
				no_example:
					`${name}: no example to show. Fetch Test Event found ${lookedFor} in ${where}; to see one here, ${toSee}, then fetch again. ` +
					`This item is not an event: once the workflow is active, each ${name} is emitted as an item with the keys event, ${ID_KEYS[record].join(', ')}, ${keys} (${RECORD_TEXT[record]}).`,
			};
		});
	return [...samples, ...missing];
}
