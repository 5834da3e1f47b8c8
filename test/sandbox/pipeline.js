'use strict';
// One request, start to finish: log entry, body, fault decision, auth, routing, the route's
// declared query parameters and body fields, idempotency, body parsing per route, handler,
// reply (possibly slowed down or truncated).

const crypto = require('crypto');
const { ApiError, badRequest, notFound } = require('./errors');
const { readBody, parseBody, parseContentType, bodyKind, queryObject } = require('./http');
const { compile, splitPath, match } = require('./router');
const { NOT_APPLIED } = require('./faults');
const { checkDeclared } = require('./declared');
const { page } = require('./routes/pages');
const { worldRoute } = require('./world');
const routes = compile(require('./routes'));

const PREFIX = '/api/v2';

function safeEqual(a, b) {
	const x = Buffer.from(String(a));
	const y = Buffer.from(String(b));
	return x.length === y.length && crypto.timingSafeEqual(x, y);
}

function routeBody(route, req, info) {
	if (!route.body) return undefined; // this operation takes no body (checkDeclared refused any content)
	if (info.tooLarge) throw badRequest('Request body too large.');
	const { parsed, parseError, contentType } = info;
	const allowed =
		route.body === 'form'
			? 'application/json, application/x-www-form-urlencoded or multipart/form-data'
			: 'application/json';
	const kind = bodyKind(parseContentType(contentType).type);
	if (kind === 'none') {
		if (info.buffer.length === 0) return undefined;
		throw badRequest(`Missing Content-Type header; this operation accepts ${allowed}.`);
	}
	if (kind === 'other' || (kind === 'form' && route.body !== 'form')) {
		throw badRequest(
			`Unsupported content type '${parseContentType(contentType).type}'; this operation accepts ${allowed}.`,
		);
	}
	if (parseError) throw parseError;
	return parsed.value;
}

function processRequest(sb, req, info) {
	const { rawPath, rawQuery } = info;
	const searchParams = new URLSearchParams(rawQuery);
	if (rawPath !== PREFIX && !rawPath.startsWith(`${PREFIX}/`)) {
		const p = worldRoute(sb, req, info) || page(req.method, rawPath, searchParams);
		if (p) return p;
		throw notFound(`Not found: ${rawPath}`);
	}
	const key = req.headers['x-service-key'];
	if (typeof key !== 'string' || !safeEqual(key, sb.apiKey)) {
		throw new ApiError(401, 'ERR_UNAUTHORIZED', 'Invalid or missing API key.');
	}
	const m = match(routes, req.method, splitPath(rawPath.slice(PREFIX.length)));
	if (!m) throw notFound(`No API resource at ${rawPath}.`);
	if (m.allowed) {
		throw new ApiError(
			405,
			'ERR_METHOD_NOT_ALLOWED',
			`Method ${req.method} is not allowed on ${rawPath}. Allowed: ${m.allowed.join(', ')}.`,
			null,
			{
				Allow: m.allowed.join(', '),
			},
		);
	}
	checkDeclared(m.route, searchParams, info);
	const idemKey = sb.idempotency.keyOf(req);
	const idemRequest = {
		method: req.method,
		path: rawPath,
		searchParams,
		body: info.parseError ? info.buffer.toString('utf8') : info.parsed && info.parsed.value,
	};
	if (idemKey !== null) {
		const replay = sb.idempotency.replay(idemKey, idemRequest);
		if (replay) return replay;
	}
	const ctx = {
		state: sb.state,
		params: m.params,
		searchParams,
		rawQuery,
		rawPath,
		origin: `${sb.linkScheme}://${req.headers.host || sb.hostPort}`,
		method: req.method,
		body: routeBody(m.route, req, info),
		freshUuid: () => crypto.randomUUID(),
		maxPageSize: sb.maxPageSize,
	};
	const result = m.route.handler(ctx);
	if (idemKey !== null) sb.idempotency.store(idemKey, idemRequest, result);
	return result;
}

