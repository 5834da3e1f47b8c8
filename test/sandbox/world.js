'use strict';
// Test-only changes to the sandbox's world, the things that happen at a billing service without
// an API call of the integration: a customer signs up, an invoice is issued, paid, falls overdue,
// a subscription changes status. Used by the trigger's tests and the demo.
//
// In-process: sandbox.world.issueInvoice({ customer_id }) etc.
// Over HTTP, outside the API's /api/v2 prefix and with its own token (never the API key):
//   POST /__sandbox/world/<action>   header X-SANDBOX-ADMIN-TOKEN: <sandbox.adminToken>   JSON body
//   actions: create-customer, create-subscription, issue-invoice, pay-invoice, pass-due-date,
//            set-subscription-status, null-subscription-customer; world/customerChanges.js: update-customer, pause-subscription,
//            resume-subscription, update-subscription

const crypto = require('crypto');
const { ApiError, badRequest, notFound } = require('./errors');
const { addInvoice, round2 } = require('./billing');
const { msToDate } = require('./dates');
const customerChanges = require('./world/customerChanges');

const WORLD_PREFIX = '/__sandbox/world/';
const ADMIN_HEADER = 'x-sandbox-admin-token';
const STATUSES = [
	'ACTIVE',
	'ORDER_NEEDED',
	'OPEN_ORDER',
	'SCHEDULED',
	'TERMINATED',
	'TERMINATING',
	'INACTIVE',
	'PAUSED',
	'SUPERSEDED',
];
const DAY_MS = 86400000;

function toMs(value, label) {
	if (value === undefined || value === null) return undefined;
	const ms = typeof value === 'number' ? value : Date.parse(value);
	if (!Number.isFinite(ms)) throw badRequest(`${label}: not a date-time`);
	return Math.floor(ms / 1000) * 1000;
}

class World {
	constructor(sandbox) {
		this.sandbox = sandbox;
	}

	get state() {
		return this.sandbox.state;
	}

	customer(id) {
		const customer = this.state.customers.get(id);
		if (!customer) throw notFound(`No customer ${id}`);
		return customer;
	}

	invoice(id) {
		const invoice = this.state.invoicesById.get(id);
		if (!invoice) throw notFound(`No invoice ${id}`);
		return invoice;
	}

	/** A new customer, listed last (the API lists customers in creation order). */
	createCustomer({ name, external_id = null } = {}) {
		if (typeof name !== 'string' || name === '') throw badRequest('name: required');
		for (const c of this.state.customers.values())
			if (c.name === name) throw badRequest(`name: A customer named '${name}' already exists.`);
		const customer = {
			customer_id: this.state.rng.uuid(),
			name,
			legal_name: null,
			external_id,
			address: null,
			processor_customer_id: null,
			tax_id: null,
			default_payment_method_id: null,
			created_at: new Date().toISOString(),
		};
		this.state.customers.set(customer.customer_id, customer);
		this.state.invoicesByCustomer.set(customer.customer_id, []);
		return { customer_id: customer.customer_id, name };
	}

	/** A subscription for the customer, shaped like the seeded ones (its schedule is already invoiced). */
	createSubscription({ customer_id, name, status = 'ACTIVE' } = {}) {
		const customer = this.customer(customer_id);
		if (!STATUSES.includes(status)) throw badRequest(`status: one of ${STATUSES.join(', ')}`);
		const template = [...this.state.subscriptions.values()].find((s) => !s.phases);
		const sub = structuredClone(template);
		sub.subscription_id = this.state.rng.uuid();
		sub.customer_id = customer.customer_id;
		sub.name = name || `${customer.name} - Starter`;
		sub.status = status;
		for (const entry of sub.schedule) entry.invoiced = true;
		this.state.subscriptions.set(sub.subscription_id, sub);
		return { subscription_id: sub.subscription_id, customer_id, status };
	}

	setSubscriptionStatus({ subscription_id, status } = {}) {
		const sub = this.state.subscriptions.get(subscription_id);
		if (!sub) throw notFound(`No subscription ${subscription_id}`);
		if (!STATUSES.includes(status)) throw badRequest(`status: one of ${STATUSES.join(', ')}`);
		const previous = sub.status;
		sub.status = status;
		return { subscription_id, previous_status: previous, status };
	}

	/**
	 * The subscription's detail answers `customer: null` from now on (the contract does not say which
	 * of its fields may be null; a deployment that cannot show the customer record may answer so).
	 */
	nullSubscriptionCustomer({ subscription_id } = {}) {
		const sub = this.state.subscriptions.get(subscription_id);
		if (!sub) throw notFound(`No subscription ${subscription_id}`);
		sub.customer_answered_as_null = true;
		return { subscription_id, customer: null };
	}

