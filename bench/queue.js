#!/usr/bin/env node
'use strict';
// npm run bench:queue  (= node bench/queue.js [--executions=100] [--items=10] [--concurrency=10] [--workers=1,2])
//
// Executions per minute of a 10-item write workflow in n8n's queue mode (scripts/lib/queue.js:
// Postgres, Redis, a main and N workers of the pinned n8n), with one and with two workers.
// Per configuration: a fresh setup, a warm-up of 5 executions, then --executions webhook calls
// at once (a backlog in the queue), timed from the first call until the database says every
// execution has finished. The CPU each part used meanwhile (main, each worker, Postgres, Redis,
// this process with the sandbox) comes from /proc, per process tree. Every write is checked in
// the sandbox. Prints the figures and writes the "Queue mode" section of bench/RESULTS.md (what
// they mean: bench/FINDINGS.md). `--render`: rewrites the section from
// bench/out/queue-last-run.json.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { writeSection: writeResultsSection } = require('./lib/results-section');
const { QueueCluster } = require('../scripts/lib/queue');
const { sleep } = require('../scripts/lib/n8n');
const { startSandbox } = require('../test/sandbox');
const { credentialFor } = require('../test/e2e/helpers');
const { usageBatchWorkflow } = require('../test/e2e/queue-workflows');

const arg = (name, fallback) =>
	process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const EXECUTIONS = Number(arg('executions', 100));
const ITEMS = Number(arg('items', 10));
const CONCURRENCY = Number(arg('concurrency', 10));
const WORKER_COUNTS = arg('workers', '1,2').split(',').map(Number);
const WARMUP = 5;
const WORKFLOW = { id: 'sbQueueBench0001', path: 'queue-bench' };
const TICK_MS = 1000 / 100; // USER_HZ

const log = (msg) => process.stderr.write(`[bench:queue] ${msg}\n`);

/** { pid: { ppid, cpuMs } } of every live process (from /proc/<pid>/stat: utime + stime). */
function processTable() {
	const table = new Map();
	for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
		try {
			const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
			// after "(command) ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			table.set(Number(pid), {
				ppid: Number(fields[1]),
				cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
			});
		} catch {
			/* gone */
		}
	}
	return table;
}

/** CPU ms used so far by a process and its live descendants (Postgres's backends, n8n's task runner). */
function treeCpuMs(table, root) {
	let total = 0;
	const todo = [root];
	while (todo.length) {
		const pid = todo.pop();
		total += table.get(pid)?.cpuMs ?? 0;
		for (const [child, p] of table) if (p.ppid === pid) todo.push(child);
	}
	return total;
}

function cpuSnapshot(cluster) {
	const table = processTable();
	const parts = {
		main: treeCpuMs(table, cluster.main.server.pid),
		...Object.fromEntries(cluster.workers.map((w) => [w.name, treeCpuMs(table, w.server.pid)])),
		postgres: treeCpuMs(table, cluster.postgres.pid),
		redis: treeCpuMs(table, cluster.redis.pid),
	};
	parts['sandbox + driver'] = process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000;
	return parts;
}

async function waitFinished(cluster, count) {
	const deadline = Date.now() + 30 * 60 * 1000;
	for (;;) {
		const [row] = await cluster.sql(
			`select count(*)::int as n, count(*) filter (where status in ('success','error','crashed','canceled'))::int as done,
			        count(*) filter (where status = 'success')::int as ok
			   from execution_entity where "workflowId" = $1`,
			[WORKFLOW.id],
		);
		if (row.n >= count && row.done >= count) return row;
		if (Date.now() > deadline) throw new Error(`only ${row.done} of ${count} executions finished`);
		await sleep(100);
	}
}

