'use strict';
// X-SERVICE-IDEMPOTENT-OPERATION-KEY, the way payment APIs honour it: a write carrying the key is
// applied once. Keys are kept for the sandbox's lifetime (until reset()), across executions: a
// repeat with the same key and the same request (method, path, query and body, compared in a
// canonical form: query parameters and object keys sorted) replays the stored status and body
// (with header `Idempotent-Replayed: true`) without applying it again, however long after; the
// same key with a different request is a 400. Only successful (2xx) results are stored: a
// rejected request changed nothing, so a retry after a 4xx/5xx is processed again.

const { badRequest } = require('./errors');

const HEADER = 'x-service-idempotent-operation-key';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_KEY_LENGTH = 255;

function canonicalJson(value) {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value && typeof value === 'object') {
		return `{${Object.keys(value)
			.sort()
			.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
			.join(',')}}`;
	}
	return value === undefined ? '' : JSON.stringify(value);
}

const listed = (parts) =>
	parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;

/** Method, path, query (parameters sorted, repeats kept in order) and body (keys sorted). */
function canonicalRequest({ method, path, searchParams, body }) {
	const query = [...searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return { method, path, query: JSON.stringify(query), body: canonicalJson(body) };
}

class IdempotencyStore {
	constructor() {
		this.entries = new Map();
	}

	clear() {
		this.entries.clear();
	}

	/** Returns the key of a write request (validated) or null. */
	keyOf(req) {
		if (!WRITE_METHODS.has(req.method)) return null;
		const key = req.headers[HEADER];
		if (key === undefined) return null;
		if (Array.isArray(key))
			throw badRequest('X-SERVICE-IDEMPOTENT-OPERATION-KEY: Give the header once.');
		if (key.trim() === '')
			throw badRequest('X-SERVICE-IDEMPOTENT-OPERATION-KEY: This header may not be blank.');
		if (key.length > MAX_KEY_LENGTH) {
			throw badRequest(
				`X-SERVICE-IDEMPOTENT-OPERATION-KEY: Ensure this header has no more than ${MAX_KEY_LENGTH} characters.`,
			);
		}
		return key;
	}

	/**
	 * Stored reply to replay, or null. `request` is { method, path, searchParams, body }.
	 * The same key with a different request is refused, naming what differs.
	 */
	replay(key, request) {
		const hit = this.entries.get(key);
		if (!hit) return null;
		const now = canonicalRequest(request);
		const differs = ['method', 'path', 'query', 'body'].filter(
			(part) => hit.request[part] !== now[part],
		);
		if (differs.length > 0) {
			throw badRequest(
				`X-SERVICE-IDEMPOTENT-OPERATION-KEY: This key was already used for a different request (${hit.request.method} ${hit.request.path}; ` +
					`the ${listed(differs)} differ${differs.length === 1 ? 's' : ''}). Send a new key for a new write.`,
			);
		}
		return {
			status: hit.status,
			raw: hit.raw,
			contentType: hit.contentType,
			headers: { ...hit.headers, 'Idempotent-Replayed': 'true' },
			replayed: true,
		};
	}

	store(key, request, result) {
		if (result.status < 200 || result.status >= 300) return;
		const raw = result.raw !== undefined ? result.raw : JSON.stringify(result.body);
		this.entries.set(key, {
			request: canonicalRequest(request),
			status: result.status,
			raw,
			contentType: result.contentType || 'application/json',
			headers: result.headers || {},
		});
	}
}

module.exports = { IdempotencyStore };
