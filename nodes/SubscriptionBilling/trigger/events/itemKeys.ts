import type { IDataObject } from 'n8n-workflow';
import { definitionOf } from './catalog';

/**
 * The IDs an item carries at its top level, by its record: the customer's, then each record down
 * to its own (an invoice's `subscription_id` is null for an invoice of no subscription).
 */
export const ID_KEYS = {
	customer: ['customer_id'],
	subscription: ['customer_id', 'subscription_id'],
	invoice: ['customer_id', 'subscription_id', 'invoice_id'],
} as const;

/**
 * An item as the trigger emits it: `event` and the IDs of its record first, so that a follow-up
 * step maps `{{ $json.customer_id }}` whatever the event; then the event's own keys. The IDs come
 * from the record, or from the customer a subscription summary carries. An item of no record (Fetch
 * Test Event's `no_example`) is left as it is.
 */
export function withTopLevelIds(item: IDataObject): IDataObject {
	const event = String(item.event);
	const kind = definitionOf(event)?.record;
	const record = kind && (item[kind] as IDataObject | undefined);
	if (!record) return item;
	const customer = record.customer as IDataObject | undefined;
	const ids = Object.fromEntries(
		ID_KEYS[kind].map((key) => [key, record[key] ?? customer?.[key] ?? null]),
	);
	return { event, ...ids, ...item };
}
