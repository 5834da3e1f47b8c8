'use strict';
// One measured run of one scenario one way, in a fresh process forked by bench/run.js (with
// --expose-gc). Protocol: load + warm up -> send {type:'ready'} -> wait for {type:'go'} (the
// orchestrator resets the sandbox counters meanwhile) -> gc, reset the peak-RSS mark, run, send
// {type:'result'} while still holding the run's results -> exit.
//
// Job (JSON in BENCH_JOB): { scenario: 'list' | 'limit' | 'write' | 'limited-write' | 'load', way:
// 'node' | 'nodeSequential' (lists: Max Concurrent Requests 1) | 'httpRequest' | 'httpRequestRetry' | 'loop', target: {baseUrl, apiKey, customerId,
// smallCustomerId, invoices}, warmTarget (limited-write: warm up there, not on the limited API),
// limit, items, mode: {batchSize, batchInterval} | {concurrency}, nodesBase, profile }
//
// limited-write: every n8n way with its defaults (no batching; this node's request budget as it
// comes; the HTTP Request node without an idempotency header, as a user would set it up;
// httpRequestRetry: the same with the node setting Retry On Fail, n8n's 3 tries 1 s apart). A failed
// execution counts all its items as failed: the node's output is lost.

const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const path = require('node:path');

const job = JSON.parse(process.env.BENCH_JOB);
const ROOT = path.resolve(__dirname, '..', '..');
// the package as built by bench/run.js from the current sources (a snapshot: others may rebuild
// the repo's own dist/ while the bench runs)
const PKG = path.join(ROOT, 'bench', 'dist', 'pkg');
const PAGE_SIZE = 1000;

// ---- memory -------------------------------------------------------------------------------
function statusKb(field) {
	const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync('/proc/self/status', 'utf8'));
	return m ? Number(m[1]) : NaN;
}
/** Resets VmHWM (peak RSS) to the current RSS (Linux >= 4.0); false if not allowed. */
function resetPeak() {
	try {
		fs.writeFileSync('/proc/self/clear_refs', '5');
		return true;
	} catch {
		return false;
	}
}
/** JavaScript heap in use plus memory outside it (Buffers): after a full gc, what is live. */
function liveBytes() {
	const { heapUsed, external } = process.memoryUsage();
	return heapUsed + external;
}
/** Fallback when VmHWM cannot be reset: sample RSS every 5 ms. */
function sampler() {
	let peak = process.memoryUsage().rss;
	const timer = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage().rss);
	}, 5);
	return () => {
		clearInterval(timer);
		return Math.max(peak, process.memoryUsage().rss);
	};
}

// ---- the three ways -----------------------------------------------------------------------
let harness;
let billing;
let httpRequestNode;

/** nodeSequential: this node with Max Concurrent Requests = 1, a list read one page at a time. */
const isNode = () => job.way === 'node' || job.way === 'nodeSequential';

/**
 * BENCH_WHATIF_KEEPALIVE=1, a study (bench/FINDINGS.md): n8n-core's HTTP helpers given one
 * keep-alive agent per process instead of the new agent n8n-core builds for every request.
 */
function keepConnectionsAlive() {
	const axios = require(require.resolve('axios', { paths: [require.resolve('n8n-core')] }));
	const agents = {
		http: new http.Agent({ keepAlive: true }),
		https: new https.Agent({ keepAlive: true }),
	};
	axios.interceptors.request.use((config) => {
		config.httpAgent = agents.http;
		config.httpsAgent = agents.https;
		return config;
	});
}

function loadN8n() {
	if (process.env.BENCH_WHATIF_KEEPALIVE === '1') keepConnectionsAlive();
	harness = require(path.join(PKG, 'dist', 'test', 'harness', 'index.cjs'));
	if (isNode()) {
		const { SubscriptionBilling } = require(
			path.join(PKG, 'dist', 'nodes', 'SubscriptionBilling', 'SubscriptionBilling.node.js'),
		);
		const { SubscriptionBillingApi } = require(
			path.join(PKG, 'dist', 'credentials', 'SubscriptionBillingApi.credentials.js'),
		);
		billing = { nodeType: new SubscriptionBilling(), credentialType: new SubscriptionBillingApi() };
	} else if (job.way !== 'floor') {
		const lib = require('./n8n-nodes-base');
		httpRequestNode = lib.loadHttpRequestNode(job.nodesBase);
		const copies = lib.n8nWorkflowCopies();
		if (copies.length !== 1)
			throw new Error(`n8n-workflow loaded more than once: ${copies.join(', ')}`);
	}
}

