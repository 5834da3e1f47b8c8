'use strict';
// Converts internal records into the response shapes of the contract.

const { msToDateTime } = require('./dates');
const { hashUuid } = require('./prng');
const { priceLine, money, round2, scheduleEntryOut, periodMonths } = require('./billing');

const ADDRESS_KEYS = ['line_1', 'line_2', 'city', 'region', 'zip', 'country'];
const OPEN_STATUSES = new Set(['ORDER_NEEDED', 'OPEN_ORDER']);

function addressOut(address) {
	if (!address) return null;
	const out = {};
	for (const k of ADDRESS_KEYS) out[k] = address[k] == null ? null : address[k];
	return out;
}

function subscriptionSummary(sub) {
	return {
		subscription_id: sub.subscription_id,
		status: sub.status,
		name: sub.name,
		starts_at: sub.starts_at,
		ends_at: sub.ends_at,
	};
}

function customerOut(state, c) {
	return customersOut(state, [c])[0];
}

const subscriptionIndexes = new WeakMap();

/**
 * Each customer's subscriptions in the order they were made, built again when one is added (none is
 * removed, and a subscription keeps its customer): a customer read does not go over every
 * subscription of the account.
 */
function subscriptionsByCustomer(state) {
	let index = subscriptionIndexes.get(state);
	if (index?.size !== state.subscriptions.size) {
		index = { size: state.subscriptions.size, of: new Map() };
		for (const sub of state.subscriptions.values()) {
			const list = index.of.get(sub.customer_id);
			if (list) list.push(sub);
			else index.of.set(sub.customer_id, [sub]);
		}
		subscriptionIndexes.set(state, index);
	}
	return index.of;
}

/** Customers as the API answers them, each with its subscriptions. */
function customersOut(state, customers) {
	const of = subscriptionsByCustomer(state);
	return customers.map((c) =>
		customerWith(c, (of.get(c.customer_id) ?? []).map(subscriptionSummary)),
	);
}

function customerWith(c, subscriptions) {
	return {
		customer_id: c.customer_id,
		name: c.name,
		legal_name: c.legal_name,
		external_id: c.external_id,
		address: addressOut(c.address),
		processor_customer_id: c.processor_customer_id,
		tax_id: c.tax_id,
		subscriptions,
	};
}

function lineItemOut(state, item, months) {
	const p = priceLine(state, item, months);
	const brick = p.brick;
	return {
		quantity: item.quantity,
		brick_id: brick.brick_id,
		is_unlimited: brick.brick_type === 'USAGE',
		brick_name: brick.brick_name,
		brick_code: brick.brick_code,
		sub_total: p.subTotal,
		plan_id: brick.plan_id,
		plan_name: brick.plan_name,
		grand_total: money(p.grand),
		grand_total_details: JSON.stringify({ discount: money(p.discountAmount), tax: '0.00' }),
		tiers_breakdown: p.tiers,
		pre_commitment_schedule: brick.brick_type === 'USAGE' ? 'MONTHLY_IN_ARREARS' : 'NONE',
		discount: item.discount
			? [
					{
						rate: item.discount.rate.toFixed(2),
						amount: p.discountAmount,
						renews: item.discount.renews,
					},
				]
			: [],
	};
}

function hasOpenOrder(state, sub) {
	if (OPEN_STATUSES.has(sub.status) || sub.stage === 'BUILDING') return true;
	for (const o of state.orders.values())
		if (o.subscription_id === sub.subscription_id && o.stage === 'BUILDING') return true;
	return false;
}

function totals(state, items, months, opts) {
	let subTotal = 0;
	let discount = 0;
	for (const item of items) {
		const p = priceLine(state, item, months, opts);
		subTotal += p.subTotal;
		discount += p.discountAmount;
	}
	return {
		subTotal: round2(subTotal),
		discount: round2(discount),
		grand: round2(subTotal - discount),
	};
}

function monthsBetween(start, end) {
	const m =
		(+end.slice(0, 4) - +start.slice(0, 4)) * 12 + (+end.slice(5, 7) - +start.slice(5, 7)) + 1;
	return Math.max(1, m);
}

