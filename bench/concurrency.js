#!/usr/bin/env node
'use strict';
// node bench/concurrency.js   (how the default of Max Concurrent Requests was chosen)
//
// Runs this node's usage writes (one PATCH per item, default settings but Max Concurrent Requests)
// for several maxima against three APIs: no latency (the client's CPU is the limit), 40 ms latency
// without a rate limit, and 40 ms with 100 requests/s. Prints wall time, 429s and the most requests
// the sandbox saw in flight. One run each (BENCH_SWEEP_ROUNDS to repeat); a fresh process per run.

const { findNodesBase } = require('./lib/n8n-nodes-base');
const { buildPackage, startSandbox, runJob, LIMITS } = require('./run');

const ITEMS = Number(process.env.BENCH_SWEEP_ITEMS || 2000);
const ROUNDS = Number(process.env.BENCH_SWEEP_ROUNDS || 1);
const MAXIMA = (process.env.BENCH_SWEEP_MAXIMA || '4,8,16,32,64').split(',').map(Number);
const APIS = [
	{ name: 'no latency, no limit', limits: { latencyMs: 0 } },
	{ name: '40 ms, no limit', limits: { latencyMs: LIMITS.latencyMs, jitterMs: LIMITS.jitterMs } },
	{ name: `40 ms, ${LIMITS.ratePerSecond} req/s`, limits: LIMITS },
];

async function main() {
	buildPackage();
	const sandbox = await startSandbox([1000], 100);
	const target = sandbox.info.sandboxes.limited;
	const warmTarget = sandbox.info.sandboxes[1000];
	const rows = [];
	for (const api of APIS) {
		for (const maxConcurrent of MAXIMA) {
			for (let round = 0; round < ROUNDS; round++) {
				const r = await runJob(sandbox, { scenario: 'limited-write', way: 'node', target, warmTarget, items: ITEMS, maxConcurrent, limits: api.limits, nodesBase: findNodesBase() });
				const row = { api: api.name, maxConcurrent, wallMs: r.wallMs, cpuMs: r.cpuMs, tooMany: r.limited.limits.limited, failed: r.failed, maxInFlight: r.limited.limits.maxInFlightSeen };
				rows.push(row);
				process.stdout.write(`${JSON.stringify(row)}\n`);
			}
		}
	}
	sandbox.child.send({ cmd: 'close' });
	console.log(`\n| API | Max Concurrent Requests | wall ms | req/s | client CPU ms | 429s | failed | most in flight |\n|---|---|---|---|---|---|---|---|`);
	for (const r of rows) console.log(`| ${r.api} | ${r.maxConcurrent} | ${Math.round(r.wallMs)} | ${Math.round(ITEMS / (r.wallMs / 1000))} | ${Math.round(r.cpuMs)} | ${r.tooMany} | ${r.failed} | ${r.maxInFlight} |`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
