'use strict';
// World actions for the trigger's customer and subscription events: what changes at a billing
// service without an API call of the integration (someone edits a customer in the billing app, a
// subscription is paused and resumed, its end or renewal date comes near, its terms change).
// Mixed into the World of ../world.js; each is also POST /__sandbox/world/<action>.

const { badRequest, notFound } = require('../errors');
const { addDays, todayDate } = require('../dates');

const CUSTOMER_FIELDS = ['name', 'legal_name', 'external_id', 'processor_customer_id', 'tax_id'];
const ADDRESS_KEYS = ['line_1', 'line_2', 'city', 'region', 'zip', 'country'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function subscriptionOf(state, subscription_id) {
	const sub = state.subscriptions.get(subscription_id);
	if (!sub) throw notFound(`No subscription ${subscription_id}`);
	return sub;
}

function nowSecond() {
	return new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().slice(0, 19) + 'Z';
}

function dateField(body, name, daysName) {
	if (body[daysName] !== undefined) {
		if (!Number.isInteger(body[daysName])) throw badRequest(`${daysName}: a whole number of days`);
		return addDays(todayDate(), body[daysName]);
	}
	if (body[name] === undefined) return undefined;
	if (body[name] !== null && !(typeof body[name] === 'string' && DATE.test(body[name])))
		throw badRequest(`${name}: a date YYYY-MM-DD or null`);
	return body[name];
}

const methods = {
	/** Edits a customer's fields (any of name, legal_name, external_id, address, processor_customer_id, tax_id). */
	updateCustomer(body = {}) {
		const customer = this.customer(body.customer_id);
		const changed = [];
		for (const field of CUSTOMER_FIELDS) {
			if (body[field] === undefined) continue;
			if (body[field] !== null && typeof body[field] !== 'string')
				throw badRequest(`${field}: a string or null`);
			if (field === 'name') {
				if (!body.name) throw badRequest('name: may not be empty');
				for (const c of this.state.customers.values())
					if (c !== customer && c.name === body.name)
						throw badRequest(`name: A customer named '${body.name}' already exists.`);
			}
			customer[field] = body[field];
			changed.push(field);
		}
		if (body.address !== undefined) {
			if (
				body.address !== null &&
				(typeof body.address !== 'object' ||
					Object.keys(body.address).some((k) => !ADDRESS_KEYS.includes(k)))
			) {
				throw badRequest(`address: an object with ${ADDRESS_KEYS.join(', ')}, or null`);
			}
			customer.address = body.address && { ...(customer.address || {}), ...body.address };
			changed.push('address');
		}
		if (changed.length === 0)
			throw badRequest(`Give at least one of ${[...CUSTOMER_FIELDS, 'address'].join(', ')}`);
		return { customer_id: customer.customer_id, changed };
	},

	/** Pauses a subscription now: status PAUSED, a current pause with no resume date. */
	pauseSubscription({ subscription_id } = {}) {
		const sub = subscriptionOf(this.state, subscription_id);
		if (sub.status === 'PAUSED') throw badRequest('The subscription is already paused');
		const previous = sub.status;
		sub.status = 'PAUSED';
		sub.pauses.push({ paused_at: nowSecond(), resume_at: null });
		return { subscription_id, previous_status: previous, status: sub.status };
	},

	/** Resumes a paused subscription now (status ACTIVE, or `status` TERMINATING); its current pause ends. */
	resumeSubscription({ subscription_id, status = 'ACTIVE' } = {}) {
		const sub = subscriptionOf(this.state, subscription_id);
		if (sub.status !== 'PAUSED') throw badRequest('The subscription is not paused');
		if (!['ACTIVE', 'TERMINATING'].includes(status))
			throw badRequest('status: ACTIVE or TERMINATING');
		sub.status = status;
		const current = sub.pauses.find((p) => p.resume_at === null);
		if (current) current.resume_at = nowSecond();
		return { subscription_id, previous_status: 'PAUSED', status };
	},

	/**
	 * Changes what a subscription carries: name, dates (starts_at, ends_at, renews_at as dates, or
	 * ends_in_days / renews_in_days from today), auto_renews, or the quantity of its first line item.
	 */
	updateSubscription(body = {}) {
		const sub = subscriptionOf(this.state, body.subscription_id);
		const changed = [];
		if (body.name !== undefined) {
			if (typeof body.name !== 'string' || body.name === '')
				throw badRequest('name: a non-empty string');
			sub.name = body.name;
			changed.push('name');
		}
		for (const [field, days] of [
			['starts_at'],
			['ends_at', 'ends_in_days'],
			['renews_at', 'renews_in_days'],
		]) {
			const value = dateField(body, field, days);
			if (value === undefined) continue;
			if (value === null && field !== 'renews_at') throw badRequest(`${field}: a date`);
			sub[field] = value;
			changed.push(field);
		}
		if (body.auto_renews !== undefined) {
			if (typeof body.auto_renews !== 'boolean') throw badRequest('auto_renews: true or false');
			sub.auto_renews = body.auto_renews;
			changed.push('auto_renews');
		}
		if (body.quantity !== undefined) {
			if (!Number.isInteger(body.quantity) || body.quantity < 1)
				throw badRequest('quantity: a whole number, 1 or more');
			if (!sub.line_items.length) throw badRequest('The subscription has no line items');
			sub.line_items[0].quantity = body.quantity;
			changed.push('quantity');
		}
		if (changed.length === 0)
			throw badRequest(
				'Give at least one of name, starts_at, ends_at, ends_in_days, renews_at, renews_in_days, auto_renews, quantity',
			);
		return { subscription_id: sub.subscription_id, changed };
	},
};

const actions = {
	'update-customer': 'updateCustomer',
	'pause-subscription': 'pauseSubscription',
	'resume-subscription': 'resumeSubscription',
	'update-subscription': 'updateSubscription',
};

module.exports = { methods, actions };
