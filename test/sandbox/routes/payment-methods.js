'use strict';
// Payment methods of a subscription's customer: list, get/set default, set up a new one.

const V = require('../validate');
const { notFound } = require('../errors');
const { json } = require('../http');
const { FREE } = require('../declared');
const { paymentMethodOut } = require('../serialize');
const { loadSubscription } = require('./common');

/** The documents give this list no paging: the whole list, as a plain JSON array. */
function listPaymentMethods(ctx) {
	const sub = loadSubscription(ctx);
	const list = [...ctx.state.paymentMethods.values()].filter(
		(pm) => pm.customer_id === sub.customer_id,
	);
	return json(
		200,
		list.map((pm) => paymentMethodOut(ctx.state, pm)),
	);
}

function getDefault(ctx) {
	const sub = loadSubscription(ctx);
	const customer = ctx.state.customers.get(sub.customer_id);
	const pm =
		customer.default_payment_method_id &&
		ctx.state.paymentMethods.get(customer.default_payment_method_id);
	if (!pm)
		throw notFound(
			`The customer of subscription ${sub.subscription_id} has no default payment method.`,
		);
	return json(200, paymentMethodOut(ctx.state, pm));
}

function setDefault(ctx) {
	const sub = loadSubscription(ctx);
	const body = V.object(ctx.body);
	const id = V.string(body, 'payment_method_id', { required: true, blank: false });
	const pm = ctx.state.paymentMethods.get(id);
	if (!pm) V.fail('payment_method_id', `No such payment method '${id}' at the payment processor.`);
	if (pm.customer_id !== sub.customer_id) {
		V.fail(
			'payment_method_id',
			`Payment method '${id}' is not attached to customer ${sub.customer_id}.`,
		);
	}
	ctx.state.customers.get(sub.customer_id).default_payment_method_id = id;
	return json(200, { subscription_id: sub.subscription_id, default_payment_method_id: id });
}

function setUp(ctx) {
	loadSubscription(ctx);
	const r = ctx.state.rng;
	return json(200, {
		processor_account_id: `acct_${r.alnum(16)}`,
		client_secret: `seti_${r.alnum(24)}_secret_${r.alnum(24)}`,
		publishable_key: `pk_test_${r.alnum(40)}`,
		customer_session_client_secret: `cuss_secret_${r.alnum(40)}`,
	});
}

module.exports = [
	{
		method: 'GET',
		path: '/subscriptions/:subscription_id/payment-methods',
		handler: listPaymentMethods,
	},
	{ method: 'POST', path: '/subscriptions/:subscription_id/payment-methods', handler: setUp },
	{
		method: 'GET',
		path: '/subscriptions/:subscription_id/payment-methods/default',
		handler: getDefault,
	},
	{
		method: 'PUT',
		path: '/subscriptions/:subscription_id/payment-methods/default',
		body: 'form',
		fields: { payment_method_id: FREE },
		handler: setDefault,
	},
];