function runBilling(target, parameters, items) {
	return harness.runNode({
		nodeType: billing.nodeType,
		credentialType: billing.credentialType,
		credentials: {
			apiKey: target.apiKey,
			environment: 'production',
			productionBaseUrl: target.baseUrl,
		},
		parameters,
		items,
	});
}

function runHttpRequest(parameters, items) {
	if (job.way === 'httpRequestRetry') return runHttpRequestRetrying(parameters, items);
	return harness.runNode({ nodeType: httpRequestNode, typeVersion: 4.4, parameters, items });
}

/** Start -> HTTP Request with the node setting Retry On Fail (n8n's defaults: 3 tries, 1000 ms apart). */
async function runHttpRequestRetrying(parameters, items) {
	const start = {
		id: 'start',
		name: 'Start',
		type: harness.START_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const node = {
		id: 'http',
		name: 'HTTP Request',
		type: 'httpRequest',
		typeVersion: 4.4,
		position: [200, 0],
		parameters,
		retryOnFail: true,
	};
	const result = await harness.runWorkflow({
		nodeTypes: [httpRequestNode],
		workflow: {
			nodes: [start, node],
			connections: { Start: { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] } },
		},
		startItems: items,
	});
	return {
		items: result.outputOf('HTTP Request'),
		error: result.errorOf('HTTP Request') ?? result.run.data.resultData.error,
		run: result.run,
	};
}

function checked(run, expectedItems) {
	if (run.error) throw new Error(`run failed: ${run.error.message} ${run.error.description ?? ''}`);
	if (expectedItems !== undefined && run.items.length !== expectedItems) {
		throw new Error(`expected ${expectedItems} output items, got ${run.items.length}`);
	}
	return run;
}

// A keep-alive agent per process, as a hand-written client would keep one (HTTPS for an https:// API).
const clientOf = (url) => (String(url).startsWith('https:') ? https : http);
function loopAgent(maxSockets, url = job.target.baseUrl) {
	return new (clientOf(url).Agent)({ keepAlive: true, maxSockets: maxSockets ?? Infinity });
}
/** Resolves with the parsed answer; rejects on 400 or more (`error.status`, `error.retryAfter` set). */
function request(agent, url, { method = 'GET', headers = {}, body } = {}) {
	return new Promise((resolve, reject) => {
		const req = clientOf(url).request(url, { method, agent, headers }, (res) => {
			const chunks = [];
			res.on('data', (c) => chunks.push(c));
			res.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				if (res.statusCode >= 400) {
					const error = new Error(`${method} ${url}: ${res.statusCode} ${text.slice(0, 200)}`);
					error.status = res.statusCode;
					error.retryAfter = Number(res.headers['retry-after']);
					return reject(error);
				}
				resolve(JSON.parse(text));
			});
			res.on('error', reject);
		});
		req.on('error', reject);
		if (body !== undefined) req.end(body);
		else req.end();
	});
}

/** limited-write: n items, each PATCH /usage, every way with its defaults; items that failed are counted, not thrown. */
async function limitedWrite(target, n, tag) {
	const items = writeItems(n, tag);
	let run;
	if (job.way === 'loop') return limitedWriteLoop(target, items);
	if (job.way === 'node') {
		const parameters = {
			resource: 'usage',
			operation: 'update',
			transactionId: '={{ $json.transaction_id }}',
			value: '={{ $json.value }}',
		};
		if (job.maxConcurrent !== undefined)
			parameters.faultHandling = { maxConcurrentRequests: job.maxConcurrent };
		run = await runBilling(target, parameters, items);
	} else {
		const parameters = usageUpdateRequest(target, [], {});
		run = await runHttpRequest(parameters, items);
	}
	const failed = run.error
		? n
		: run.items.filter((item) => item.json.error !== undefined || item.error !== undefined).length;
	return {
		held: run,
		count: n,
		failed,
		error: run.error ? String(run.error.message).slice(0, 160) : undefined,
	};
}

/**
 * limited-write, loop: LOOP_WRITERS requests in flight on keep-alive connections, each write with an
 * idempotency key; a 429 waits its Retry-After (1 s without one) and is sent again.
 */