function call(cluster, batch, n) {
	const usage = Array.from({ length: ITEMS }, (_, i) => ({
		transaction_id: `bench-${batch}-${n}-${i}`,
		value: 1,
	}));
	return fetch(`${cluster.main.baseUrl}/webhook/${WORKFLOW.path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ usage }),
	}).then((r) => {
		if (r.status !== 200) throw new Error(`webhook answered ${r.status}`);
	});
}

async function measure(workers) {
	const sandbox = await startSandbox();
	const cluster = await QueueCluster.create({
		name: 'bench-queue',
		workers,
		concurrency: CONCURRENCY,
	});
	try {
		await cluster.main.importCredentials([credentialFor(sandbox)]);
		await cluster.importAndPublish(usageBatchWorkflow({ ...WORKFLOW, fixtures: sandbox.fixtures }));
		await cluster.start();
		await Promise.all(Array.from({ length: WARMUP }, (_, n) => call(cluster, 'warmup', n)));
		await waitFinished(cluster, WARMUP);

		const load = os.loadavg()[0];
		const before = cpuSnapshot(cluster);
		const started = Date.now();
		await Promise.all(Array.from({ length: EXECUTIONS }, (_, n) => call(cluster, 'run', n)));
		const enqueuedMs = Date.now() - started;
		const counts = await waitFinished(cluster, WARMUP + EXECUTIONS);
		const wallMs = Date.now() - started;
		const after = cpuSnapshot(cluster);

		const applied = [...sandbox.state.usage.keys()].filter((id) =>
			id.startsWith('bench-run-'),
		).length;
		if (counts.ok !== WARMUP + EXECUTIONS || applied !== EXECUTIONS * ITEMS) {
			throw new Error(
				`${counts.ok} successful executions, ${applied} entries written: expected ${WARMUP + EXECUTIONS}, ${EXECUTIONS * ITEMS}`,
			);
		}
		const runBy = cluster.workers.map((w) => cluster.executionsRunBy(w).length);
		const cpuCores = Object.fromEntries(
			Object.keys(after).map((k) => [k, (after[k] - before[k]) / wallMs]),
		);
		const cpuMsPerExecution = Object.fromEntries(
			Object.keys(after).map((k) => [k, (after[k] - before[k]) / EXECUTIONS]),
		);
		return {
			workers,
			wallMs,
			enqueuedMs,
			cpuMsPerExecution,
			perMinute: (EXECUTIONS / wallMs) * 60000,
			writesPerSecond: (EXECUTIONS * ITEMS) / (wallMs / 1000),
			cpuCores,
			runBy,
			load,
		};
	} finally {
		await cluster.dispose();
		await sandbox.close();
	}
}

function render(results, versions, o) {
	const lines = [];
	lines.push('## Queue mode', '');
	lines.push(
		`Generated by \`npm run bench:queue\` (bench/queue.js) on ${o.date}; command: \`node bench/queue.js --executions=${o.executions} --items=${o.items} --concurrency=${o.concurrency} --workers=${o.workers.join(',')}\`.`,
		'',
	);
	lines.push(
		`n8n ${require('../scripts/n8n-local').DEFAULT_N8N_VERSION} in queue mode (a main, N workers with \`--concurrency ${o.concurrency}\`), ${versions.postgres}, ${versions.redis}; ${os.cpus().length} cores, Node ${process.version}. The workflow: Webhook → Split Out → Subscription Billing Usage → Create, ${o.items} items (writes) per execution, custom idempotency key. ${o.executions} webhook calls at once after a warm-up of ${WARMUP}; timed until Postgres records every execution as finished; every write checked in the sandbox.`,
		'',
	);
	lines.push(
		'| Workers | Executions | Wall time | Executions / minute | Writes / s | Runs per worker (incl. warm-up) | CPU used (cores): main / workers / Postgres / Redis / sandbox+driver | CPU ms per execution: main / workers / Postgres / Redis / sandbox+driver | Load average (1 min) at start |',
	);
	lines.push('|---|---|---|---|---|---|---|---|---|');
	for (const r of results) {
		const c = r.cpuCores;
		const workerCpu = Object.keys(c)
			.filter((k) => k.startsWith('worker'))
			.map((k) => c[k].toFixed(2))
			.join(' + ');
		const m = r.cpuMsPerExecution;
		const workerMs = Object.keys(m)
			.filter((k) => k.startsWith('worker'))
			.map((k) => Math.round(m[k]))
			.join(' + ');
		lines.push(
			`| ${r.workers} | ${o.executions} | ${(r.wallMs / 1000).toFixed(1)} s | **${Math.round(r.perMinute)}** | ${Math.round(r.writesPerSecond)} | ${r.runBy.join(' / ')} | ${c.main.toFixed(2)} / ${workerCpu} / ${c.postgres.toFixed(2)} / ${c.redis.toFixed(2)} / ${c['sandbox + driver'].toFixed(2)} | ${Math.round(m.main)} / ${workerMs} / ${Math.round(m.postgres)} / ${Math.round(m.redis)} / ${Math.round(m['sandbox + driver'])} | ${r.load.toFixed(1)} |`,
		);
	}
	lines.push('');
	return lines.join('\n');
}

/** Puts the section into RESULTS.md in place of the previous one (or at the end). */
function writeSection(section) {
	writeResultsSection('Queue mode', section);
}

async function main() {
	const out = path.join(__dirname, 'out');
	const { versions } = require('../scripts/lib/queue-services');
	if (process.argv.includes('--render')) {
		const last = JSON.parse(fs.readFileSync(path.join(out, 'queue-last-run.json'), 'utf8'));
		writeSection(render(last.results, last.versions, last.options));
		return;
	}
	const results = [];
	for (const workers of WORKER_COUNTS) {
		log(`${workers} worker(s): ${EXECUTIONS} executions of ${ITEMS} writes`);
		const r = await measure(workers);
		log(
			`${workers} worker(s): ${(r.wallMs / 1000).toFixed(1)} s, ${Math.round(r.perMinute)} executions/min, ${Math.round(r.writesPerSecond)} writes/s; CPU (cores) ${JSON.stringify(Object.fromEntries(Object.entries(r.cpuCores).map(([k, v]) => [k, +v.toFixed(2)])))}; runs per worker ${r.runBy.join('/')}; load ${r.load.toFixed(1)}`,
		);
		results.push(r);
	}
	fs.mkdirSync(out, { recursive: true });
	const options = {
		executions: EXECUTIONS,
		items: ITEMS,
		concurrency: CONCURRENCY,
		workers: WORKER_COUNTS,
		date: new Date().toISOString().slice(0, 10),
	};
	fs.writeFileSync(
		path.join(out, 'queue-last-run.json'),
		JSON.stringify({ options, versions: versions(), results }, null, 2),
	);
	writeSection(render(results, versions(), options));
	log(
		'wrote the "Queue mode" section of bench/RESULTS.md (figures: bench/out/queue-last-run.json)',
	);
}

main().catch((e) => {
	process.stderr.write(`${e.stack}\n`);
	process.exit(1);
});
