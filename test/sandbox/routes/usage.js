'use strict';
// Usage entries: create (201), update (value + properties; properties are replaced), delete.

const V = require('../validate');
const { notFound } = require('../errors');
const { json } = require('../http');
const { FREE } = require('../declared');
const { usageOut } = require('../serialize');

function createUsage(ctx) {
	const body = V.object(ctx.body);
	const transactionId = V.string(body, 'transaction_id', {
		required: true,
		blank: false,
		max: 255,
	});
	const subscriptionId = V.string(body, 'subscription_id', { required: true, blank: false });
	const brickId = V.string(body, 'brick_id', { required: true, blank: false });
	const value = V.integer(body, 'value', { required: true });
	const time = V.dateTime(body, 'time', { required: true });
	const properties = V.dict(body, 'properties', { nullable: true });
	const { state } = ctx;
	if (state.usage.has(transactionId))
		V.fail(
			'transaction_id',
			`A usage entry with transaction_id '${transactionId}' already exists.`,
		);
	const sub = state.subscriptions.get(subscriptionId);
	if (!sub) V.fail('subscription_id', `Subscription ${subscriptionId} not found.`);
	const brick = state.bricks.get(brickId);
	if (
		!brick ||
		brick.brick_type !== 'USAGE' ||
		!sub.line_items.some((li) => li.brick_id === brickId)
	) {
		V.fail('brick_id', `Brick ${brickId} is not a usage brick of subscription ${subscriptionId}.`);
	}
	const entry = {
		transaction_id: transactionId,
		subscription_id: subscriptionId,
		brick_id: brickId,
		value,
		time,
		properties: properties ?? {},
	};
	state.usage.set(transactionId, entry);
	return json(201, usageOut(entry));
}

function updateUsage(ctx) {
	const body = V.object(ctx.body);
	const transactionId = V.string(body, 'transaction_id', {
		required: true,
		blank: false,
		max: 255,
	});
	const value = V.number(body, 'value', { required: true });
	const properties = V.dict(body, 'properties', { nullable: true });
	const entry = ctx.state.usage.get(transactionId);
	if (!entry) throw notFound(`Usage entry with transaction_id '${transactionId}' not found.`);
	entry.value = value;
	if (properties !== undefined) entry.properties = properties ?? {};
	return json(200, { message: 'Usage entry updated successfully.' });
}

function deleteUsage(ctx) {
	const body = V.object(ctx.body);
	const transactionId = V.string(body, 'transaction_id', {
		required: true,
		blank: false,
		max: 255,
	});
	if (!ctx.state.usage.delete(transactionId))
		throw notFound(`Usage entry with transaction_id '${transactionId}' not found.`);
	return json(200, { message: 'Usage entry deleted successfully.' });
}

module.exports = [
	{
		method: 'POST',
		path: '/usage',
		body: 'json',
		fields: {
			transaction_id: FREE,
			subscription_id: FREE,
			brick_id: FREE,
			value: FREE,
			time: FREE,
			properties: FREE,
		},
		handler: createUsage,
	},
	{
		method: 'PATCH',
		path: '/usage',
		body: 'json',
		fields: { transaction_id: FREE, value: FREE, properties: FREE },
		handler: updateUsage,
	},
	{
		method: 'DELETE',
		path: '/usage',
		body: 'json',
		fields: { transaction_id: FREE },
		handler: deleteUsage,
	},
];
