'use strict';
// Plans: list (ordering created_at / -created_at, default -created_at) and get, with bricks.

const { badRequest, notFound } = require('../errors');
const { paginate, pageParams, queryParam, json } = require('../http');
const { planOut } = require('../serialize');

function listPlans(ctx) {
	const page = pageParams(ctx);
	const ordering = queryParam(ctx, 'ordering') ?? '-created_at';
	if (ordering !== 'created_at' && ordering !== '-created_at') {
		throw badRequest(
			`ordering: "${ordering}" is not a valid choice. Valid choices: -created_at, created_at.`,
		);
	}
	const plans = [...ctx.state.plans.values()].sort((a, b) =>
		a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0,
	);
	if (ordering === '-created_at') plans.reverse();
	return json(
		200,
		paginate(ctx, plans, (p) => planOut(ctx.state, p), page),
	);
}

function getPlan(ctx) {
	const plan = ctx.state.plans.get(ctx.params.plan_id);
	if (!plan) throw notFound(`Plan ${ctx.params.plan_id} not found.`);
	return json(200, planOut(ctx.state, plan));
}

module.exports = [
	{ method: 'GET', path: '/plans', query: ['limit', 'offset', 'ordering'], handler: listPlans },
	{ method: 'GET', path: '/plans/:plan_id', handler: getPlan },
];