function phaseOut(state, sub, phase) {
	const months = monthsBetween(phase.starts_at, phase.ends_at);
	const t = totals(state, phase.line_items, months);
	return {
		phase_position: phase.phase_position,
		starts_at: phase.starts_at,
		ends_at: phase.ends_at,
		billing_frequency: phase.billing_frequency,
		payment_terms: phase.payment_terms,
		sub_total: t.subTotal,
		grand_total: t.grand,
		line_items: phase.line_items.map((i) => lineItemOut(state, i, months)),
		is_annual: phase.is_annual,
		billing_schedule: sub.schedule
			.filter((e) => e.starts_at >= phase.starts_at && e.starts_at <= phase.ends_at)
			.map(scheduleEntryOut),
	};
}

function subscriptionOut(state, sub) {
	const months = sub.contract_length;
	let t;
	if (sub.phases && sub.phases.length) {
		t = { subTotal: 0, discount: 0, grand: 0 };
		for (const ph of sub.phases) {
			const pt = totals(state, ph.line_items, monthsBetween(ph.starts_at, ph.ends_at));
			t.subTotal = round2(t.subTotal + pt.subTotal);
			t.discount = round2(t.discount + pt.discount);
			t.grand = round2(t.grand + pt.grand);
		}
	} else {
		t = totals(state, sub.line_items, months);
	}
	const renewal = totals(state, sub.line_items, sub.renewal_contract_period, {
		renewal: true,
		includeOneTime: false,
	});
	const customer = state.customers.get(sub.customer_id);
	const out = {
		subscription_id: sub.subscription_id,
		status: sub.status,
		stage: sub.stage,
		transaction_method: sub.transaction_method,
		starts_at: sub.starts_at,
		ends_at: sub.ends_at,
		renews_at: sub.renews_at,
		terminates_at: sub.terminates_at,
		time_zone: sub.time_zone,
		billing_frequency: sub.billing_frequency,
		currency: sub.currency,
		payment_terms: sub.payment_terms,
		auto_renews: sub.auto_renews,
		renewal_total: hasOpenOrder(state, sub) ? null : Math.round(renewal.grand * 100),
		renewal_contract_period: sub.renewal_contract_period,
		sub_total: t.subTotal,
		grand_total: t.grand,
		grand_total_details: { discount: t.discount, tax: 0, total_discount: t.discount, total_tax: 0 },
		line_items: sub.line_items.map((i) => lineItemOut(state, i, months)),
		billing_schedule: sub.schedule.map(scheduleEntryOut),
		customer: sub.customer_answered_as_null ? null : customerOut(state, customer),
		crm_account_id: sub.crm_account_id,
		crm_opportunity_id: sub.crm_opportunity_id,
		point_of_contact: sub.point_of_contact,
		signatory_user: sub.signatory_user,
		accounts_payable_emails: sub.accounts_payable_emails,
		products: sub.products,
		pauses: sub.pauses.map((p) => ({ paused_at: p.paused_at, resume_at: p.resume_at })),
	};
	if (sub.phases && sub.phases.length) out.phases = sub.phases.map((p) => phaseOut(state, sub, p));
	out.metadata = sub.metadata;
	out.attributed_to = sub.attributed_to;
	out.purchase_order = sub.purchase_order;
	return out;
}

function invoiceOut(state, inv) {
	const customer = state.customers.get(inv.customer_id);
	let lines = inv.lines;
	if (!lines) {
		const brick = state.bricks.get(inv.brickId);
		lines = [
			{
				brick_name: brick.brick_name,
				brick_id: brick.brick_id,
				quantity: inv.qty,
				tax: 0,
				grand_total: inv.total,
				startsMs: inv.periodStartMs,
				endsMs: inv.periodStartMs + 30 * 86400000,
			},
		];
	}
	// Earlier attempts, refunds and refunded payments (world/invoiceTimeline.js), then the one that paid it.
	const payments = (inv.paymentLog || []).map((payment) => ({ ...payment }));
	if (inv.paidMs != null) {
		payments.push({
			payment_id: hashUuid(
				`${inv.invoice_id}:payment${inv.paymentRound ? `:${inv.paymentRound}` : ''}`,
			),
			invoice_number: inv.invoice_number,
			invoice_version_id: hashUuid(`${inv.invoice_id}:version`),
			paid_amount: inv.total,
			paid_at: msToDateTime(inv.paidMs),
			currency: inv.currency,
			error: null,
		});
	}
	return {
		invoice_id: inv.invoice_id,
		subscription_id: inv.subscription_id,
		customer_id: inv.customer_id,
		invoice_number: inv.invoice_number,
		due_at: msToDateTime(inv.dueMs),
		bill_at: msToDateTime(inv.billMs),
		issued_at: msToDateTime(inv.issuedMs),
		status: inv.status,
		fully_paid_at: inv.paidMs != null ? msToDateTime(inv.paidMs) : null,
		grand_total: inv.total,
		remaining_amount: inv.remaining,
		currency: inv.currency,
		is_renewal_estimate: false,
		customer_name: customer ? customer.name : null,
		time_zone: inv.time_zone,
		payments,
		attachments: [],
		line_items: lines.map((l) => ({
			brick_name: l.brick_name,
			brick_id: l.brick_id,
			quantity: l.quantity,
			tax: l.tax,
			grand_total: l.grand_total,
			starts_at: msToDateTime(l.startsMs),
			ends_at: msToDateTime(l.endsMs),
		})),
		metadata: inv.metadata,
	};
}