const LOOP_WRITERS = 16;
async function limitedWriteLoop(target, items) {
	const agent = loopAgent(LOOP_WRITERS, target.baseUrl);
	const url = `${target.baseUrl}/usage`;
	const results = new Array(items.length);
	let next = 0;
	let failed = 0;
	const one = async (i) => {
		for (;;) {
			try {
				results[i] = await request(agent, url, {
					method: 'PATCH',
					headers: {
						'X-SERVICE-KEY': target.apiKey,
						'X-SERVICE-IDEMPOTENT-OPERATION-KEY': items[i].idem,
						'Content-Type': 'application/json',
						Accept: 'application/json',
					},
					body: JSON.stringify({ transaction_id: items[i].transaction_id, value: items[i].value }),
				});
				return;
			} catch (error) {
				if (error.status !== 429) {
					failed++;
					return;
				}
				await new Promise((resolve) =>
					setTimeout(resolve, (Number.isFinite(error.retryAfter) ? error.retryAfter : 1) * 1000),
				);
			}
		}
	};
	await Promise.all(
		Array.from({ length: LOOP_WRITERS }, async () => {
			while (next < items.length) await one(next++);
		}),
	);
	agent.destroy();
	return { held: results, count: items.length, failed };
}

// ---- scenarios ----------------------------------------------------------------------------
const listUrl = (target, customerId, limit) =>
	`${target.baseUrl}/customers/${customerId}/invoices?limit=${limit}`;

/** Return All (limit undefined) or the first `limit` invoices of customerId. */
/** The HTTP Request node's parameters for sending the key (and one more header) as plain headers. */
function plainHeaders(target, ...extraHeaders) {
	return {
		authentication: 'none',
		sendHeaders: true,
		specifyHeaders: 'keypair',
		headerParameters: {
			parameters: [{ name: 'X-SERVICE-KEY', value: target.apiKey }, ...extraHeaders],
		},
	};
}

/** The HTTP Request node's parameters for PATCH /usage from each item's transaction_id and value. */
function usageUpdateRequest(target, extraHeaders, options) {
	return {
		method: 'PATCH',
		url: `${target.baseUrl}/usage`,
		...plainHeaders(target, ...extraHeaders),
		sendBody: true,
		contentType: 'json',
		specifyBody: 'keypair',
		bodyParameters: {
			parameters: [
				{ name: 'transaction_id', value: '={{ $json.transaction_id }}' },
				{ name: 'value', value: '={{ $json.value }}' },
			],
		},
		options,
	};
}

async function list(target, customerId, limit, expected) {
	if (isNode()) {
		const parameters = {
			resource: 'invoice',
			operation: 'getManyForCustomer',
			customerId,
			invoiceOutput: 'raw',
		}; // Raw, as the other ways hold what the API sent (the parameter is named invoiceOutput since node version 2)
		if (job.way === 'nodeSequential') parameters.faultHandling = { maxConcurrentRequests: 1 };
		Object.assign(
			parameters,
			limit === undefined ? { returnAll: true } : { returnAll: false, limit },
		);
		const run = checked(await runBilling(target, parameters), expected);
		return { held: run, count: run.items.length };
	}
	if (job.way === 'httpRequest') {
		const parameters = {
			method: 'GET',
			url: listUrl(target, customerId, limit ?? PAGE_SIZE),
			...plainHeaders(target, { name: 'Accept', value: 'application/json' }),
			options:
				limit === undefined
					? {
							pagination: {
								pagination: {
									paginationMode: 'responseContainsNextURL',
									nextURL: '={{ $response.body.next }}',
									paginationCompleteWhen: 'other',
									completeExpression: '={{ $response.body.next === null }}',
								},
							},
						}
					: {},
		};
		const run = checked(await runHttpRequest(parameters));
		// one output item per page: the API's envelope {count, next, results}
		const count = run.items.reduce((n, item) => n + item.json.results.length, 0);
		if (expected !== undefined && count !== expected)
			throw new Error(`expected ${expected} invoices, got ${count}`);
		return { held: run, count };
	}
	// plain loop: same pages, same JSON parse, all invoices held in one array
	const agent = loopAgent(undefined, target.baseUrl);
	const headers = { 'X-SERVICE-KEY': target.apiKey, Accept: 'application/json' };
	const results = [];
	let url = listUrl(
		target,
		customerId,
		limit === undefined ? PAGE_SIZE : Math.min(limit, PAGE_SIZE),
	);
	while (url) {
		const page = await request(agent, url, { headers });
		for (const r of page.results) {
			if (limit !== undefined && results.length >= limit) break;
			results.push(r);
		}
		url = limit !== undefined && results.length >= limit ? null : page.next;
	}
	agent.destroy();
	if (expected !== undefined && results.length !== expected)
		throw new Error(`expected ${expected} invoices, got ${results.length}`);
	return { held: results, count: results.length };
}

