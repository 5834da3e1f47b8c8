'use strict';
// Route table and matching. Paths are split on '/' BEFORE percent-decoding, so an encoded
// '%2F' stays inside its segment (and then fails the id patterns -> 404).

const ID_RE = /^[a-zA-Z\d-]+$/;
const ORDER_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PARAM_PATTERNS = {
	subscription_id: ID_RE,
	customer_id: ID_RE,
	order_id: ORDER_ID_RE,
	milestone_id: ID_RE,
	plan_id: ID_RE,
};

function compile(routes) {
	return routes.map((r) => {
		const segments = r.path
			.split('/')
			.filter(Boolean)
			.map((s) =>
				s.startsWith(':')
					? { param: s.slice(1), re: PARAM_PATTERNS[s.slice(1)] || ID_RE }
					: { literal: s },
			);
		return { ...r, segments, literals: segments.filter((s) => s.literal).length };
	});
}

/** '/customers/abc' -> ['customers', 'abc'] (decoded), or null when undecodable / empty segments. */
function splitPath(relativePath) {
	if (!relativePath.startsWith('/')) return null;
	const raw = relativePath.slice(1).split('/');
	const out = [];
	for (const seg of raw) {
		if (seg === '') return null;
		try {
			out.push(decodeURIComponent(seg));
		} catch {
			return null;
		}
	}
	return out;
}

function matchSegments(route, segments) {
	if (route.segments.length !== segments.length) return null;
	const params = {};
	for (let i = 0; i < segments.length; i++) {
		const spec = route.segments[i];
		const value = segments[i];
		if (spec.literal !== undefined) {
			if (spec.literal !== value) return null;
		} else {
			if (!spec.re.test(value)) return null;
			params[spec.param] = value;
		}
	}
	return params;
}

/**
 * Returns { route, params } for a match, { allowed: [...] } when the path exists with other
 * methods, or null when no route has this path.
 */
function match(compiled, method, segments) {
	if (!segments) return null;
	let best = null;
	const allowed = new Set();
	for (const route of compiled) {
		const params = matchSegments(route, segments);
		if (!params) continue;
		if (route.method === method) {
			if (!best || route.literals > best.route.literals) best = { route, params };
		} else {
			allowed.add(route.method);
		}
	}
	if (best) return best;
	if (allowed.size) return { allowed: [...allowed] };
	return null;
}

module.exports = { compile, splitPath, match, ID_RE, ORDER_ID_RE };
