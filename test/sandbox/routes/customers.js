'use strict';
// Customers: list, create, partial update, search.
// PATCH merges `address`: only the supplied address keys change (null clears a key);
// `address: null` removes the whole address.

const V = require('../validate');
const { badRequest } = require('../errors');
const { FREE } = require('../declared');
const { paginate, pageParams, json } = require('../http');
const { customerOut, customersOut } = require('../serialize');
const { loadCustomer } = require('./common');

const FIELDS = ['name', 'legal_name', 'external_id', 'address', 'processor_customer_id', 'tax_id'];
const ADDRESS_KEYS = ['line_1', 'line_2', 'city', 'region', 'zip', 'country'];
const CUSTOMER_INPUT = {
	name: FREE,
	legal_name: FREE,
	external_id: FREE,
	address: Object.fromEntries(ADDRESS_KEYS.map((k) => [k, FREE])),
	processor_customer_id: FREE,
	tax_id: FREE,
};
const SEARCH_INPUT = { name: FREE, external_id: FREE, processor_customer_id: FREE };
const PAGING = ['limit', 'offset'];

function validateInput(body, { partial }) {
	V.object(body);
	const out = {};
	const name = V.string(body, 'name', { required: !partial, blank: false });
	if (name !== undefined) out.name = name;
	for (const field of ['legal_name', 'tax_id']) {
		const v = V.string(body, field, { nullable: true });
		if (v !== undefined) out[field] = v;
	}
	for (const field of ['external_id', 'processor_customer_id']) {
		const v = V.string(body, field, { nullable: true, max: 255 });
		if (v !== undefined) out[field] = v;
	}
	const address = V.dict(body, 'address', { nullable: true });
	if (address !== undefined) {
		if (address === null) out.address = null;
		else {
			out.address = {};
			for (const k of ADDRESS_KEYS) {
				const v = V.string(address, k, { nullable: true, label: `address.${k}` });
				if (v !== undefined) out.address[k] = v;
			}
		}
	}
	return out;
}

function assertUniqueName(state, name, selfId) {
	for (const c of state.customers.values()) {
		if (c.name === name && c.customer_id !== selfId)
			throw badRequest(`name: A customer named '${name}' already exists.`);
	}
}

/** One page of customers, their subscriptions gathered in one pass (100,000 customers answer in milliseconds). */
function customerPage(ctx, customers, page) {
	const body = paginate(ctx, customers, (c) => c, page);
	return { ...body, results: customersOut(ctx.state, body.results) };
}

function listCustomers(ctx) {
	const page = pageParams(ctx);
	return json(200, customerPage(ctx, [...ctx.state.customers.values()], page));
}

function createCustomer(ctx) {
	const input = validateInput(ctx.body, { partial: false });
	assertUniqueName(ctx.state, input.name, null);
	const c = {
		customer_id: ctx.state.rng.uuid(),
		name: input.name,
		legal_name: input.legal_name ?? null,
		external_id: input.external_id ?? null,
		address: input.address ?? null,
		processor_customer_id: input.processor_customer_id ?? null,
		tax_id: input.tax_id ?? null,
		default_payment_method_id: null,
		created_at: new Date().toISOString(),
	};
	ctx.state.customers.set(c.customer_id, c);
	ctx.state.invoicesByCustomer.set(c.customer_id, []);
	return json(201, customerOut(ctx.state, c));
}

function updateCustomer(ctx) {
	const c = loadCustomer(ctx);
	const input = validateInput(ctx.body, { partial: true });
	if (Object.keys(input).length === 0) {
		throw badRequest(`At least one field must be given: ${FIELDS.join(', ')}.`);
	}
	if (input.name !== undefined) assertUniqueName(ctx.state, input.name, c.customer_id);
	for (const [k, v] of Object.entries(input)) {
		if (k === 'address' && v !== null) c.address = { ...(c.address || {}), ...v };
		else c[k] = v;
	}
	return json(200, customerOut(ctx.state, c));
}

function searchCustomers(ctx) {
	const page = pageParams(ctx);
	const body = V.object(ctx.body);
	const name = V.string(body, 'name', { nullable: true });
	const externalId = V.string(body, 'external_id', { nullable: true, max: 255 });
	const processorId = V.string(body, 'processor_customer_id', { nullable: true, max: 255 });
	const given = (v) => typeof v === 'string' && v !== '';
	if (!given(name) && !given(externalId) && !given(processorId)) {
		throw badRequest(
			'At least one search field must be given: name, external_id, processor_customer_id.',
		);
	}
	const needle = given(name) ? name.toLowerCase() : null;
	const matches = [...ctx.state.customers.values()].filter(
		(c) =>
			(!needle || c.name.toLowerCase().includes(needle)) &&
			(!given(externalId) || c.external_id === externalId) &&
			(!given(processorId) || c.processor_customer_id === processorId),
	);
	return json(200, customerPage(ctx, matches, page));
}

module.exports = [
	{ method: 'GET', path: '/customers', query: PAGING, handler: listCustomers },
	{
		method: 'POST',
		path: '/customers',
		body: 'form',
		fields: CUSTOMER_INPUT,
		handler: createCustomer,
	},
	{
		method: 'POST',
		path: '/customers/search',
		query: PAGING,
		body: 'form',
		fields: SEARCH_INPUT,
		handler: searchCustomers,
	},
	{
		method: 'PATCH',
		path: '/customers/:customer_id',
		body: 'json',
		fields: CUSTOMER_INPUT,
		handler: updateCustomer,
	},
];