	/** An open invoice issued now (or at `issued_at`), due `due_in_days` later (default 30). */
	issueInvoice({ customer_id, amount = 100, issued_at, due_in_days = 30 } = {}) {
		const customer = this.customer(customer_id);
		const sub = [...this.state.subscriptions.values()].find(
			(s) => s.customer_id === customer.customer_id,
		);
		const issuedMs = toMs(issued_at, 'issued_at') ?? Math.floor(Date.now() / 1000) * 1000;
		const total = round2(Number(amount));
		const invoice = addInvoice(this.state, {
			invoice_id: this.state.rng.uuid(),
			customer_id: customer.customer_id,
			subscription_id: sub ? sub.subscription_id : null,
			issuedMs,
			dueMs: issuedMs + Number(due_in_days) * DAY_MS,
			billMs: issuedMs,
			status: 'OPEN',
			total,
			remaining: total,
			paidMs: null,
			currency: sub ? sub.currency : 'USD',
			time_zone: 'UTC',
			periodStartMs: issuedMs,
			lines: [
				{
					brick_name: 'Services',
					brick_id: 'services',
					quantity: 1,
					tax: 0,
					grand_total: total,
					startsMs: issuedMs,
					endsMs: issuedMs + 30 * DAY_MS,
				},
			],
			metadata: { source: 'sandbox', issued_on: msToDate(issuedMs) },
		});
		return this.summary(invoice);
	}

	payInvoice({ invoice_id, paid_at } = {}) {
		const invoice = this.invoice(invoice_id);
		invoice.paidMs = toMs(paid_at, 'paid_at') ?? Math.floor(Date.now() / 1000) * 1000;
		invoice.remaining = 0;
		invoice.status = 'PAID';
		this.state.invoiceVersion++;
		return this.summary(invoice);
	}

	/** The invoice's due date is now (to the second) and it is unpaid: it is overdue from now on. */
	passDueDate({ invoice_id } = {}) {
		const invoice = this.invoice(invoice_id);
		invoice.dueMs = Math.floor(Date.now() / 1000) * 1000 - 1000;
		if (invoice.paidMs == null) invoice.status = 'PAST_DUE';
		this.state.invoiceVersion++;
		return this.summary(invoice);
	}

	summary(invoice) {
		return {
			invoice_id: invoice.invoice_id,
			invoice_number: invoice.invoice_number,
			customer_id: invoice.customer_id,
			status: invoice.status,
		};
	}
}

Object.assign(World.prototype, customerChanges.methods);

const ACTIONS = {
	'create-customer': 'createCustomer',
	'create-subscription': 'createSubscription',
	'set-subscription-status': 'setSubscriptionStatus',
	'null-subscription-customer': 'nullSubscriptionCustomer',
	'issue-invoice': 'issueInvoice',
	'pay-invoice': 'payInvoice',
	'pass-due-date': 'passDueDate',
	...customerChanges.actions,
};

function safeEqual(a, b) {
	const x = Buffer.from(String(a));
	const y = Buffer.from(String(b));
	return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** The HTTP side: a reply for /__sandbox/world/<action>, or null for any other path. */
function worldRoute(sb, req, info) {
	if (!info.rawPath.startsWith(WORLD_PREFIX)) return null;
	const token = req.headers[ADMIN_HEADER];
	if (typeof token !== 'string' || !safeEqual(token, sb.adminToken)) {
		throw new ApiError(
			401,
			'ERR_UNAUTHORIZED',
			'The sandbox world needs its admin token (X-SANDBOX-ADMIN-TOKEN); the API key is not accepted here.',
		);
	}
	const method = ACTIONS[info.rawPath.slice(WORLD_PREFIX.length)];
	if (!method)
		throw notFound(
			`No sandbox action ${info.rawPath}. Actions: ${Object.keys(ACTIONS).join(', ')}`,
		);
	if (req.method !== 'POST')
		throw new ApiError(405, 'ERR_METHOD_NOT_ALLOWED', 'Sandbox actions are POST requests.');
	if (info.parseError) throw info.parseError;
	const body = info.parsed && info.parsed.value;
	return {
		status: 200,
		body: sb.world[method](body && typeof body === 'object' ? body : {}),
		headers: {},
	};
}

const invoiceTimeline = require('./world/invoiceTimeline');
Object.assign(World.prototype, invoiceTimeline.methods);
Object.assign(ACTIONS, invoiceTimeline.actions);

/** The names of the test-only world actions, as POST /__sandbox/world/<action> takes them. */
const worldActions = () => Object.keys(ACTIONS);

module.exports = { World, worldRoute, worldActions, WORLD_PREFIX, ADMIN_HEADER };
