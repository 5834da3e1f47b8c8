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
    if (withErrorId) throw new ApiError(404, 'ERR_NOT_FOUND', `Subscription ${id} not found.`, { error_id: ctx.freshUuid() });
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

/** Validates `redirect_url` (required, absolute http(s) URL) and builds a fake signing URL. */
function signUrl(ctx, body, token) {
  V.object(body);
  const redirect = V.httpUrl(body, 'redirect_url', { required: true });
  return `${ctx.origin}/sign/${token}?redirect_url=${encodeURIComponent(redirect)}`;
}

module.exports = { loadCustomer, loadSubscription, assertChangeable, signUrl };
