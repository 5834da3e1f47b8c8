#!/usr/bin/env node
'use strict';
// npm run bench:https  (= node bench/https.js)
//
// Return All and rate-limited writes over HTTPS with a round trip: the three ways of bench/run.js
// (this node, n8n's HTTP Request node, a keep-alive loop), each run a fresh process, against the
// sandbox (its own process) behind a TLS relay (bench/lib/tls-relay.js, its own process) that holds
// every chunk DELAYS ms each way. A self-signed certificate for 127.0.0.1 is made at start
// (openssl) and trusted by the workers through NODE_EXTRA_CA_CERTS: every way verifies it as it
// would a real API's. Prints the figures and writes the "HTTPS with a round trip" section of
// bench/RESULTS.md and bench/https-return-all.svg (figures: bench/out/https-last-run.json).
//
// BENCH_QUICK=1: a smoke run (10,000 only, one round, 500 writes). --render: rewrite from the last run
// (BENCH_RUN_FILE=<file>: from that run's figures).
// BENCH_PIN=client:sandbox:relay, e.g. 0:0:1 (taskset CPU lists): keeps each process on those CPUs,
// so that the relay's TLS work does not share a core with the client or the server.
// BENCH_HTTPS_ONLY=lists: the lists only (no control, no writes); BENCH_HTTPS_DELAYS=0, BENCH_HTTPS_SIZES=100000:
// these delays, these list sizes only.
// BENCH_WHATIF_KEEPALIVE=1: n8n's ways with connections kept alive (a study: what n8n-core's new agent
// per request costs; not a figure of RESULTS.md, which such a run overwrites).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fork, execFileSync } = require('node:child_process');
const { buildPackage, startSandbox, runJob, pin } = require('./run');
const { findNodesBase } = require('./lib/n8n-nodes-base');
const { ratioBarsSvg } = require('./lib/https-svg');
const { ipcCaller } = require('./lib/ipc');
const { writeSection, goalsTable } = require('./lib/results-section');

const OUT = path.join(__dirname, 'out');
const [PIN_CLIENT, PIN_SANDBOX, PIN_RELAY] = process.env.BENCH_PIN?.split(':') ?? [];
const LISTS_ONLY = process.env.BENCH_HTTPS_ONLY === 'lists';
const QUICK = process.env.BENCH_QUICK === '1';
const DELAYS = process.env.BENCH_HTTPS_DELAYS?.split(',').map(Number) ?? [0, 10, 25];
const SIZES =
	process.env.BENCH_HTTPS_SIZES?.split(',').map(Number) ?? (QUICK ? [10000] : [10000, 100000]);
const ROUNDS = QUICK ? { 10000: 1, 100000: 1 } : { 10000: 5, 100000: 3 };
const WRITES = QUICK
	? { items: 500, rounds: 1, delayMs: 25 }
	: { items: 2000, rounds: 3, delayMs: 25 };
/**
 * V8 grows its heap by a factor it picks from how fast the program allocates: a read that allocates
 * faster is let grow further before garbage is collected. The control runs the biggest list a page
 * at a time and pages together with the factor fixed, so both collect on the same schedule.
 */
const FIXED_GROWTH = {
	flags: ['--heap-growing-percent=30'],
	delays: [0, 25],
	rounds: QUICK ? 1 : 3,
};
/** Pages the node reads ahead (nodes/SubscriptionBilling/shared/pagination.ts, PAGES_AHEAD), and what one page of 1,000 invoices holds in memory while in flight. */
const PAGES_AHEAD = 8;
const PAGE_TEXT_MB = 0.93;
const PAGE_MEMORY_MB = 5;
/** The API's rate limit for the writes, answered by the sandbox itself (the relay adds the round trip). */
const WRITE_LIMITS = { latencyMs: 0, jitterMs: 0, ratePerSecond: 100, burst: 100 };

