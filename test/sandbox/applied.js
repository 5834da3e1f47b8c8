'use strict';
// Counts how often each write was applied, so tests can assert "applied once". A write is named
// by its identity: method, path and body exactly as received. A replay of an idempotency key and
// an answer other than 2xx are not applications.

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

class AppliedWrites {
	constructor() {
		this.counts = new Map();
	}

	clear() {
		this.counts.clear();
	}

	record(method, path, rawBody, result) {
		if (
			!WRITE_METHODS.has(method) ||
			result.replayed ||
			result.status < 200 ||
			result.status >= 300
		)
			return;
		const identity = `${method} ${path} ${rawBody}`;
		this.counts.set(identity, (this.counts.get(identity) ?? 0) + 1);
	}

	/** Writes applied (distinct identities). */
	get distinct() {
		return this.counts.size;
	}

	/** Identities applied more than once, with their counts. */
	doubled() {
		return [...this.counts]
			.filter(([, count]) => count > 1)
			.map(([identity, count]) => ({ identity, count }));
	}
}

module.exports = { AppliedWrites };