function writeItems(n, tag) {
	const items = new Array(n);
	for (let i = 0; i < n; i++) {
		items[i] = {
			transaction_id: `bench-usage-${i}`,
			value: tag + (i % 1000),
			idem: `bench-${tag}-${i}`,
		};
	}
	return items;
}

/** n input items, each one PATCH /usage. */
async function write(target, n, mode, tag) {
	const items = writeItems(n, tag);
	const batching =
		mode.batchSize !== undefined
			? { batching: { batch: { batchSize: mode.batchSize, batchInterval: mode.batchInterval } } }
			: undefined;
	if (job.way === 'node') {
		const parameters = {
			resource: 'usage',
			operation: 'update',
			transactionId: `={{ $json.transaction_id }}`,
			value: '={{ $json.value }}',
			...(batching && { requestOptions: batching }),
		};
		const run = checked(await runBilling(target, parameters, items), n);
		return { held: run, count: run.items.length };
	}
	if (job.way === 'floor') {
		const parameters = {
			operation: 'update',
			transactionId: `={{ $json.transaction_id }}`,
			value: '={{ $json.value }}',
			idempotencyKey: '={{ $json.idem }}',
			...(batching && { requestOptions: batching }),
		};
		const nodeType = require('./floor-node').floorNode(target);
		const run = checked(await harness.runNode({ nodeType, parameters, items }), n);
		return { held: run, count: run.items.length };
	}
	if (job.way === 'httpRequest' || job.way === 'httpRequestRetry') {
		const parameters = usageUpdateRequest(
			target,
			[{ name: 'X-SERVICE-IDEMPOTENT-OPERATION-KEY', value: '={{ $json.idem }}' }],
			batching ?? {},
		);
		const run = checked(await runHttpRequest(parameters, items), n);
		if (run.items[0].json.message === undefined)
			throw new Error(`unexpected response ${JSON.stringify(run.items[0].json)}`);
		return { held: run, count: run.items.length };
	}
	// plain loop: `concurrency` requests in flight on a keep-alive agent; 'all': every item's request
	// started at once, as n8n does without batching, queued by the agent on `maxSockets` sockets
	// (10,000 simultaneous connections overflow the server's listen backlog: ECONNRESET)
	const all = mode.concurrency === 'all';
	const agent = loopAgent(all ? (mode.maxSockets ?? 64) : mode.concurrency, target.baseUrl);
	const url = `${target.baseUrl}/usage`;
	const results = new Array(n);
	const one = (i) =>
		request(agent, url, {
			method: 'PATCH',
			headers: {
				'X-SERVICE-KEY': target.apiKey,
				'X-SERVICE-IDEMPOTENT-OPERATION-KEY': items[i].idem,
				'Content-Type': 'application/json',
				Accept: 'application/json',
			},
			body: JSON.stringify({ transaction_id: items[i].transaction_id, value: items[i].value }),
		}).then((body) => {
			results[i] = body;
		});
	if (all) {
		await Promise.all(items.map((_, i) => one(i)));
	} else {
		let next = 0;
		const worker = async () => {
			while (next < n) await one(next++);
		};
		await Promise.all(Array.from({ length: Math.min(mode.concurrency, n) }, worker));
	}
	agent.destroy();
	return { held: { items, results }, count: results.length };
}

/** Loading the package as n8n does (PackageDirectoryLoader over the built package). */
async function load() {
	if (job.way === 'node') {
		const { PackageDirectoryLoader } = require('n8n-core');
		const loader = new PackageDirectoryLoader(process.env.BENCH_PACKAGE_DIR || PKG); // BENCH_PACKAGE_DIR=$PWD after npm run build: the repo root
		await loader.loadAll();
		const nodes = Object.keys(loader.nodeTypes).length;
		const credentials = Object.keys(loader.credentialTypes).length;
		const declared = require(path.join(process.env.BENCH_PACKAGE_DIR || PKG, 'package.json')).n8n;
		if (nodes !== declared.nodes.length || credentials !== declared.credentials.length) {
			throw new Error(
				`loaded ${nodes} nodes / ${credentials} credentials, the package declares ${declared.nodes.length} / ${declared.credentials.length}`,
			);
		}
		return { held: loader, count: nodes + credentials };
	}
	if (job.way === 'httpRequest') {
		const node = require('./n8n-nodes-base').loadHttpRequestNode(job.nodesBase);
		return { held: node, count: 1 };
	}
	return { held: null, count: 0 };
}

