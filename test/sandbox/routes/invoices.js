'use strict';
// Invoices: a customer's list, search, a subscription's list.
// The search takes customer_id, invoice_numbers and invoice_ids: the documents say it narrows by
// subscription, status or metadata too but name no fields for that, so none are accepted.
// Orderings are computed once per (customer, ordering) and cached until an invoice is added,
// so listing 100k invoices page by page stays fast.

const V = require('../validate');
const { badRequest } = require('../errors');
const { FREE } = require('../declared');
const { paginate, pageParams, queryParam, json } = require('../http');
const { invoiceOut } = require('../serialize');
const { dateToMs } = require('../dates');
const { loadCustomer, loadSubscription } = require('./common');

const CUSTOMER_ORDERINGS = ['-due_at', '-issued_at', 'due_at', 'issued_at'];
const SUBSCRIPTION_ORDERINGS = [
	'-amount',
	'-created_at',
	'-due_at',
	'amount',
	'created_at',
	'due_at',
];
const SCOPES = ['all', 'current', 'past'];
const SORT_FIELDS = {
	issued_at: 'issuedMs',
	due_at: 'dueMs',
	created_at: 'issuedMs',
	amount: 'total',
};

function orderingParam(ctx, allowed, fallback) {
	const v = queryParam(ctx, 'ordering');
	if (v === undefined) return fallback;
	if (!allowed.includes(v))
		throw badRequest(
			`ordering: "${v}" is not a valid choice. Valid choices: ${allowed.join(', ')}.`,
		);
	return v;
}

/** The customer's invoices sorted by `ordering` (cached per invoice version). */
function sortedInvoices(state, customerId, ordering) {
	if (!state.sortCache) state.sortCache = new Map();
	const key = `${customerId}|${ordering}`;
	const hit = state.sortCache.get(key);
	if (hit && hit.version === state.invoiceVersion) return hit.list;
	const desc = ordering.startsWith('-');
	const field = SORT_FIELDS[desc ? ordering.slice(1) : ordering];
	const sign = desc ? -1 : 1;
	const list = (state.invoicesByCustomer.get(customerId) || []).slice();
	list.sort((a, b) => sign * (a[field] - b[field] || a.seq - b.seq));
	state.sortCache.set(key, { version: state.invoiceVersion, list });
	return list;
}

function listCustomerInvoices(ctx) {
	const customer = loadCustomer(ctx);
	const page = pageParams(ctx);
	const ordering = orderingParam(ctx, CUSTOMER_ORDERINGS, '-issued_at');
	const list = sortedInvoices(ctx.state, customer.customer_id, ordering);
	return json(
		200,
		paginate(ctx, list, (inv) => invoiceOut(ctx.state, inv), page),
	);
}

function searchInvoices(ctx) {
	const page = pageParams(ctx);
	const body = V.object(ctx.body);
	const customerId = V.string(body, 'customer_id', { required: true, blank: false });
	const numbers = V.list(body, 'invoice_numbers', { nullable: true, of: V.itemString });
	const ids = V.list(body, 'invoice_ids', { nullable: true, of: V.itemUuid });
	const customer = loadCustomer(ctx, customerId);

	const numberSet = numbers ? new Set(numbers) : null;
	const idSet = ids ? new Set(ids.map((i) => i.toLowerCase())) : null;
	const list = sortedInvoices(ctx.state, customer.customer_id, '-issued_at').filter(
		(inv) =>
			(!numberSet || numberSet.has(inv.invoice_number)) && (!idSet || idSet.has(inv.invoice_id)),
	);
	return json(
		200,
		paginate(ctx, list, (inv) => invoiceOut(ctx.state, inv), page),
	);
}

function listSubscriptionInvoices(ctx) {
	const sub = loadSubscription(ctx);
	const page = pageParams(ctx);
	const ordering = orderingParam(ctx, SUBSCRIPTION_ORDERINGS, '-created_at');
	const scope = queryParam(ctx, 'scope') ?? 'all';
	if (!SCOPES.includes(scope))
		throw badRequest(
			`scope: "${scope}" is not a valid choice. Valid choices: ${SCOPES.join(', ')}.`,
		);
	// current = invoices of the current term; past = invoices of earlier terms.
	const termStart = dateToMs(sub.term_starts_at);
	const list = sortedInvoices(ctx.state, sub.customer_id, ordering).filter(
		(inv) =>
			inv.subscription_id === sub.subscription_id &&
			(scope === 'all' ||
				(scope === 'current' ? inv.periodStartMs >= termStart : inv.periodStartMs < termStart)),
	);
	return json(
		200,
		paginate(ctx, list, (inv) => invoiceOut(ctx.state, inv), page),
	);
}

module.exports = [
	{
		method: 'GET',
		path: '/customers/:customer_id/invoices',
		query: ['limit', 'offset', 'ordering'],
		handler: listCustomerInvoices,
	},
	{
		method: 'POST',
		path: '/invoices/search',
		query: ['limit', 'offset'],
		body: 'json',
		fields: { customer_id: FREE, invoice_numbers: FREE, invoice_ids: FREE },
		handler: searchInvoices,
	},
	{
		method: 'GET',
		path: '/subscriptions/:subscription_id/invoices',
		query: ['limit', 'offset', 'ordering', 'scope'],
		handler: listSubscriptionInvoices,
	},
];
