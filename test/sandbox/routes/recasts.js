'use strict';
// Recasts: create (stage BUILDING), list, sign URL, start (-> CLOSED, replaces the agreement),
// soft delete (-> CLOSED_DELETE, the order is kept).

const V = require('../validate');
const { badRequest } = require('../errors');
const { json } = require('../http');
const { recastOut } = require('../serialize');
const { termEnd, addDays, msToDateTime } = require('../dates');
const { rebuildSchedule, invoiceScheduleEntry } = require('../billing');
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

const FREQUENCIES = ['MONTHLY', 'QUARTERLY', 'SEMI_ANNUALLY', 'ANNUALLY', 'ALL_UPFRONT'];
const RECAST_INPUT = {
	...ORDER_INPUT,
	contract_length: FREE,
	billing_frequency: FREE,
	adjustment_credit: FREE,
	adjustment_credit_label: FREE,
	payment_terms: FREE,
	transaction_method: FREE,
};

function createRecast(ctx) {
	const sub = loadSubscription(ctx);
	const body = V.object(ctx.body);
	const startsAt = V.date(body, 'starts_at', { required: true });
	const contractLength = V.integer(body, 'contract_length', { required: true, min: 1 });
	const frequency = V.choice(body, 'billing_frequency', FREQUENCIES, { required: true });
	const { planId, bricks } = validatePlanAndBricks(ctx, body, { minQuantity: 1 });
	const common = validateCommonOptional(body);
	const order = {
		order_id: ctx.state.rng.uuid(),
		order_type: 'RECAST',
		subscription_id: sub.subscription_id,
		stage: 'BUILDING',
		starts_at: startsAt,
		contract_length: contractLength,
		ends_at: termEnd(startsAt, contractLength),
		billing_frequency: frequency,
		bricks,
		plan_id: planId,
		...common,
		adjustment_credit: V.number(body, 'adjustment_credit', { nullable: true, min: 0 }) ?? null,
		adjustment_credit_label: V.string(body, 'adjustment_credit_label', { nullable: true }) ?? null,
		payment_terms: V.integer(body, 'payment_terms', { nullable: true, min: 0 }) ?? null,
		transaction_method:
			V.choice(body, 'transaction_method', ['ORDER_FORM', 'PROCESSOR'], { nullable: true }) ?? null,
		charge_immediately: null,
		created_at: msToDateTime(Date.now()),
	};
	assertChangeable(sub, 'recast');
	ctx.state.orders.set(order.order_id, order);
	return json(201, { order_id: order.order_id });
}

/** The documents give this list no paging: the whole list, as a plain JSON array. */
function listRecasts(ctx) {
	const sub = loadSubscription(ctx);
	const orders = [...ctx.state.orders.values()].filter(
		(o) => o.order_type === 'RECAST' && o.subscription_id === sub.subscription_id,
	);
	return json(
		200,
		orders.map((o) => recastOut(ctx.state, o)),
	);
}

function signRecast(ctx) {
	const sub = loadSubscription(ctx);
	const order = loadOrder(ctx, sub, 'RECAST');
	const url = signUrl(ctx, ctx.body, `recast-${order.order_id}`);
	assertBuilding(order, 'signed');
	return json(200, { url });
}

function startRecast(ctx) {
	const sub = loadSubscription(ctx);
	const order = loadOrder(ctx, sub, 'RECAST');
	const charge = chargeImmediately(ctx);
	assertBuilding(order, 'started');
	// The recast replaces the current agreement.
	sub.line_items = order.bricks.map((b) => ({
		brick_id: b.brick_id,
		quantity: b.quantity,
		discount: b.discount,
	}));
	sub.billing_frequency = order.billing_frequency;
	sub.contract_length = order.contract_length;
	sub.renewal_contract_period = order.contract_length;
	sub.term_starts_at = order.starts_at;
	sub.ends_at = order.ends_at;
	sub.renews_at = sub.auto_renews ? addDays(order.ends_at, 1) : null;
	sub.terminates_at = sub.auto_renews ? null : addDays(order.ends_at, 1);
	sub.phases = null;
	if (order.payment_terms != null) sub.payment_terms = order.payment_terms;
	if (order.transaction_method) sub.transaction_method = order.transaction_method;
	if (sub.status === 'ORDER_NEEDED' || sub.status === 'OPEN_ORDER') sub.status = 'ACTIVE';
	sub.stage = 'CLOSED';
	rebuildSchedule(ctx.state, sub);
	const nowMs = Date.now();
	if (charge && sub.schedule.length && !sub.schedule[0].invoiced) {
		invoiceScheduleEntry(ctx.state, sub, sub.schedule[0], {
			invoiceId: ctx.state.rng.uuid(),
			issuedMs: nowMs,
			paid: false,
			nowMs,
		});
	}
	order.stage = 'CLOSED';
	order.charge_immediately = charge;
	order.started_at = msToDateTime(nowMs);
	return json(200, { subscription_id: sub.subscription_id });
}

function deleteRecast(ctx) {
	const sub = loadSubscription(ctx);
	const order = loadOrder(ctx, sub, 'RECAST');
	if (order.stage === 'CLOSED_DELETE')
		throw badRequest(`Recast ${order.order_id} is already deleted.`);
	order.stage = 'CLOSED_DELETE';
	return json(200, { message: `Recast ${order.order_id} deleted.`, order_id: order.order_id });
}

module.exports = [
	{
		method: 'POST',
		path: '/subscriptions/:subscription_id/recast',
		body: 'json',
		fields: RECAST_INPUT,
		handler: createRecast,
	},
	{ method: 'GET', path: '/subscriptions/:subscription_id/recast', handler: listRecasts },
	{
		method: 'POST',
		path: '/subscriptions/:subscription_id/recast/:order_id/sign',
		body: 'json',
		fields: { redirect_url: FREE },
		handler: signRecast,
	},
	{
		method: 'POST',
		path: '/subscriptions/:subscription_id/recast/:order_id/start',
		query: ['charge_immediately'],
		handler: startRecast,
	},
	{
		method: 'DELETE',
		path: '/subscriptions/:subscription_id/recast/:order_id',
		handler: deleteRecast,
	},
];