// ---- main ---------------------------------------------------------------------------------
function measured() {
	const t = job.target;
	switch (job.scenario) {
		case 'list':
			return list(t, t.customerId, undefined, t.invoices);
		case 'limit':
			return list(t, t.customerId, job.limit, job.limit);
		case 'write':
			return write(t, job.items, job.mode, 1000 + Math.floor(Math.random() * 1e6));
		case 'limited-write':
			return limitedWrite(t, job.items, 1000 + Math.floor(Math.random() * 1e6));
		case 'load':
			return load();
		default:
			throw new Error(`unknown scenario ${job.scenario}`);
	}
}

async function warmUp() {
	const t = job.target;
	if (job.scenario === 'load') {
		require('n8n-core'); // n8n has it loaded long before it loads community packages
		return;
	}
	if (job.way !== 'loop') loadN8n();
	if (job.scenario === 'limited-write') {
		const way = job.way;
		job.way = way === 'httpRequestRetry' ? 'httpRequest' : way; // warm the same code, without the limit
		const mode = way === 'loop' ? { concurrency: LOOP_WRITERS } : {};
		await write(job.warmTarget, 100, mode, 1);
		await write(job.warmTarget, 100, mode, 2);
		job.way = way;
	} else if (job.scenario === 'write') {
		// warm the same code; a long interval (write-paced) is warmed at 1 ms
		const warmMode = job.mode.batchInterval > 1 ? { ...job.mode, batchInterval: 1 } : job.mode;
		await write(t, 100, warmMode, 1);
		await write(t, 100, warmMode, 2);
	} else {
		// the same way, paging through a small customer's list (one page), twice
		await list(t, t.smallCustomerId, undefined, undefined);
		await list(t, t.smallCustomerId, undefined, undefined);
	}
}

let profiler;
async function startProfile() {
	if (!job.profile) return;
	const inspector = require('node:inspector');
	profiler = new inspector.Session();
	profiler.connect();
	const post = (m, p) =>
		new Promise((res, rej) => profiler.post(m, p, (e, r) => (e ? rej(e) : res(r))));
	await post('Profiler.enable');
	await post('Profiler.setSamplingInterval', { interval: 200 });
	await post('Profiler.start');
	profiler.postAsync = post;
}
async function stopProfile() {
	if (!profiler) return;
	const { profile } = await profiler.postAsync('Profiler.stop');
	fs.writeFileSync(job.profile, JSON.stringify(profile));
	profiler.disconnect();
}

async function main() {
	await warmUp();
	process.send({ type: 'ready' });
	await new Promise((resolve) => process.once('message', resolve));

	global.gc();
	global.gc();
	const canReset = resetPeak();
	const baseRss = process.memoryUsage().rss;
	const baseLive = liveBytes();
	const stopSampling = canReset ? null : sampler();
	await startProfile();
	const cpu0 = process.cpuUsage();
	const t0 = process.hrtime.bigint();
	const outcome = await measured();
	const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
	const cpu = process.cpuUsage(cpu0);
	const peakRss = canReset ? statusKb('VmHWM') * 1024 : stopSampling();
	await stopProfile();
	// what the run's results hold, whenever the garbage around them is collected
	global.gc();
	global.gc();
	const heldBytes = liveBytes() - baseLive;
	const result = {
		type: 'result',
		wallMs,
		cpuMs: (cpu.user + cpu.system) / 1000,
		count: outcome.count,
		failed: outcome.failed,
		error: outcome.error,
		baseRssMb: baseRss / 1048576,
		peakRssMb: peakRss / 1048576,
		peakMethod: canReset ? 'VmHWM' : 'sampled',
		heldMb: heldBytes / 1048576,
	};
	keep(outcome.held); // the results stay referenced until the figures are taken
	if (harness) harness.shutdownN8nCore();
	process.send(result, () => process.exit(0));
}

let kept;
function keep(value) {
	kept = value;
}

main().catch((error) => {
	process.send({ type: 'error', message: String(error && error.stack ? error.stack : error) }, () =>
		process.exit(1),
	);
});
void kept;
