'use strict';
// Subscription detail, sign URL of the open order, billing portal URL.

const { badRequest } = require('../errors');
const { FREE } = require('../declared');
const { json } = require('../http');
const { subscriptionOut, hasOpenOrder } = require('../serialize');
const { msToDateTime } = require('../dates');
const { loadSubscription, signUrl } = require('./common');

function getSubscription(ctx) {
	const sub = loadSubscription(ctx, { withErrorId: true });
	return json(200, subscriptionOut(ctx.state, sub));
}

/**
 * The body is a JSON object whose redirect_url is optional: the contract does not say it is
 * required (the upgrade and recast sign URLs require it, per the public reference).
 * Open order = status ORDER_NEEDED/OPEN_ORDER, stage BUILDING, or a recast/upgrade order of
 * the subscription in stage BUILDING. Otherwise 400.
 */
function signSubscription(ctx) {
	const sub = loadSubscription(ctx);
	if (ctx.body === undefined)
		throw badRequest('This operation takes a JSON object body: {} or {"redirect_url": "..."}.');
	const url = signUrl(ctx, ctx.body, `subscription-${sub.subscription_id}`, { optional: true });
	if (!hasOpenOrder(ctx.state, sub)) {
		throw badRequest(
			`Subscription ${sub.subscription_id} has no open order to sign (status ${sub.status}, stage ${sub.stage}).`,
		);
	}
	return json(200, { url });
}

function billingPortal(ctx) {
	const sub = loadSubscription(ctx);
	return json(200, {
		url: `${ctx.origin}/portal/${sub.subscription_id}?session=${ctx.state.rng.alnum(32)}`,
		url_expires_at: msToDateTime(Date.now() + 3600 * 1000),
	});
}

module.exports = [
	{ method: 'GET', path: '/subscriptions/:subscription_id', handler: getSubscription },
	{
		method: 'POST',
		path: '/subscriptions/:subscription_id/sign',
		body: 'json',
		fields: { redirect_url: FREE },
		handler: signSubscription,
	},
	{ method: 'GET', path: '/subscriptions/:subscription_id/billing-portal', handler: billingPortal },
];
