'use strict';
// X-SERVICE-IDEMPOTENT-OPERATION-KEY: a write carrying the key is applied once. A repeat with
// the same key and the same method + path replays the stored status and body (with header
// `Idempotent-Replayed: true`) without applying it again; the same key on another method or
// path is a 400. Only successful (2xx) results are stored: a rejected request changed nothing,
// so a retry after a 4xx/5xx is processed again.

const { badRequest } = require('./errors');

const HEADER = 'x-service-idempotent-operation-key';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_KEY_LENGTH = 255;

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
    if (Array.isArray(key)) throw badRequest('X-SERVICE-IDEMPOTENT-OPERATION-KEY: Give the header once.');
    if (key.trim() === '') throw badRequest('X-SERVICE-IDEMPOTENT-OPERATION-KEY: This header may not be blank.');
    if (key.length > MAX_KEY_LENGTH) {
      throw badRequest(`X-SERVICE-IDEMPOTENT-OPERATION-KEY: Ensure this header has no more than ${MAX_KEY_LENGTH} characters.`);
    }
    return key;
  }

  /** Stored reply to replay, or null. */
  replay(key, method, path) {
    const hit = this.entries.get(key);
    if (!hit) return null;
    if (hit.method !== method || hit.path !== path) {
      throw badRequest(`X-SERVICE-IDEMPOTENT-OPERATION-KEY: This key was already used for a different request (${hit.method} ${hit.path}).`);
    }
    return { status: hit.status, raw: hit.raw, contentType: hit.contentType, headers: { ...hit.headers, 'Idempotent-Replayed': 'true' }, replayed: true };
  }

  store(key, method, path, result) {
    if (result.status < 200 || result.status >= 300) return;
    const raw = result.raw !== undefined ? result.raw : JSON.stringify(result.body);
    this.entries.set(key, { method, path, status: result.status, raw, contentType: result.contentType || 'application/json', headers: result.headers || {} });
  }
}

module.exports = { IdempotencyStore };
