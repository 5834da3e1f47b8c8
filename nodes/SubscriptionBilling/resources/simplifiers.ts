import type { IDataObject } from 'n8n-workflow';

/**
 * The Simplified shapes. Every key is always there: a value the API left out or sent as null
 * (`customer: null`, `address: null`) is null, so later nodes can rely on the same keys.
 */

type Source = IDataObject | null | undefined;

/** The object at `key`, or undefined when the API sent none (null, a missing key, not an object). */
function objectAt(source: Source, key: string): IDataObject | undefined {
	const value = source?.[key];
	return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : undefined;
}

/** `fields` of `source` under the same names, null where missing. */
function keep(source: Source, fields: string[]): IDataObject {
	return Object.fromEntries(fields.map((field) => [field, source?.[field] ?? null]));
}

function currentPause(pauses: unknown, now = Date.now()): IDataObject | null {
	if (!Array.isArray(pauses)) return null;
	const current = (pauses as IDataObject[]).find((pause) => {
		const pausedAt = Date.parse(String(pause?.paused_at));
		const resumeAt = pause?.resume_at ? Date.parse(String(pause.resume_at)) : Infinity;
		return pausedAt <= now && resumeAt > now;
	});
	return current ?? null;
}

/**
 * A subscription. `renewal_total` is in cents of the currency (the contract says so) while the other
 * totals are as the API gives them: the field's name says so (`renewal_total_cents`).
 */
export function simplifySubscription(subscription: IDataObject): IDataObject {
	const customer = objectAt(subscription, 'customer');
	return {
		...keep(subscription, ['subscription_id', 'status', 'stage', 'starts_at', 'ends_at', 'renews_at', 'terminates_at', 'auto_renews']),
		renewal_total_cents: subscription.renewal_total ?? null,
		...keep(subscription, ['grand_total', 'currency', 'billing_frequency']),
		customer_id: customer?.customer_id ?? null,
		customer_name: customer?.name ?? null,
		current_pause: currentPause(subscription.pauses),
	};
}

export function simplifyInvoice(invoice: IDataObject): IDataObject {
	return keep(invoice, [
		'invoice_id',
		'invoice_number',
		'status',
		'customer_id',
		'customer_name',
		'subscription_id',
		'issued_at',
		'due_at',
		'fully_paid_at',
		'grand_total',
		'remaining_amount',
		'currency',
	]);
}

export function simplifyCustomer(customer: IDataObject): IDataObject {
	const listed = customer.subscriptions;
	const subscriptions = (Array.isArray(listed) ? listed : []) as IDataObject[];
	const active = subscriptions.filter((entry) => entry?.status === 'ACTIVE');
	return {
		...keep(customer, ['customer_id', 'name', 'legal_name', 'external_id', 'processor_customer_id', 'tax_id']),
		country: objectAt(customer, 'address')?.country ?? null,
		all_subscriptions_count: subscriptions.length,
		active_subscriptions_count: active.length,
		active_subscription_ids: active.map((entry) => entry.subscription_id),
	};
}
