import type { IDataObject } from 'n8n-workflow';

function currentPause(pauses: unknown, now = Date.now()): IDataObject | null {
	if (!Array.isArray(pauses)) return null;
	const current = (pauses as IDataObject[]).find((pause) => {
		const pausedAt = Date.parse(String(pause.paused_at));
		const resumeAt = pause.resume_at ? Date.parse(String(pause.resume_at)) : Infinity;
		return pausedAt <= now && resumeAt > now;
	});
	return current ?? null;
}

export function simplifySubscription(subscription: IDataObject): IDataObject {
	const customer = (subscription.customer ?? {}) as IDataObject;
	return {
		subscription_id: subscription.subscription_id,
		status: subscription.status,
		stage: subscription.stage,
		starts_at: subscription.starts_at,
		ends_at: subscription.ends_at,
		renews_at: subscription.renews_at,
		terminates_at: subscription.terminates_at,
		auto_renews: subscription.auto_renews,
		renewal_total: subscription.renewal_total,
		grand_total: subscription.grand_total,
		currency: subscription.currency,
		billing_frequency: subscription.billing_frequency,
		customer_id: customer.customer_id,
		customer_name: customer.name,
		current_pause: currentPause(subscription.pauses),
	};
}

export function simplifyInvoice(invoice: IDataObject): IDataObject {
	return {
		invoice_id: invoice.invoice_id,
		invoice_number: invoice.invoice_number,
		status: invoice.status,
		customer_id: invoice.customer_id,
		customer_name: invoice.customer_name,
		subscription_id: invoice.subscription_id,
		issued_at: invoice.issued_at,
		due_at: invoice.due_at,
		fully_paid_at: invoice.fully_paid_at,
		grand_total: invoice.grand_total,
		remaining_amount: invoice.remaining_amount,
		currency: invoice.currency,
	};
}

export function simplifyCustomer(customer: IDataObject): IDataObject {
	const subscriptions = (customer.subscriptions as IDataObject[] | undefined) ?? [];
	const active = subscriptions.filter((entry) => entry.status === 'ACTIVE');
	return {
		customer_id: customer.customer_id,
		name: customer.name,
		legal_name: customer.legal_name,
		external_id: customer.external_id,
		processor_customer_id: customer.processor_customer_id,
		tax_id: customer.tax_id,
		country: (customer.address as IDataObject | undefined)?.country,
		all_subscriptions_count: subscriptions.length,
		active_subscriptions_count: active.length,
		active_subscription_ids: active.map((entry) => entry.subscription_id),
	};
}
