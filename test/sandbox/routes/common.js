'use strict';
// Lookups shared by the route modules.

const { ApiError, notFound, badRequest } = require('../errors');
const V = require('../validate');

function loadCustomer(ctx, id = ctx.params.customer_id) {
	const c = ctx.state.customers.get(id);
	if (!c) throw notFound(`Customer ${id} not found.`);
	return c;
}

function loadSubscription(ctx, { withErrorId = false } = {}) {
	const id = ctx.params.subscription_id;
	const sub = ctx.state.subscriptions.get(id);
	if (!sub) {
		if (withErrorId)
			throw new ApiError(404, 'ERR_NOT_FOUND', `Subscription ${id} not found.`, {
				error_id: ctx.freshUuid(),
			});
		throw notFound(`Subscription ${id} not found.`);
	}
	return sub;
}

const CLOSED_STATUSES = new Set(['TERMINATED', 'INACTIVE', 'SUPERSEDED']);

function assertChangeable(sub, what) {
	if (CLOSED_STATUSES.has(sub.status)) {
		throw badRequest(`Subscription ${sub.subscription_id} is ${sub.status} and cannot be ${what}.`);
	}
}

/**
 * Validates `redirect_url` (an absolute http(s) URL; required unless `optional`) and builds a
 * fake signing URL, which returns to it when one was given.
 */
function signUrl(ctx, body, token, { optional = false } = {}) {
	V.object(body);
	const redirect = V.httpUrl(body, 'redirect_url', { required: !optional });
	const url = `${ctx.origin}/sign/${token}`;
	return redirect === undefined ? url : `${url}?redirect_url=${encodeURIComponent(redirect)}`;
}

module.exports = { loadCustomer, loadSubscription, assertChangeable, signUrl };