function errorResult(err) {
	if (err instanceof ApiError)
		return { status: err.status, body: err.toBody(), headers: err.headers };
	return {
		status: 500,
		body: {
			error: { code: 'ERR_INTERNAL', message: `Internal sandbox error: ${err && err.message}` },
		},
		headers: {},
	};
}

function send(sb, res, entry, result, fault) {
	const raw = result.raw !== undefined ? result.raw : JSON.stringify(result.body);
	const buf = Buffer.from(raw, 'utf8');
	const headers = {
		'Content-Type': result.contentType || 'application/json',
		'Content-Length': buf.length,
		// the world's clock, not the machine's (Node's own Date header): the tests set it (test/clock.js)
		Date: new Date().toUTCString(),
		...(result.headers || {}),
	};
	entry.status = result.status;
	if (result.replayed) entry.replayed = true;
	const write = () => {
		if (res.destroyed || res.writableEnded) return;
		res.writeHead(result.status, headers);
		res.end(buf);
	};
	if (fault === 'slow') {
		const timer = setTimeout(() => {
			sb.timers.delete(timer);
			write();
		}, sb.faults.config.slowMs);
		sb.timers.add(timer);
		return;
	}
	if (fault === 'truncate') {
		res.writeHead(result.status, headers);
		res.write(buf.subarray(0, Math.floor(buf.length / 2)), () => res.destroy());
		return;
	}
	write();
}

async function handleRequest(sb, req, res) {
	const n = ++sb.counter;
	const rawUrl = (req.url || '/').split('#')[0];
	const qi = rawUrl.indexOf('?');
	const rawPath = qi < 0 ? rawUrl : rawUrl.slice(0, qi);
	const rawQuery = qi < 0 ? '' : rawUrl.slice(qi + 1);
	const contentType = req.headers['content-type'];
	const entry = {
		n,
		method: req.method,
		path: rawPath,
		rawQuery,
		query: queryObject(rawQuery),
		headers: { ...req.headers },
		contentType: parseContentType(contentType).type || undefined,
		rawBody: '',
		body: undefined,
		status: null,
		fault: undefined,
	};
	sb.requests.push(entry);
	const limited = admit(sb, req, res, entry);
	const { buffer, tooLarge } = await readBody(req);
	entry.rawBody = buffer.toString('utf8');
	const info = { rawPath, rawQuery, contentType, buffer, tooLarge, parsed: null, parseError: null };
	try {
		info.parsed = parseBody(contentType, buffer);
		entry.body = info.parsed.value;
	} catch (e) {
		info.parseError = e;
	}
	if (limited) return later(sb, () => send(sb, res, entry, limited));
	await sb.world.beforeRequest(entry);
	const fault = sb.faults.decide(n, rawPath);
	entry.fault = fault;
	if (fault && NOT_APPLIED.has(fault)) {
		if (fault === 'drop') {
			req.socket.destroy();
			return;
		}
		send(sb, res, entry, sb.faults.reply(fault));
		return;
	}
	let result;
	try {
		result = processRequest(sb, req, info);
	} catch (err) {
		result = errorResult(err);
	}
	sb.applied.record(req.method, rawPath, entry.rawBody, result);
	later(sb, () => send(sb, res, entry, result, fault));
}

/** Arrival and answer times; latency and rate limits (limits.js): counts the request in flight; the 429 to answer or null. */
function admit(sb, req, res, entry) {
	entry.receivedAt = performance.now();
	res.once('finish', () => {
		entry.answeredAt = performance.now();
	});
	if (!sb.limits.active) return null;
	let left = false;
	const leave = () => {
		if (!left) sb.limits.leave();
		left = true;
	};
	res.once('finish', leave);
	res.once('close', leave);
	return sb.limits.arrive(req.headers['x-service-key'], entry.receivedAt);
}

/** Runs `reply` after the configured latency. */
function later(sb, reply) {
	const ms = sb.limits.active ? sb.limits.delayMs() : 0;
	if (ms <= 0) return reply();
	const timer = setTimeout(() => {
		sb.timers.delete(timer);
		reply();
	}, ms);
	sb.timers.add(timer);
}

module.exports = { handleRequest, PREFIX };
