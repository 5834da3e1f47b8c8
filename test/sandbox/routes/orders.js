'use strict';
// Helpers shared by recasts and upgrades: brick validation, order lookup, start parameters.

const V = require('../validate');
const { badRequest, notFound } = require('../errors');
const { queryParam } = require('../http');
const { FREE, listOf } = require('../declared');

/** Body fields both order kinds take (public reference); recasts add their own. */
const ORDER_INPUT = {
	starts_at: FREE,
	bricks: listOf({ brick_id: FREE, quantity: FREE, discount: { rate: FREE, renews: FREE } }),
	plan_id: FREE,
	discount_coupons: FREE,
	custom_order_form_html: FREE,
	metadata: FREE,
};

/**
 * The API writes discount rates as decimal strings ("10.00"), so a rate is accepted as a number
 * or as a string holding a decimal number (as a decimal field does); anything else stays as it
 * is and the number validator names it.
 */
function decimalRate(discount) {
	const raw = discount.rate;
	if (typeof raw === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(raw))
		return { ...discount, rate: Number(raw) };
	return discount;
}

/** Validates plan_id / bricks; plan_id without bricks is a 400. Returns { planId, bricks }. */
function validatePlanAndBricks(ctx, body, { minQuantity }) {
	const planId = V.string(body, 'plan_id', { nullable: true, blank: false });
	if (planId != null && body.bricks === undefined)
		throw badRequest('bricks: This field is required when plan_id is given.');
	if (planId != null && !ctx.state.plans.has(planId))
		throw badRequest(`plan_id: Plan ${planId} not found.`);
	const raw = V.list(body, 'bricks', { required: true, nonEmpty: true });
	const seen = new Set();
	const bricks = raw.map((item, i) => {
		const label = `bricks[${i}]`;
		if (item === null || typeof item !== 'object' || Array.isArray(item)) {
			V.fail(label, `Expected a dictionary of items but got type "${V.typeName(item)}".`);
		}
		const brickId = V.string(item, 'brick_id', {
			required: true,
			blank: false,
			label: `${label}.brick_id`,
		});
		const quantity = V.integer(item, 'quantity', {
			required: true,
			min: minQuantity,
			label: `${label}.quantity`,
		});
		let discount = null;
		const d = V.dict(item, 'discount', { nullable: true, label: `${label}.discount` });
		if (d) {
			const rate = V.number(decimalRate(d), 'rate', {
				required: true,
				min: 0,
				label: `${label}.discount.rate`,
			});
			if (rate > 100)
				V.fail(`${label}.discount.rate`, 'Ensure this value is less than or equal to 100.');
			const renews = V.boolean(d, 'renews', { label: `${label}.discount.renews` });
			discount = { rate, renews: renews === true };
		}
		const brick = ctx.state.bricks.get(brickId);
		if (!brick) V.fail(`${label}.brick_id`, `Brick ${brickId} not found in the plan catalogue.`);
		if (planId != null && brick.plan_id !== planId)
			V.fail(`${label}.brick_id`, `Brick ${brickId} is not part of plan ${planId}.`);
		if (seen.has(brickId))
			V.fail(`${label}.brick_id`, `Brick ${brickId} is listed more than once.`);
		seen.add(brickId);
		return { brick_id: brickId, quantity, discount };
	});
	return { planId: planId ?? null, bricks };
}

function validateCommonOptional(body) {
	return {
		discount_coupons: V.list(body, 'discount_coupons', { nullable: true, of: V.itemString }) ?? [],
		custom_order_form_html: V.string(body, 'custom_order_form_html', { nullable: true }) ?? null,
		metadata: V.dict(body, 'metadata', { nullable: true }) ?? null,
	};
}

function loadOrder(ctx, sub, type) {
	const id = ctx.params.order_id;
	const o = ctx.state.orders.get(id);
	const label = type === 'RECAST' ? 'Recast' : 'Upgrade';
	if (!o || o.order_type !== type || o.subscription_id !== sub.subscription_id) {
		throw notFound(`${label} order ${id} not found for subscription ${sub.subscription_id}.`);
	}
	return o;
}

function assertBuilding(order, action) {
	if (order.stage !== 'BUILDING') {
		throw badRequest(
			`Order ${order.order_id} is in stage ${order.stage}; only an order in stage BUILDING can be ${action}.`,
		);
	}
}

/** Required query parameter charge_immediately=yes|no -> boolean. */
function chargeImmediately(ctx) {
	const v = queryParam(ctx, 'charge_immediately');
	if (v === undefined)
		throw badRequest('charge_immediately: This query parameter is required (yes or no).');
	if (v !== 'yes' && v !== 'no')
		throw badRequest(`charge_immediately: "${v}" is not a valid choice. Valid choices: yes, no.`);
	return v === 'yes';
}

module.exports = {
	ORDER_INPUT,
	validatePlanAndBricks,
	validateCommonOptional,
	loadOrder,
	assertBuilding,
	chargeImmediately,
};
