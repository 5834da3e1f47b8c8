'use strict';
// Field validators. Each throws ERR_BAD_REQUEST with a message naming the field,
// e.g. "external_id: Ensure this field has no more than 255 characters.".
// A field that is absent (undefined) is skipped unless required; unknown fields are ignored.

const { badRequest } = require('./errors');

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

function typeName(v) {
	if (v === null) return 'null';
	if (Array.isArray(v)) return 'list';
	if (typeof v === 'string') return 'str';
	if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
	if (typeof v === 'boolean') return 'bool';
	return 'dict';
}

function fail(field, message) {
	throw badRequest(`${field}: ${message}`);
}

/** Body must be a JSON object. */
function object(body, what = 'body') {
	if (body === undefined) return {};
	if (body === null || typeof body !== 'object' || Array.isArray(body)) {
		throw badRequest(
			`Invalid data. Expected a dictionary in the ${what}, but got ${typeName(body)}.`,
		);
	}
	return body;
}

function present(body, field, { required, nullable, label }) {
	const v = body[field];
	if (v === undefined) {
		if (required) fail(label || field, 'This field is required.');
		return false;
	}
	if (v === null) {
		if (!nullable) fail(label || field, 'This field may not be null.');
		return false;
	}
	return true;
}

function string(
	body,
	field,
	{ required = false, nullable = false, blank = true, max, label } = {},
) {
	if (!present(body, field, { required, nullable, label })) return body[field];
	const v = body[field];
	if (typeof v !== 'string') fail(label || field, `Not a valid string (got ${typeName(v)}).`);
	if (!blank && v.trim() === '') fail(label || field, 'This field may not be blank.');
	if (max !== undefined && v.length > max)
		fail(label || field, `Ensure this field has no more than ${max} characters.`);
	return v;
}

function integer(body, field, { required = false, nullable = false, min, label } = {}) {
	if (!present(body, field, { required, nullable, label })) return body[field];
	const v = body[field];
	if (typeof v !== 'number' || !Number.isInteger(v))
		fail(label || field, `A valid integer is required (got ${typeName(v)}).`);
	if (min !== undefined && v < min)
		fail(label || field, `Ensure this value is greater than or equal to ${min}.`);
	return v;
}

function number(body, field, { required = false, nullable = false, min, label } = {}) {
	if (!present(body, field, { required, nullable, label })) return body[field];
	const v = body[field];
	if (typeof v !== 'number' || !Number.isFinite(v))
		fail(label || field, `A valid number is required (got ${typeName(v)}).`);
	if (min !== undefined && v < min)
		fail(label || field, `Ensure this value is greater than or equal to ${min}.`);
	return v;
}

function boolean(body, field, { required = false, nullable = false, label } = {}) {
	if (!present(body, field, { required, nullable, label })) return body[field];
	const v = body[field];
	if (typeof v !== 'boolean') fail(label || field, `Must be a valid boolean (got ${typeName(v)}).`);
	return v;
}

function choice(body, field, values, opts = {}) {
	const v = string(body, field, opts);
	if (typeof v === 'string' && !values.includes(v))
		fail(opts.label || field, `"${v}" is not a valid choice. Valid choices: ${values.join(', ')}.`);
	return v;
}

function isValidDate(v) {
	const m = DATE_RE.exec(v);
	if (!m) return false;
	const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
	return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

function date(body, field, opts = {}) {
	const v = string(body, field, opts);
	if (typeof v === 'string' && !isValidDate(v))
		fail(
			opts.label || field,
			'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
		);
	return v;
}

function dateTime(body, field, opts = {}) {
	const v = string(body, field, opts);
	if (
		typeof v === 'string' &&
		(!DATETIME_RE.test(v) || !isValidDate(v.slice(0, 10)) || Number.isNaN(Date.parse(v)))
	) {
		fail(
			opts.label || field,
			'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
		);
	}
	return v;
}

function dict(body, field, { required = false, nullable = false, label } = {}) {
	if (!present(body, field, { required, nullable, label })) return body[field];
	const v = body[field];
	if (typeof v !== 'object' || Array.isArray(v))
		fail(label || field, `Expected a dictionary of items but got type "${typeName(v)}".`);
	return v;
}

function list(
	body,
	field,
	{ required = false, nullable = false, nonEmpty = false, of, label } = {},
) {
	if (!present(body, field, { required, nullable, label })) return body[field];
	const v = body[field];
	if (!Array.isArray(v))
		fail(label || field, `Expected a list of items but got type "${typeName(v)}".`);
	if (nonEmpty && v.length === 0) fail(label || field, 'This list may not be empty.');
	if (of) v.forEach((item, i) => of(item, `${label || field}[${i}]`));
	return v;
}

const itemString = (item, name) => {
	if (typeof item !== 'string') fail(name, `Not a valid string (got ${typeName(item)}).`);
};
const itemUuid = (item, name) => {
	itemString(item, name);
	if (!UUID_RE.test(item)) fail(name, `"${item}" is not a valid UUID.`);
};

function httpUrl(body, field, opts = {}) {
	const v = string(body, field, { ...opts, blank: false });
	if (typeof v === 'string') {
		let u;
		try {
			u = new URL(v);
		} catch {
			fail(opts.label || field, 'Enter a valid URL.');
		}
		if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname)
			fail(opts.label || field, 'Enter a valid URL.');
	}
	return v;
}

module.exports = {
	UUID_RE,
	typeName,
	fail,
	object,
	string,
	integer,
	number,
	boolean,
	choice,
	date,
	dateTime,
	dict,
	list,
	itemString,
	itemUuid,
	httpUrl,
};
