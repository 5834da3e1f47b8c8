'use strict';
// Upgrades: create (stage BUILDING), list, sign URL, start (adds/changes bricks on the
// subscription from starts_at; quantity 0 removes an add-on).

const V = require('../validate');
const { json } = require('../http');
const { upgradeOut } = require('../serialize');
const { msToDateTime, dateToMs, DAY_MS } = require('../dates');
const { rebuildSchedule, priceLine, round2, addInvoice } = require('../billing');
const { loadSubscription, assertChangeable, signUrl } = require('./common');
const {
	ORDER_INPUT,
	validatePlanAndBricks,
	validateCommonOptional,
	loadOrder,
	assertBuilding,
	chargeImmediately,
} = require('./orders');
const { FREE } = require('../declared');

function monthsBetween(start, end) {
	const m =
		(+end.slice(0, 4) - +start.slice(0, 4)) * 12 + (+end.slice(5, 7) - +start.slice(5, 7)) + 1;
	return Math.max(1, m);
}

function createUpgrade(ctx) {
	const sub = loadSubscription(ctx);
	const body = V.object(ctx.body);
	const startsAt = V.date(body, 'starts_at', { required: true });
	const { planId, bricks } = validatePlanAndBricks(ctx, body, { minQuantity: 0 });
	const common = validateCommonOptional(body);
	assertChangeable(sub, 'upgraded');
	if (startsAt < sub.term_starts_at || startsAt > sub.ends_at) {
		V.fail(
			'starts_at',
			`Must fall within the current term of the subscription (${sub.term_starts_at} to ${sub.ends_at}).`,
		);
	}
	const months = monthsBetween(startsAt, sub.ends_at);
	const contractValue = round2(
		bricks.reduce((sum, b) => sum + priceLine(ctx.state, b, months).grand, 0),
	);
	const order = {
		order_id: ctx.state.rng.uuid(),
		order_type: 'UPGRADE',
		subscription_id: sub.subscription_id,
		stage: 'BUILDING',
		starts_at: startsAt,
		ends_at: sub.ends_at,
		contract_length: null,
		billing_frequency: sub.billing_frequency,
		bricks,
		plan_id: planId,
		...common,
		contract_value: contractValue,
		charge_immediately: null,
		created_at: msToDateTime(Date.now()),
	};
	ctx.state.orders.set(order.order_id, order);
	return json(201, {
		order_id: order.order_id,
		contract_value: contractValue,
		pdf_url: `${ctx.origin}/orders/${order.order_id}.pdf`,
		starts_at: order.starts_at,
		ends_at: order.ends_at,
		order_type: 'UPGRADE',
	});
}

/** The documents give this list no paging: the whole list, as a plain JSON array. */
function listUpgrades(ctx) {
	const sub = loadSubscription(ctx);
	const orders = [...ctx.state.orders.values()].filter(
		(o) => o.order_type === 'UPGRADE' && o.subscription_id === sub.subscription_id,
	);
	return json(
		200,
		orders.map((o) => upgradeOut(ctx.state, o)),
	);
}

function signUpgrade(ctx) {
	const sub = loadSubscription(ctx);
	const order = loadOrder(ctx, sub, 'UPGRADE');
	const url = signUrl(ctx, ctx.body, `upgrade-${order.order_id}`);
	assertBuilding(order, 'signed');
	return json(200, { url });
}

function applyBricks(items, bricks) {
	for (const b of bricks) {
		const i = items.findIndex((li) => li.brick_id === b.brick_id);
		if (b.quantity === 0) {
			if (i >= 0) items.splice(i, 1);
		} else if (i >= 0) {
			items[i] = { ...items[i], quantity: b.quantity, discount: b.discount ?? items[i].discount };
		} else {
			items.push({ brick_id: b.brick_id, quantity: b.quantity, discount: b.discount });
		}
	}
}

function startUpgrade(ctx) {
	const sub = loadSubscription(ctx);
	const order = loadOrder(ctx, sub, 'UPGRADE');
	const charge = chargeImmediately(ctx);
	assertBuilding(order, 'started');
	applyBricks(sub.line_items, order.bricks);
	if (sub.phases)
		for (const phase of sub.phases)
			if (phase.ends_at >= order.starts_at) applyBricks(phase.line_items, order.bricks);
	rebuildSchedule(ctx.state, sub);
	const nowMs = Date.now();
	if (charge && order.contract_value > 0) {
		addInvoice(ctx.state, {
			invoice_id: ctx.state.rng.uuid(),
			customer_id: sub.customer_id,
			subscription_id: sub.subscription_id,
			issuedMs: nowMs,
			dueMs: nowMs + sub.payment_terms * DAY_MS,
			billMs: nowMs,
			status: 'OPEN',
			total: order.contract_value,
			remaining: order.contract_value,
			paidMs: null,
			currency: sub.currency,
			time_zone: sub.time_zone,
			periodStartMs: dateToMs(order.starts_at),
			lines: order.bricks.map((b) => {
				const brick = ctx.state.bricks.get(b.brick_id);
				return {
					brick_name: brick.brick_name,
					brick_id: brick.brick_id,
					quantity: b.quantity,
					tax: 0,
					grand_total: priceLine(ctx.state, b, monthsBetween(order.starts_at, order.ends_at)).grand,
					startsMs: dateToMs(order.starts_at),
					endsMs: dateToMs(order.ends_at) + DAY_MS - 1000,
				};
			}),
			metadata: { source: 'upgrade', order_id: order.order_id },
		});
	}
	order.stage = 'CLOSED';
	order.charge_immediately = charge;
	order.started_at = msToDateTime(nowMs);
	return json(200, { subscription_id: sub.subscription_id });
}

module.exports = [
	{
		method: 'POST',
		path: '/subscriptions/:subscription_id/upgrade',
		body: 'json',
		fields: ORDER_INPUT,
		handler: createUpgrade,
	},
	{ method: 'GET', path: '/subscriptions/:subscription_id/upgrade', handler: listUpgrades },
	{
		method: 'POST',
		path: '/subscriptions/:subscription_id/upgrade/:order_id/sign',
		body: 'json',
		fields: { redirect_url: FREE },
		handler: signUpgrade,
	},
	{
		method: 'POST',
		path: '/subscriptions/:subscription_id/upgrade/:order_id/start',
		query: ['charge_immediately'],
		handler: startUpgrade,
	},
];
