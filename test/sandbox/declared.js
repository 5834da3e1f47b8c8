'use strict';
// What an endpoint accepts, as its route declares it from the contract and the public reference:
// `query` (the query parameter names) and `fields` (the body's shape). Anything else is a 400
// naming it, before the handler runs: an unknown query parameter, one given twice, an unknown
// body field at any depth the documents describe, or a body on an operation that takes none.
//
// A shape is an object mapping each field to a shape: FREE (any value: the documents leave
// its inside open, like metadata), a nested object shape, or listOf(shape) for a list whose
// items have that shape. Types and required fields stay the handlers' validators' job.

const { badRequest } = require('./errors');

const FREE = Symbol('free-form');
const ITEMS = Symbol('list items');

/** The shape of a list whose items each have `shape`. */
function listOf(shape) {
	return { [ITEMS]: shape };
}

function isPlainObject(value) {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describe(route) {
	return `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`;
}

function checkQuery(route, searchParams) {
	const allowed = route.query || [];
	const seen = new Set();
	for (const name of searchParams.keys()) {
		if (seen.has(name)) {
			throw badRequest(
				`${name}: This query parameter was given ${searchParams.getAll(name).length} times; give it at most once.`,
			);
		}
		seen.add(name);
		if (!allowed.includes(name)) {
			const accepted = allowed.length
				? `accepts only ${allowed.join(', ')}`
				: 'takes no query parameters';
			throw badRequest(`${name}: Unknown query parameter; ${describe(route)} ${accepted}.`);
		}
	}
}

function checkShape(value, shape, path) {
	if (shape === FREE) return;
	if (shape[ITEMS]) {
		if (Array.isArray(value))
			value.forEach((item, i) => checkShape(item, shape[ITEMS], `${path}[${i}]`));
		return;
	}
	if (!isPlainObject(value)) return; // a wrong type is named by the field's validator
	const known = Object.keys(shape);
	for (const key of Object.keys(value)) {
		const name = path ? `${path}.${key}` : key;
		if (!Object.prototype.hasOwnProperty.call(shape, key)) {
			const where = path ? `${path} accepts` : 'this operation accepts';
			throw badRequest(
				`${name}: Unknown field; ${where} ${known.length ? `only ${known.join(', ')}` : 'no fields'}.`,
			);
		}
		checkShape(value[key], shape[key], name);
	}
}

function checkBody(route, info) {
	if (!info.parsed || info.tooLarge) return; // unparsable or too large: routeBody names the problem
	const value = info.parsed.value;
	if (!route.body) {
		if (info.buffer.length === 0 || (isPlainObject(value) && Object.keys(value).length === 0))
			return;
		if (!isPlainObject(value)) throw badRequest(`${describe(route)} takes no request body.`);
	}
	checkShape(value, route.fields || {}, '');
}

/** Throws ERR_BAD_REQUEST for anything the route does not declare. */
function checkDeclared(route, searchParams, info) {
	checkQuery(route, searchParams);
	checkBody(route, info);
}

module.exports = { FREE, listOf, checkDeclared };
