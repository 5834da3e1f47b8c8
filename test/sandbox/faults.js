'use strict';
// Fault injection: decides, per request, whether and which fault to inject, and plays it.
//
// FaultConfig { rate?, on?, kinds?, seed?, retryAfterSeconds?, slowMs?, onlyPaths? }
// - `on`: request numbers n (1-based, as in sandbox.requests[i].n) that get a fault.
//   When `kinds` has the same length as `on`, the i-th listed request gets the i-th kind;
//   otherwise the kind is picked among `kinds` with the seeded PRNG.
// - `rate`: every other eligible request gets a fault with this probability (seeded PRNG).
// - `onlyPaths`: only requests whose pathname matches are eligible.
// - default kinds: the seven transient ones (429, 500, 502, 503, drop, slow, truncate).
// Kinds: 429/500/502/503/drop are NOT applied; slow/truncate ARE applied.
// Extra kinds, only when listed in `kinds` (all NOT applied): answers the contract does not
// describe but an API or a proxy in front of it can give: 403, 409, 422, 504 (JSON error bodies
// with an error_id), 'html' (200 with an HTML page instead of JSON, as from a captive portal or a
// misrouted proxy) and 'empty' (500 with an empty body).

const { Rng } = require('./prng');

const DEFAULT_FAULT_KINDS = ['429', '500', '502', '503', 'drop', 'slow', 'truncate'];
const EXTRA_FAULT_KINDS = ['403', '409', '422', '504', 'html', 'empty'];
const FAULT_KINDS = [...DEFAULT_FAULT_KINDS, ...EXTRA_FAULT_KINDS];
const NOT_APPLIED = new Set(['429', '500', '502', '503', 'drop', ...EXTRA_FAULT_KINDS]);

function normalise(config) {
	if (!config) return null;
	const kinds = (config.kinds && config.kinds.length ? config.kinds : DEFAULT_FAULT_KINDS).map(
		String,
	);
	for (const k of kinds)
		if (!FAULT_KINDS.includes(k))
			throw new Error(`Unknown fault kind '${k}'. Known: ${FAULT_KINDS.join(', ')}`);
	const rate = config.rate === undefined ? 0 : Number(config.rate);
	if (!(rate >= 0 && rate <= 1)) throw new Error('faults.rate must be a number between 0 and 1');
	if (config.onlyPaths !== undefined && !(config.onlyPaths instanceof RegExp))
		throw new Error('faults.onlyPaths must be a RegExp');
	return {
		rate,
		on: Array.isArray(config.on) ? config.on.map(Number) : null,
		kinds,
		seed: config.seed === undefined ? 1 : config.seed,
		retryAfterSeconds: config.retryAfterSeconds === undefined ? 1 : config.retryAfterSeconds,
		slowMs: config.slowMs === undefined ? 5000 : Number(config.slowMs),
		onlyPaths: config.onlyPaths || null,
	};
}

class Faults {
	constructor(config) {
		this.set(config);
	}

	set(config) {
		this.config = normalise(config);
		this.rng = this.config ? new Rng(this.config.seed, 'faults') : null;
		// Separate stream for error ids, so injecting an extra kind never shifts the fault decisions.
		this.ids = this.config ? new Rng(this.config.seed, 'fault-error-ids') : null;
	}

	/** Returns the fault kind for request number n on `path`, or undefined. */
	decide(n, path) {
		const c = this.config;
		if (!c) return undefined;
		if (c.onlyPaths) {
			c.onlyPaths.lastIndex = 0;
			if (!c.onlyPaths.test(path)) return undefined;
		}
		if (c.on) {
			const i = c.on.indexOf(n);
			if (i >= 0) return c.kinds.length === c.on.length ? c.kinds[i] : this.rng.pick(c.kinds);
		}
		if (c.rate > 0 && this.rng.next() < c.rate) return this.rng.pick(c.kinds);
		return undefined;
	}

	/** Reply for a fault that is not applied (429/5xx and the extra kinds); null for 'drop'. */
	reply(kind) {
		const retryAfter = { 'Retry-After': String(this.config.retryAfterSeconds) };
		const error = (status, code, message) => ({
			status,
			body: { error: { code, message, error_id: this.ids.uuid() } },
			headers: {},
		});
		switch (kind) {
			case '403':
				return error(
					403,
					'ERR_FORBIDDEN',
					'This API key may not perform this operation (injected fault).',
				);
			case '409':
				return error(
					409,
					'ERR_CONFLICT',
					'The resource was changed by another request (injected fault).',
				);
			case '422':
				return error(
					422,
					'ERR_UNPROCESSABLE',
					'The request is well-formed but cannot be processed (injected fault).',
				);
			case '504':
				return error(
					504,
					'ERR_GATEWAY_TIMEOUT',
					'The upstream service did not answer in time (injected fault).',
				);
			case 'html':
				return {
					status: 200,
					raw: '<!doctype html><html><body><h1>Please sign in to the network</h1></body></html>',
					contentType: 'text/html',
					headers: {},
				};
			case 'empty':
				return { status: 500, raw: '', contentType: 'text/plain', headers: {} };
			case '429':
				return {
					status: 429,
					body: {
						error: {
							code: 'ERR_RATE_LIMITED',
							message: 'Too many requests. Retry after the delay given in Retry-After.',
						},
					},
					headers: retryAfter,
				};
			case '500':
				return {
					status: 500,
					body: {
						error: { code: 'ERR_INTERNAL', message: 'Internal server error (injected fault).' },
					},
					headers: {},
				};
			case '502':
				return {
					status: 502,
					raw: '<html>Bad Gateway</html>',
					contentType: 'text/html',
					headers: {},
				};
			case '503':
				return {
					status: 503,
					body: {
						error: {
							code: 'ERR_SERVICE_UNAVAILABLE',
							message: 'Service temporarily unavailable (injected fault).',
						},
					},
					headers: retryAfter,
				};
			default:
				return null;
		}
	}
}

module.exports = { Faults, FAULT_KINDS, DEFAULT_FAULT_KINDS, EXTRA_FAULT_KINDS, NOT_APPLIED };