function orderBricksOut(state, order) {
	return order.bricks.map((b) => {
		const brick = state.bricks.get(b.brick_id);
		return {
			brick_id: b.brick_id,
			brick_name: brick ? brick.brick_name : null,
			quantity: b.quantity,
			discount: b.discount ? { rate: b.discount.rate, renews: b.discount.renews } : null,
		};
	});
}

function recastOut(state, o) {
	return {
		order_id: o.order_id,
		order_type: 'RECAST',
		stage: o.stage,
		starts_at: o.starts_at,
		ends_at: o.ends_at,
		contract_length: o.contract_length,
		billing_frequency: o.billing_frequency,
		bricks: orderBricksOut(state, o),
		plan_id: o.plan_id,
		discount_coupons: o.discount_coupons,
		payment_terms: o.payment_terms,
		transaction_method: o.transaction_method,
		adjustment_credit: o.adjustment_credit,
		adjustment_credit_label: o.adjustment_credit_label,
		metadata: o.metadata,
		created_at: o.created_at,
	};
}

function upgradeOut(state, o) {
	return {
		order_id: o.order_id,
		order_type: 'UPGRADE',
		stage: o.stage,
		starts_at: o.starts_at,
		ends_at: o.ends_at,
		contract_value: o.contract_value,
		bricks: orderBricksOut(state, o),
		plan_id: o.plan_id,
		discount_coupons: o.discount_coupons,
		metadata: o.metadata,
		created_at: o.created_at,
	};
}

function milestoneOut(state, m) {
	const brick = state.bricks.get(m.brick_id);
	return {
		milestone_id: m.milestone_id,
		subscription_id: m.subscription_id,
		brick_id: m.brick_id,
		brick_name: brick.brick_name,
		quantity: m.quantity,
		quantity_completed: m.quantity_completed,
		quantity_remaining: m.quantity - m.quantity_completed,
		unit_price: money(brick.unit_price),
		completions: m.completions.map((c) => ({ ...c })),
	};
}

function planOut(state, plan) {
	return {
		plan_id: plan.plan_id,
		plan_name: plan.plan_name,
		created_at: plan.created_at,
		bricks: plan.brick_ids.map((id) => {
			const b = state.bricks.get(id);
			return { brick_id: b.brick_id, brick_name: b.brick_name, brick_type: b.brick_type };
		}),
	};
}

function paymentMethodOut(state, pm) {
	const customer = state.customers.get(pm.customer_id);
	const out = {
		payment_method_id: pm.payment_method_id,
		is_default: !!customer && customer.default_payment_method_id === pm.payment_method_id,
		type: pm.type,
	};
	if (pm.type === 'card') out.card = { ...pm.card };
	else out.us_bank_account = { ...pm.us_bank_account };
	return out;
}

function usageOut(entry) {
	return {
		transaction_id: entry.transaction_id,
		subscription_id: entry.subscription_id,
		brick_id: entry.brick_id,
		value: entry.value,
		time: entry.time,
		properties: entry.properties,
	};
}

module.exports = {
	customerOut,
	customersOut,
	subscriptionOut,
	invoiceOut,
	recastOut,
	upgradeOut,
	milestoneOut,
	planOut,
	paymentMethodOut,
	usageOut,
	hasOpenOrder,
	lineItemOut,
	periodMonths,
};