const log = (msg) => process.stdout.write(`${msg}\n`);
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = Math.floor(s.length / 2);
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (x, digits = 0) =>
	x === undefined || Number.isNaN(x)
		? '–'
		: x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const fmtRatio = (r) => (r === undefined || Number.isNaN(r) ? '–' : `${r.toFixed(2)}x`);

/** A self-signed certificate for 127.0.0.1 and localhost, made now (no download). */
function makeCertificate() {
	const dir = path.join(OUT, 'tls');
	fs.mkdirSync(dir, { recursive: true });
	const cert = path.join(dir, 'cert.pem');
	const key = path.join(dir, 'key.pem');
	execFileSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'ec',
			'-pkeyopt',
			'ec_paramgen_curve:prime256v1',
			'-nodes',
			'-days',
			'2',
			'-subj',
			'/CN=127.0.0.1',
			'-addext',
			'subjectAltName=IP:127.0.0.1,DNS:localhost',
			'-keyout',
			key,
			'-out',
			cert,
		],
		{ stdio: 'ignore' },
	);
	return { cert, key };
}

function startRelay(targets, tlsFiles) {
	const child = fork(path.join(__dirname, 'lib', 'tls-relay.js'), [], {
		env: {
			...process.env,
			RELAY_TARGETS: JSON.stringify(targets),
			RELAY_CERT: tlsFiles.cert,
			RELAY_KEY: tlsFiles.key,
		},
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const call = ipcCaller(child);
	return new Promise((resolve, reject) => {
		child.once('error', reject);
		child.once('message', (info) => resolve({ child, ports: info.ports, call }));
	});
}

async function main() {
	const started = Date.now();
	const loadBefore = os.loadavg();
	fs.mkdirSync(OUT, { recursive: true });
	buildPackage();
	const nodesBase = findNodesBase();
	if (!nodesBase)
		throw new Error('n8n-nodes-base is needed for the HTTP Request node (see bench/run.js)');
	const ways = ['node', 'nodeSequential', 'httpRequest', 'loop'];
	const writeWays = ['node', 'httpRequest', 'loop'];
	const tlsFiles = makeCertificate();

	process.env.BENCH_LINK_SCHEME = 'https';
	log(
		`starting the sandbox (${SIZES.join(', ')} invoices; ${WRITES.items} usage entries behind ${WRITE_LIMITS.ratePerSecond} requests/s) and the TLS relay`,
	);
	const sandbox = await startSandbox(SIZES, 200);
	const info = sandbox.info.sandboxes;
	const relayed = Object.fromEntries(
		[...SIZES.map(String), 'limited'].map((name) => [name, info[name].port]),
	);
	const relay = await startRelay(relayed, tlsFiles);
	if (PIN_SANDBOX) pin(sandbox.child.pid, PIN_SANDBOX);
	if (PIN_RELAY) pin(relay.child.pid, PIN_RELAY);
	const over = (name) => ({
		...info[name],
		baseUrl: `https://127.0.0.1:${relay.ports[name]}/api/v2`,
	});

	const results = [];
	async function measure(key, delayMs, way, job, counted = true) {
		const hooks = {
			beforeGo: () => relay.call('clear', { delayMs }),
			afterResult: async () => {
				const counted = await relay.call('count');
				return { tlsConnections: counted.tlsConnections, relayCpuMs: counted.cpuMs };
			},
		};
		// the warm-up runs without delay (it only loads and warms the code), the measured part with it
		await relay.call('clear', { delayMs: 0 });
		const r = await runJob(
			sandbox,
			{ ...job, way, nodesBase, caFile: tlsFiles.cert, cpus: PIN_CLIENT },
			hooks,
		);
		if (!counted) return;
		results.push({ key, delayMs, way, ...r });
		log(
			`  ${key.padEnd(12)} ${String(delayMs).padStart(2)} ms ${way.padEnd(11)} ${fmt(r.wallMs).padStart(7)} ms, ${r.requests} requests, ${r.tlsConnections} TLS connections, ` +
				`cpu ${fmt(r.cpuMs)} ms, peak +${fmt(r.peakRssMb - r.baseRssMb)} MB, held ${fmt(r.heldMb)} MB` +
				(r.limited
					? `; ${r.limited.limits.limited} 429s, ${r.failed ?? 0} failed, ${r.limited.doubled} applied twice`
					: ''),
		);
	}

	// The sandbox and the relay serve their first big pages slower (their code is not optimised yet): one run of each way, not counted.
	for (const way of ways)
		await measure('warm-up', 0, way, { scenario: 'list', target: over(String(SIZES[0])) }, false);
	for (const size of SIZES) {
		log(`\n# Return All of ${size} invoices at 1000 a page over HTTPS`);
		for (let round = 0; round < ROUNDS[size]; round++) {
			for (const delayMs of DELAYS) {
				const order = ways.map((_, i) => ways[(i + round + DELAYS.indexOf(delayMs)) % ways.length]);
				for (const way of order)
					await measure(`list-${size}`, delayMs, way, {
						scenario: 'list',
						target: over(String(size)),
					});
			}
		}
	}
	const biggest = Math.max(...SIZES);
	if (!LISTS_ONLY) {
		log(
			`\n# Control: Return All of ${biggest} with V8's heap growth fixed (${FIXED_GROWTH.flags.join(' ')})`,
		);
		for (let round = 0; round < FIXED_GROWTH.rounds; round++) {
			for (const delayMs of FIXED_GROWTH.delays) {
				const order = round % 2 ? ['nodeSequential', 'node'] : ['node', 'nodeSequential'];
				for (const way of order)
					await measure(`fixed-${biggest}`, delayMs, way, {
						scenario: 'list',
						target: over(String(biggest)),
						v8Flags: FIXED_GROWTH.flags,
					});
			}
		}
		log(
			`\n# ${WRITES.items} usage writes at ${WRITES.delayMs} ms each way, ${WRITE_LIMITS.ratePerSecond} requests/s`,
		);
		for (let round = 0; round < WRITES.rounds; round++) {
			for (const way of round % 2 ? [...writeWays].reverse() : writeWays) {
				await measure('writes', WRITES.delayMs, way, {
					scenario: 'limited-write',
					target: over('limited'),
					warmTarget: over(String(SIZES[0])),
					items: WRITES.items,
					limits: WRITE_LIMITS,
				});
			}
		}
	}
	sandbox.child.send({ cmd: 'close' });
	relay.child.send({ cmd: 'close' });

	const run = {
		date: new Date().toISOString(),
		elapsed: (Date.now() - started) / 1000,
		loadBefore,
		loadAfter: os.loadavg(),
		host: { nproc: os.availableParallelism(), cpu: os.cpus()[0]?.model, node: process.version },
		pin: process.env.BENCH_PIN,
		nodesBaseVersion: require(path.join(nodesBase, 'package.json')).version,
		config: { DELAYS, SIZES, ROUNDS, WRITES, WRITE_LIMITS, FIXED_GROWTH },
		ways,
		writeWays,
		results,
	};
	fs.writeFileSync(path.join(OUT, 'https-last-run.json'), JSON.stringify(run));
	report(run);
}

function figures(results, key, delayMs, way) {
	const runs = results.filter((r) => r.key === key && r.delayMs === delayMs && r.way === way);
	if (runs.length === 0) return undefined;
	const m = (pick) => median(runs.map(pick));
	return {
		runs: runs.length,
		wallMs: m((r) => r.wallMs),
		minMs: Math.min(...runs.map((r) => r.wallMs)),
		maxMs: Math.max(...runs.map((r) => r.wallMs)),
		requests: m((r) => r.requests),
		tls: m((r) => r.tlsConnections),
		cpuMs: m((r) => r.cpuMs),
		deltaMb: m((r) => r.peakRssMb - r.baseRssMb),
		heldMb: m((r) => r.heldMb),
		failed: Math.max(...runs.map((r) => r.failed ?? 0)),
		doubled: Math.max(...runs.map((r) => r.limited?.doubled ?? 0)),
		limited: m((r) => r.limited?.limits.limited ?? 0),
		count: runs[0].count,
	};
}

function report(run) {
	const { results, ways, config } = run;
	const writeWays = run.writeWays ?? ways;
	const lines = [];
	const goals = [];
	const goal = (name, measured, pass, rule) => goals.push({ name, measured, pass, rule });
	lines.push(
		'| list | one-way delay | way | runs | median wall ms (min–max) | requests | TLS connections | client CPU ms | peak − baseline MB | held after gc MB | vs loop | vs HTTP Request |',
	);
	lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
	const groups = [];
	for (const size of config.SIZES) {
		for (const delayMs of config.DELAYS) {
			const key = `list-${size}`;
			const f = Object.fromEntries(ways.map((way) => [way, figures(results, key, delayMs, way)]));
			for (const way of ways) {
				const x = f[way];
				if (!x) continue;
				lines.push(
					`| ${fmt(size)} | ${delayMs} ms | ${way} | ${x.runs} | ${fmt(x.wallMs)} (${fmt(x.minMs)}–${fmt(x.maxMs)}) | ${fmt(x.requests)} | ${fmt(x.tls)} | ${fmt(x.cpuMs)} | ${fmt(x.deltaMb)} | ${fmt(x.heldMb)} | ${fmtRatio(x.wallMs / f.loop.wallMs)} | ${way === 'httpRequest' ? '–' : fmtRatio(x.wallMs / f.httpRequest.wallMs)} |`,
				);
			}
			groups.push({
				label: `${fmt(size)} invoices\n${delayMs} ms each way`,
				values: Object.fromEntries(ways.map((way) => [way, f[way].wallMs / f.loop.wallMs])),
			});
			const ratio = f.node.wallMs / f.loop.wallMs;
			const before = f.nodeSequential
				? ` (a page at a time: ${fmtRatio(f.nodeSequential.wallMs / f.loop.wallMs)})`
				: '';
			const limit = delayMs === 0 ? 1.25 : delayMs >= 25 ? 1.0 : undefined;
			if (limit !== undefined)
				goal(
					`Return All of ${fmt(size)} at ${delayMs} ms each way: node vs keep-alive loop`,
					`${fmtRatio(ratio)}${before}`,
					ratio <= limit,
					`<= ${limit.toFixed(2)}x`,
				);
			if (delayMs === 0) {
				// issue 38: what the client spends, whichever process the machine's cores go to
				const cpu = f.node.cpuMs / f.loop.cpuMs;
				const beyond = ((f.node.cpuMs - f.loop.cpuMs) * 1000) / size;
				goal(
					`Return All of ${fmt(size)} at 0 ms: node's client CPU vs keep-alive loop's`,
					`${fmtRatio(cpu)} (${fmt(f.node.cpuMs)} vs ${fmt(f.loop.cpuMs)} ms: ${fmt(beyond, 1)} µs an invoice beyond the loop${run.pin ? `; pinned client:sandbox:relay ${run.pin}` : ''})`,
					cpu <= 1.25,
					'<= 1.25x',
				);
			}
		}
	}
	const biggest = Math.max(...config.SIZES);
	const inFlightRule = `at most the ${PAGES_AHEAD} pages in flight more (${PAGES_AHEAD} × ${PAGE_MEMORY_MB} MB: a page's ${PAGE_TEXT_MB} MB of JSON as received, as text and parsed)`;
	const memoryGoal = (key, delayMs, what, pick) => {
		const together = figures(results, key, delayMs, 'node');
		const sequential = figures(results, key, delayMs, 'nodeSequential');
		if (!together || !sequential) return;
		const extra = pick(together) - pick(sequential);
		goal(
			`Return All of ${fmt(biggest)} at ${delayMs} ms: ${what}, pages together vs a page at a time`,
			`${fmt(pick(together))} vs ${fmt(pick(sequential))} MB (${extra >= 0 ? '+' : ''}${fmt(extra)} MB)`,
			extra <= PAGES_AHEAD * PAGE_MEMORY_MB,
			inFlightRule,
		);
	};
	for (const delayMs of config.DELAYS)
		memoryGoal(`list-${biggest}`, delayMs, 'peak − baseline', (x) => x.deltaMb);
	for (const delayMs of config.DELAYS)
		memoryGoal(`list-${biggest}`, delayMs, 'held after gc', (x) => x.heldMb);
	const growth = config.FIXED_GROWTH;
	const controlLines = [
		'| list | one-way delay | way | runs | median wall ms (min–max) | peak − baseline MB | held after gc MB |',
		'|---|---|---|---|---|---|---|',
	];
	for (const delayMs of growth?.delays ?? []) {
		for (const way of ['node', 'nodeSequential']) {
			const x = figures(results, `fixed-${biggest}`, delayMs, way);
			if (x)
				controlLines.push(
					`| ${fmt(biggest)} | ${delayMs} ms | ${way} | ${x.runs} | ${fmt(x.wallMs)} (${fmt(x.minMs)}–${fmt(x.maxMs)}) | ${fmt(x.deltaMb)} | ${fmt(x.heldMb)} |`,
				);
		}
		memoryGoal(
			`fixed-${biggest}`,
			delayMs,
			`peak − baseline with V8's heap growth fixed (${growth.flags.join(' ')})`,
			(x) => x.deltaMb,
		);
	}
	const writeLines = [
		'| writes | way | runs | median wall ms (min–max) | requests | 429s | TLS connections | client CPU ms | of the limit | failed | applied twice | vs loop |',
		'|---|---|---|---|---|---|---|---|---|---|---|---|',
	];
	const ideal = (config.WRITES.items / config.WRITE_LIMITS.ratePerSecond) * 1000;
	const wf = Object.fromEntries(
		writeWays.map((way) => [way, figures(results, 'writes', config.WRITES.delayMs, way)]),
	);
	for (const way of writeWays) {
		const x = wf[way];
		if (!x) continue;
		const share = ideal / x.wallMs;
		writeLines.push(
			`| ${fmt(config.WRITES.items)} at ${config.WRITES.delayMs} ms | ${way} | ${x.runs} | ${fmt(x.wallMs)} (${fmt(x.minMs)}–${fmt(x.maxMs)}) | ${fmt(x.requests)} | ${fmt(x.limited)} | ${fmt(x.tls)} | ${fmt(x.cpuMs)} | ${fmt(share * 100)}% | ${x.failed} | ${x.doubled} | ${fmtRatio(x.wallMs / wf.loop.wallMs)} |`,
		);
	}
	if (wf.node) {
		goal(
			'writes: node, share of the rate limit',
			`${fmt((ideal / wf.node.wallMs) * 100)}%`,
			ideal / wf.node.wallMs >= 0.9,
			'>= 90%',
		);
		goal(
			'writes: node, failed / applied twice',
			`${wf.node.failed} / ${wf.node.doubled}`,
			wf.node.failed === 0 && wf.node.doubled === 0,
			'0 / 0',
		);
	}
	const svg = ratioBarsSvg(
		groups,
		ways,
		'Return All over HTTPS: median wall time ÷ keep-alive loop',
	);
	fs.writeFileSync(path.join(__dirname, 'https-return-all.svg'), svg);
	const section = [
		'## HTTPS with a round trip',
		'',
		'Generated by `npm run bench:https` (bench/https.js) — do not edit by hand.',
		'',
		`- ${run.host.nproc} CPUs (${run.host.cpu}), Node ${run.host.node}, n8n-nodes-base ${run.nodesBaseVersion}; load average ${run.loadBefore.map((x) => x.toFixed(1)).join(' / ')} before, ${run.loadAfter.map((x) => x.toFixed(1)).join(' / ')} after (1/5/15 min; other processes share the cores); run took ${Math.round(run.elapsed)} s, finished ${run.date}.`,
		"- Network: every way talks HTTPS to a relay in its own process (bench/lib/tls-relay.js): a TCP hop that holds every chunk the given delay in each direction (the TLS handshake too; a round trip is twice the delay; TCP's own handshake, slow start and bandwidth are not simulated), then a TLS server that counts the TLS connections it completes (`secureConnection`) and passes the bytes to the sandbox (its own process). All on 127.0.0.1.",
		'- Certificate: a self-signed EC certificate for 127.0.0.1, made by openssl when the bench starts, trusted by each worker through `NODE_EXTRA_CA_CERTS`: every way verifies it as it would a real API\'s certificate (the node\'s "Ignore SSL Issues" would skip verification and measure less than a user pays; the HTTP Request node and the loop get the same trust).',
		"- Ways as in bench/run.js: `node` (this package through n8n-core's engine, Return All: the pages after the first read together), `nodeSequential` (the same with *Max Concurrent Requests* = 1: one page at a time, as before this change), `httpRequest` (n8n's HTTP Request node following `next`), `loop` (`https.request` on one keep-alive `https.Agent`, one page after the other: the sequential floor). Each run a fresh process, warmed up without delay; ways alternate and the first way rotates; one run of each way before the first round is not counted (it warms the sandbox and the relay).",
		`- Rounds: ${Object.entries(config.ROUNDS)
			.map(([size, n]) => `${fmt(Number(size))} invoices: ${n}`)
			.join(', ')} per delay; writes: ${config.WRITES.rounds}.`,
		`- Writes: ${fmt(config.WRITES.items)} items, each PATCH /usage, against the sandbox's rate limit of ${config.WRITE_LIMITS.ratePerSecond} requests/s (burst ${config.WRITE_LIMITS.burst}; 429 with Retry-After over it), ${config.WRITES.delayMs} ms each way. node: its defaults (no batching; the request budget); httpRequest: its defaults with an idempotency key header, no retry (a 429 fails the item, as in bench/run.js); loop: 16 in flight (the node's starting window) on keep-alive connections, a 429 waits its Retry-After and is sent again. "Of the limit": the ideal ${fmt(ideal / 1000, 1)} s (items ÷ rate, as in bench/run.js) ÷ wall time.`,
		'',
		'### Return All',
		'',
		lines.join('\n'),
		'',
		'![Return All over HTTPS](https-return-all.svg)',
		'',
		...(growth
			? [
					"### Memory with V8's heap growth fixed (control)",
					'',
					`V8 lets its heap grow by a factor it picks from how fast the program allocates, so a read that allocates faster (pages together: the same bytes in a fifth of the time) leaves more garbage uncollected at its peak. Here both reads run with \`${growth.flags.join(' ')}\` (a fixed factor of 1.3), so they collect on the same schedule and the difference is what each holds; "held after gc" is the JavaScript heap plus Buffers after a full gc at the end, the results still held.`,
					'',
					controlLines.join('\n'),
					'',
				]
			: []),
		'### Writes against the rate limit',
		'',
		writeLines.join('\n'),
		'',
		'### Goals',
		'',
		...goalsTable(goals),
		'',
	].join('\n');
	log(`\n${section}`);
	writeSection('HTTPS with a round trip', section);
	log(
		'wrote the "HTTPS with a round trip" section of bench/RESULTS.md and bench/https-return-all.svg',
	);
}

if (process.argv.includes('--render')) {
	report(
		JSON.parse(
			fs.readFileSync(process.env.BENCH_RUN_FILE || path.join(OUT, 'https-last-run.json'), 'utf8'),
		),
	);
} else {
	main().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
