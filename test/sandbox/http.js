'use strict';
// HTTP plumbing: request bodies (json / x-www-form-urlencoded / multipart/form-data),
// query parameters, replies and the pagination envelope.

const { badRequest } = require('./errors');

const MAX_BODY_BYTES = 5 * 1024 * 1024;
const LIMIT_DEFAULT = 100;
const LIMIT_MAX = 1000;

function readBody(req) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		let size = 0;
		req.on('data', (c) => {
			size += c.length;
			if (size <= MAX_BODY_BYTES) chunks.push(c);
		});
		req.on('end', () =>
			resolve({ buffer: Buffer.concat(chunks), tooLarge: size > MAX_BODY_BYTES }),
		);
		req.on('error', reject);
	});
}

/** 'multipart/form-data; boundary="x"' -> { type: 'multipart/form-data', params: { boundary: 'x' } } */
function parseContentType(header) {
	if (!header) return { type: '', params: {} };
	const [type, ...rest] = String(header).split(';');
	const params = {};
	for (const p of rest) {
		const i = p.indexOf('=');
		if (i < 0) continue;
		let v = p.slice(i + 1).trim();
		if (v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
		params[p.slice(0, i).trim().toLowerCase()] = v;
	}
	return { type: type.trim().toLowerCase(), params };
}

function parseMultipart(buffer, boundary) {
	if (!boundary)
		throw badRequest("Content type 'multipart/form-data' requires a boundary parameter.");
	const text = buffer.toString('latin1');
	const delimiter = `--${boundary}`;
	const pieces = text.split(delimiter);
	if (pieces.length < 2)
		throw badRequest('Multipart form parse error - Invalid boundary in multipart: None');
	const fields = [];
	for (let piece of pieces.slice(1)) {
		if (piece.startsWith('--')) break; // closing delimiter
		if (piece.startsWith('\r\n')) piece = piece.slice(2);
		const headerEnd = piece.indexOf('\r\n\r\n');
		if (headerEnd < 0)
			throw badRequest('Multipart form parse error - a part has no header section.');
		const headers = piece.slice(0, headerEnd);
		let value = piece.slice(headerEnd + 4);
		if (value.endsWith('\r\n')) value = value.slice(0, -2);
		const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(headers);
		if (!disposition) continue;
		const name = /\bname="([^"]*)"/i.exec(disposition[1]);
		if (!name || /\bfilename=/i.test(disposition[1])) continue; // simple fields only
		fields.push([
			Buffer.from(name[1], 'latin1').toString('utf8'),
			Buffer.from(value, 'latin1').toString('utf8'),
		]);
	}
	return fields;
}

/**
 * Form fields -> object. Nested objects may come as `address[line_1]`, `address.line_1` or as
 * an `address` field holding JSON; a key given several times becomes an array.
 */
function formToObject(fields) {
	const out = {};
	for (const [key, value] of fields) {
		const m = /^([^[\].]+)\[([^\]]+)\]$/.exec(key) || /^([^[\].]+)\.([^[\].]+)$/.exec(key);
		if (m) {
			if (!out[m[1]] || typeof out[m[1]] !== 'object' || Array.isArray(out[m[1]])) out[m[1]] = {};
			out[m[1]][m[2]] = value;
		} else if (key.endsWith('[]')) {
			const k = key.slice(0, -2);
			out[k] = Array.isArray(out[k]) ? out[k].concat(value) : [value];
		} else if (Object.prototype.hasOwnProperty.call(out, key)) {
			out[key] = Array.isArray(out[key]) ? out[key].concat(value) : [out[key], value];
		} else {
			out[key] = value;
		}
	}
	for (const [k, v] of Object.entries(out)) {
		if (typeof v === 'string' && /^\s*\{/.test(v)) {
			try {
				const parsed = JSON.parse(v);
				if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) out[k] = parsed;
			} catch {
				// left as a string; the validator names the field
			}
		}
	}
	return out;
}

/** Media type -> 'json' | 'form' | 'none' (no Content-Type) | 'other'. */
function bodyKind(type) {
	if (!type) return 'none';
	if (type === 'application/json' || /^application\/[\w.+-]*\+json$/.test(type)) return 'json';
	if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') return 'form';
	return 'other';
}

