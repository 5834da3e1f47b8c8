'use strict';
// Sandbox of the Subscription Billing API v2: a real HTTP server on 127.0.0.1 with
// deterministic seeded state. Plain CommonJS, Node's `http` only.
//
//   const { startSandbox } = require('./test/sandbox');
//   const sb = await startSandbox({ seed: { bigCustomerInvoices: 1000 } });
//   fetch(`${sb.baseUrl}/customers`, { headers: { 'X-SERVICE-KEY': sb.apiKey } });
//   ... sb.requests, sb.state, sb.fixtures, sb.setFaults({ on: [3], kinds: ['429'] })
//   ... sb.setLimits({ latencyMs: 40, ratePerSecond: 100 }), sb.limits.stats(), sb.applied.doubled()
//   await sb.close();

const http = require('http');
const { buildState, normaliseSeedOptions, SEED_TODAY } = require('./seed');
const { Faults, FAULT_KINDS } = require('./faults');
const { IdempotencyStore } = require('./idempotency');
const { Limits } = require('./limits');
const { AppliedWrites } = require('./applied');
const { handleRequest, PREFIX } = require('./pipeline');
const { World } = require('./world');
const { DEPLOYMENTS, startDeployment } = require('./deployments');

const DEFAULT_API_KEY = 'sbx_test_key_5f2c9a1e7d3b4c6a8e0f';
const DEFAULT_ADMIN_TOKEN = 'sbx_world_admin_7c1e4b9a2d6f';

class Sandbox {
	constructor(options = {}) {
		this.host = options.host || '127.0.0.1';
		this.port = options.port === undefined ? 0 : Number(options.port);
		this.apiKey = options.apiKey || DEFAULT_API_KEY;
		/** Token of the test-only world routes (/__sandbox/world/...); never the API key. */
		this.adminToken = options.adminToken || DEFAULT_ADMIN_TOKEN;
		/** Test-only changes to the world: see world.js. */
		this.world = new World(this);
		this.seedOptions = normaliseSeedOptions(options.seed);
		this.faults = new Faults(options.faults || null);
		this.maxPageSize = options.maxPageSize === undefined ? undefined : Number(options.maxPageSize);
		/** The scheme links (`next`, `previous`) are written with: 'https' behind a TLS front (the HTTPS benchmark's relay). */
		this.linkScheme = options.linkScheme || 'http';
		this.idempotency = new IdempotencyStore();
		this.limits = new Limits(options.limits || null);
		this.applied = new AppliedWrites();
		/** One entry per received request, in order; requests[i].n === i + 1. */
		this.requests = [];
		this.counter = 0;
		this.timers = new Set();
		this.sockets = new Set();
		this._seed();
	}

	_seed() {
		const { state, fixtures } = buildState(this.seedOptions);
		this._state = state;
		this.fixtures = fixtures;
	}

	/** The live in-memory state (re-read after reset(): reset builds a new one). */
	get state() {
		return this._state;
	}

	/** Number of requests received since start / the last clearRequests() or reset(). */
	get requestCount() {
		return this.counter;
	}

	listen() {
		this.server = http.createServer((req, res) => {
			handleRequest(this, req, res).catch((err) => {
				if (!res.headersSent && !res.destroyed) {
					res.writeHead(500, { 'Content-Type': 'application/json' });
					res.end(
						JSON.stringify({
							error: { code: 'ERR_INTERNAL', message: String(err && err.message) },
						}),
					);
				}
			});
		});
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		this.server.on('clientError', (err, socket) => socket.destroy());
		return new Promise((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(this.port, this.host, () => {
				this.server.off('error', reject);
				const addr = this.server.address();
				this.port = addr.port;
				const host = this.host.includes(':') ? `[${this.host}]` : this.host;
				this.hostPort = `${host}:${addr.port}`;
				this.origin = `http://${this.hostPort}`;
				this.baseUrl = `${this.origin}${PREFIX}`;
				resolve(this);
			});
		});
	}

	/** Empties the request log and restarts request numbering at 1. */
	clearRequests() {
		this.requests.length = 0;
		this.counter = 0;
	}

	/** Re-seeds the state to its initial value, clears the request log, the idempotency store and the applied-write counts. */
	reset() {
		this._seed();
		this.clearRequests();
		this.idempotency.clear();
		this.applied.clear();
	}

	/** LimitsConfig (limits.js) or null (off). Restarts the buckets and the limit statistics. */
	setLimits(config) {
		this.limits.set(config || null);
	}

	/** FaultConfig or null (off). Restarts the fault PRNG. */
	setFaults(config) {
		this.faults.set(config || null);
	}

	close() {
		if (this._closing) return this._closing;
		this._closing = new Promise((resolve) => {
			for (const t of this.timers) clearTimeout(t);
			this.timers.clear();
			if (!this.server || !this.server.listening) return resolve();
			this.server.close(() => resolve());
			if (this.server.closeAllConnections) this.server.closeAllConnections();
			for (const s of this.sockets) s.destroy();
		});
		return this._closing;
	}
}

/** Starts a sandbox; resolves once it listens. See Sandbox for the returned object. */
async function startSandbox(options = {}) {
	const sandbox = new Sandbox(options);
	await sandbox.listen();
	return sandbox;
}

module.exports = {
	startSandbox,
	Sandbox,
	DEFAULT_API_KEY,
	DEFAULT_ADMIN_TOKEN,
	FAULT_KINDS,
	SEED_TODAY,
	DEPLOYMENTS,
	startDeployment,
};
