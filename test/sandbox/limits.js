'use strict';
// What a real API in front of the billing service does to traffic: latency, a rate limit per API
// key and a cap on requests in flight. Off unless configured.
//
// LimitsConfig { latencyMs?, jitterMs?, ratePerSecond?, burst?, maxInFlight?, seed? }
// - latencyMs + a uniform 0..jitterMs (seeded PRNG): every answer (429s included) is sent that
//   long after the request arrived, as a network round trip plus server time would.
// - ratePerSecond / burst: a token bucket per API key (X-SERVICE-KEY as sent), holding up to
//   `burst` tokens (default: one second's worth) and refilled continuously at ratePerSecond. A
//   request that finds no token is answered 429 ERR_RATE_LIMITED with Retry-After: the whole
//   seconds until a token is there (at least 1: the header only has whole seconds).
// - maxInFlight: requests received but not yet answered, over all keys. One more is answered at
//   once with 429 ERR_TOO_MANY_CONCURRENT_REQUESTS and Retry-After: 1, as gateways do
//   (nginx limit_conn with limit_conn_status 429, Envoy's local rate limit): they reject, not queue.
// Neither kind of 429 reaches the service: nothing is applied.
// Stats: inFlight, maxInFlightSeen, limited (429s sent by the bucket), rejectedInFlight.

const { Rng } = require('./prng');

function normalise(config) {
	const c = config || {};
	const number = (name, fallback) => {
		const value = c[name] === undefined ? fallback : Number(c[name]);
		if (!(value >= 0) || !Number.isFinite(value))
			throw new Error(`limits.${name} must be a number of at least 0`);
		return value;
	};
	const ratePerSecond = number('ratePerSecond', 0);
	return {
		latencyMs: number('latencyMs', 0),
		jitterMs: number('jitterMs', 0),
		ratePerSecond,
		burst: Math.max(1, number('burst', ratePerSecond)),
		maxInFlight: Math.floor(number('maxInFlight', 0)),
		seed: c.seed === undefined ? 1 : c.seed,
	};
}

class Limits {
	constructor(config) {
		this.set(config);
	}

	/** New settings; restarts the buckets, the jitter PRNG and the statistics. */
	set(config) {
		this.config = normalise(config);
		this.rng = new Rng(this.config.seed, 'latency');
		this.buckets = new Map();
		this.inFlight = 0;
		this.maxInFlightSeen = 0;
		this.limited = 0;
		this.rejectedInFlight = 0;
	}

	get active() {
		const c = this.config;
		return c.latencyMs > 0 || c.jitterMs > 0 || c.ratePerSecond > 0 || c.maxInFlight > 0;
	}

	/** How long to hold the answer to one request, in ms. */
	delayMs() {
		const { latencyMs, jitterMs } = this.config;
		return latencyMs + (jitterMs > 0 ? this.rng.next() * jitterMs : 0);
	}

	/** A request arrived: counts it in flight; returns the 429 to answer with, or null. */
	arrive(apiKey, now = performance.now()) {
		this.inFlight++;
		this.maxInFlightSeen = Math.max(this.maxInFlightSeen, this.inFlight);
		const { maxInFlight, ratePerSecond, burst } = this.config;
		if (maxInFlight > 0 && this.inFlight > maxInFlight) {
			this.rejectedInFlight++;
			return tooMany(
				'ERR_TOO_MANY_CONCURRENT_REQUESTS',
				`More than ${maxInFlight} requests in flight. Retry after the delay given in Retry-After.`,
				1,
			);
		}
		if (ratePerSecond <= 0) return null;
		const key = String(apiKey ?? '');
		const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
		bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * ratePerSecond);
		bucket.at = now;
		this.buckets.set(key, bucket);
		if (bucket.tokens >= 1) {
			bucket.tokens -= 1;
			return null;
		}
		this.limited++;
		const seconds = Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond));
		return tooMany(
			'ERR_RATE_LIMITED',
			'Too many requests. Retry after the delay given in Retry-After.',
			seconds,
		);
	}

	/** The answer to a request counted by arrive() was sent (or its connection closed). */
	leave() {
		this.inFlight = Math.max(0, this.inFlight - 1);
	}

	stats() {
		const { inFlight, maxInFlightSeen, limited, rejectedInFlight } = this;
		return { inFlight, maxInFlightSeen, limited, rejectedInFlight };
	}
}

function tooMany(code, message, retryAfterSeconds) {
	return {
		status: 429,
		body: { error: { code, message } },
		headers: { 'Retry-After': String(retryAfterSeconds) },
	};
}

module.exports = { Limits };