/**
 * Parses a body by its content type. Returns { empty, kind, value } or throws ApiError(400).
 * kind: 'json' | 'form' | 'other'.
 */
function parseBody(contentType, buffer) {
	const { type, params } = parseContentType(contentType);
	const empty = buffer.length === 0;
	if (bodyKind(type) === 'json') {
		if (empty) return { empty, kind: 'json', value: undefined };
		try {
			return { empty, kind: 'json', value: JSON.parse(buffer.toString('utf8')) };
		} catch (e) {
			throw badRequest(`JSON parse error - ${e.message}`);
		}
	}
	if (type === 'application/x-www-form-urlencoded') {
		return {
			empty,
			kind: 'form',
			value: formToObject([...new URLSearchParams(buffer.toString('utf8'))]),
		};
	}
	if (type === 'multipart/form-data') {
		return { empty, kind: 'form', value: formToObject(parseMultipart(buffer, params.boundary)) };
	}
	return { empty, kind: bodyKind(type), type, value: undefined };
}

/** Query string -> object; a key given several times becomes an array of its values. */
function queryObject(rawQuery) {
	const out = {};
	for (const [k, v] of new URLSearchParams(rawQuery)) {
		if (Object.prototype.hasOwnProperty.call(out, k))
			out[k] = Array.isArray(out[k]) ? out[k].concat(v) : [out[k], v];
		else out[k] = v;
	}
	return out;
}

/** Single-valued query parameter: given more than once -> 400 naming it. */
function queryParam(ctx, name) {
	const all = ctx.searchParams.getAll(name);
	if (all.length > 1)
		throw badRequest(
			`${name}: This query parameter was given ${all.length} times; give it at most once.`,
		);
	return all.length ? all[0] : undefined;
}

function nonNegativeInt(ctx, name, fallback, { positive }) {
	const raw = queryParam(ctx, name);
	if (raw === undefined) return fallback;
	if (!/^\d+$/.test(raw) || (positive && Number(raw) < 1)) {
		throw badRequest(
			`${name}: A valid ${positive ? 'positive' : 'non-negative'} integer is required (got '${raw}').`,
		);
	}
	return Number(raw);
}

function pageLink(ctx, limit, offset) {
	const kept = ctx.rawQuery.split('&').filter((part) => {
		if (!part) return false;
		let key = part.split('=')[0];
		try {
			key = decodeURIComponent(key.replace(/\+/g, ' '));
		} catch {
			// keep undecodable keys as they are
		}
		return key !== 'limit' && key !== 'offset';
	});
	kept.push(`limit=${limit}`, `offset=${offset}`);
	return `${ctx.origin}${ctx.rawPath}?${kept.join('&')}`;
}

/** Reads and checks limit/offset; returns { limit, offset }. */
function pageParams(ctx) {
	const limit = Math.min(
		nonNegativeInt(ctx, 'limit', LIMIT_DEFAULT, { positive: true }),
		ctx.maxPageSize || LIMIT_MAX,
	);
	const offset = nonNegativeInt(ctx, 'offset', 0, { positive: false });
	return { limit, offset };
}

/** Paginated envelope over `items` (array), mapping each page item with `map`. */
function paginate(ctx, items, map, page = pageParams(ctx)) {
	const { limit, offset } = page;
	const count = items.length;
	const results = items.slice(offset, offset + limit).map(map);
	return {
		count,
		next: offset + limit < count ? pageLink(ctx, limit, offset + limit) : null,
		previous:
			offset > 0
				? pageLink(ctx, limit, Math.max(0, Math.min(offset - limit, Math.max(count - limit, 0))))
				: null,
		results,
	};
}

function json(status, body, headers) {
	return { status, body, headers: headers || {} };
}

module.exports = {
	LIMIT_DEFAULT,
	LIMIT_MAX,
	readBody,
	parseContentType,
	bodyKind,
	parseBody,
	queryObject,
	queryParam,
	pageParams,
	paginate,
	json,
};
