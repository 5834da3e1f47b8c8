'use strict';
// Milestones: list, complete (IMMEDIATELY raises a standalone invoice now; NEXT_INVOICE adds
// the charge to the next scheduled invoice and is rejected when none is left).

const V = require('../validate');
const { notFound } = require('../errors');
const { json } = require('../http');
const { FREE } = require('../declared');
const { milestoneOut } = require('../serialize');
const { dateToMs, msToDate, msToDateTime, DAY_MS } = require('../dates');
const { priceLine, addInvoice } = require('../billing');
const { loadSubscription } = require('./common');

/** The documents give this list no paging: the whole list, as a plain JSON array. */
function listMilestones(ctx) {
	const sub = loadSubscription(ctx);
	const list = [...ctx.state.milestones.values()].filter(
		(m) => m.subscription_id === sub.subscription_id,
	);
	return json(
		200,
		list.map((m) => milestoneOut(ctx.state, m)),
	);
}

function completeMilestone(ctx) {
	const sub = loadSubscription(ctx);
	const id = ctx.params.milestone_id;
	const m = ctx.state.milestones.get(id);
	if (!m || m.subscription_id !== sub.subscription_id)
		throw notFound(`Milestone ${id} not found for subscription ${sub.subscription_id}.`);
	const body = V.object(ctx.body);
	const quantity = V.integer(body, 'quantity', { required: true, min: 1 });
	const billOn = V.choice(body, 'bill_on', ['IMMEDIATELY', 'NEXT_INVOICE'], { required: true });
	const issuedAt = V.date(body, 'issued_at', { nullable: true });
	const dueAt = V.date(body, 'due_at', { nullable: true });
	const serviceDate = V.date(body, 'service_date', { nullable: true });
	if (billOn === 'NEXT_INVOICE') {
		for (const [field, v] of [
			['issued_at', issuedAt],
			['due_at', dueAt],
			['service_date', serviceDate],
		]) {
			if (v != null) V.fail(field, 'Only allowed when bill_on is IMMEDIATELY.');
		}
	}
	const remaining = m.quantity - m.quantity_completed;
	if (quantity > remaining) {
		V.fail(
			'quantity',
			`Completing ${quantity} would take the completed quantity past the milestone total (${m.quantity_completed} of ${m.quantity} completed, ${remaining} remaining).`,
		);
	}
	if (issuedAt && dueAt && dueAt < issuedAt) V.fail('due_at', 'Must not be before issued_at.');

	const brick = ctx.state.bricks.get(m.brick_id);
	const item = sub.line_items.find((li) => li.brick_id === m.brick_id);
	const charge = priceLine(
		ctx.state,
		{ brick_id: m.brick_id, quantity, discount: item ? item.discount : null },
		1,
	).grand;
	const nowMs = Date.now();
	let invoiceId = null;
	let nextInvoiceStartsAt = null;
	if (billOn === 'NEXT_INVOICE') {
		const entry = sub.schedule.find((e) => !e.invoiced);
		if (!entry) {
			V.fail(
				'bill_on',
				`NEXT_INVOICE is not possible: subscription ${sub.subscription_id} has no scheduled invoice left. Use IMMEDIATELY.`,
			);
		}
		entry.pending_charges.push({
			brick_name: brick.brick_name,
			brick_id: brick.brick_id,
			quantity,
			tax: 0,
			grand_total: charge,
		});
		nextInvoiceStartsAt = entry.starts_at;
	} else {
		const issuedMs = issuedAt ? dateToMs(issuedAt) : nowMs;
		const dueMs = dueAt ? dateToMs(dueAt) : issuedMs + sub.payment_terms * DAY_MS;
		const serviceMs = serviceDate ? dateToMs(serviceDate) : dateToMs(msToDate(issuedMs));
		const inv = addInvoice(ctx.state, {
			invoice_id: ctx.state.rng.uuid(),
			customer_id: sub.customer_id,
			subscription_id: sub.subscription_id,
			issuedMs,
			dueMs,
			billMs: issuedMs,
			status: dueMs < nowMs ? 'PAST_DUE' : 'OPEN',
			total: charge,
			remaining: charge,
			paidMs: null,
			currency: sub.currency,
			time_zone: sub.time_zone,
			periodStartMs: serviceMs,
			lines: [
				{
					brick_name: brick.brick_name,
					brick_id: brick.brick_id,
					quantity,
					tax: 0,
					grand_total: charge,
					startsMs: serviceMs,
					endsMs: serviceMs,
				},
			],
			metadata: { source: 'milestone', standalone: true, milestone_id: m.milestone_id },
		});
		invoiceId = inv.invoice_id;
	}
	m.quantity_completed += quantity;
	m.completions.push({
		quantity,
		bill_on: billOn,
		invoice_id: invoiceId,
		completed_at: msToDateTime(nowMs),
		service_date: serviceDate ?? null,
	});
	return json(200, {
		...milestoneOut(ctx.state, m),
		bill_on: billOn,
		invoice_id: invoiceId,
		next_invoice_starts_at: nextInvoiceStartsAt,
	});
}

module.exports = [
	{ method: 'GET', path: '/subscriptions/:subscription_id/milestones', handler: listMilestones },
	{
		method: 'POST',
		path: '/subscriptions/:subscription_id/milestones/:milestone_id/complete',
		body: 'json',
		fields: { quantity: FREE, bill_on: FREE, issued_at: FREE, due_at: FREE, service_date: FREE },
		handler: completeMilestone,
	},
];
