#!/usr/bin/env node
'use strict';
// npm run bench  (= node bench/run.js)
//
// Each scenario three ways against one sandbox (its own process), alternating, several rounds:
//   node        this package's node through n8n-core's WorkflowExecute (test/harness)
//   floor       (writes) n8n's floor for a declarative node: routing definitions only (lib/floor-node.js)
//   httpRequest n8n's HTTP Request node (n8n-nodes-base V3, typeVersion 4.4) through the same engine
//   loop        a hand-written keep-alive HTTP loop (the floor: network + sandbox)
// Every measured run is a fresh process (bench/lib/worker.js): wall time, client CPU, peak RSS.
// Prints the figures and goal verdicts and writes bench/RESULTS.md and bench/time-per-invoice.svg.
//
// node bench/run.js --render: rewrites RESULTS.md and the plot from bench/out/last-run.json.
// Environment: BENCH_QUICK=1 (a smoke run: 1 round, small sizes), BENCH_PROFILE=0 (no profiles),
// BENCH_ONLY=limited (only the scenarios against the API with latency and a rate limit),
// BENCH_ONLY=writes (only the writes without latency and their profiles; prints, writes no RESULTS.md),
// BENCH_WRITE_MODES=seq,batch16,default,paced,single (with BENCH_ONLY=writes: only these modes),
// BENCH_PROFILE_MODE=default (the write mode profiled; one at a time unless set),
// BENCH_INSTALL_N8N=1 (install n8n 2.8.4 into .n8n-local/ if n8n-nodes-base is missing),
// BENCH_N8N_NODES_BASE=<dir> (use that n8n-nodes-base).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fork, spawnSync } = require('node:child_process');
const { findNodesBase, howToInstall } = require('./lib/n8n-nodes-base');
/** A write's client CPU, this node vs n8n's floor for a declarative node: at most this, in every mode. */
const FLOOR_CPU_LIMIT = 1.25;
const { summarise, format: formatProfile } = require('./lib/profile-summary');
const { timePerInvoiceSvg } = require('./lib/svg');
const { limitedReport } = require('./lib/limited');
const { ipcCaller } = require('./lib/ipc');
const { goalsTable } = require('./lib/results-section');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(__dirname, 'out');
const QUICK = process.env.BENCH_QUICK === '1';
const PROFILE = process.env.BENCH_PROFILE !== '0';
const ONLY_LIMITED = process.env.BENCH_ONLY === 'limited';
const ONLY_WRITES = process.env.BENCH_ONLY === 'writes';
/** BENCH_WRITE_MODES=seq,paced: only these write modes (with BENCH_ONLY=writes). */
const WRITE_MODES_ONLY = process.env.BENCH_WRITE_MODES?.split(',');
/** BENCH_WRITE_ROUNDS=6: rounds of each write mode (a noisy machine needs more for a steady median). */
const WRITE_ROUNDS = Number(process.env.BENCH_WRITE_ROUNDS) || undefined;
/** BENCH_PROFILE_MODE=default: the write mode the profiles run (one at a time unless set). */
const PROFILE_MODE_ID = process.env.BENCH_PROFILE_MODE ?? 'seq';

/** The API with latency and a rate limit (test/sandbox/limits.js): 40 ms on average, 100 requests/s per key. */
const LIMITS = { latencyMs: 35, jitterMs: 10, ratePerSecond: 100, burst: 100 };
const LIMITED = QUICK
	? { writes: 500, writeRounds: 1, invoices: 10000, listRounds: 1 }
	: { writes: 2000, writeRounds: 2, invoices: 10000, listRounds: 3 };
const LIMITED_WRITE_WAYS = ['node', 'httpRequest', 'httpRequestRetry'];

// ---- what runs ------------------------------------------------------------------------------
const CONFIG = QUICK
	? {
			listSizes: [1000, 10000],
			listRounds: { 1000: 1, 10000: 1 },
			limit: { size: 10000, limit: 250, rounds: 1 },
			writeItems: 500,
			writeRounds: { seq: 1, batch16: 1, default: 1, paced: 1, single: 3 },
			loadRounds: 1,
			profileWriteItems: 300,
		}
	: {
			listSizes: [1000, 10000, 30000, 100000],
			listRounds: { 1000: 5, 10000: 5, 30000: 3, 100000: 3 },
			limit: { size: 100000, limit: 250, rounds: 5 },
			writeItems: 5000,
			writeRounds: { seq: 2, batch16: 2, default: 2, paced: 2, single: 9 },
			loadRounds: 5,
			profileWriteItems: 2000,
		};

const WRITE_MODES = [
	{
		id: 'seq',
		label: 'one at a time',
		n8n: { batchSize: 1, batchInterval: 1 },
		loop: { concurrency: 1 },
		explain:
			'loop: awaits each response before the next request. n8n (node and HTTP Request): batching with batch size 1 and interval 1 ms, ' +
			'the closest n8n has: it starts one request per ms and does not wait for the response, so requests still overlap when a response takes longer than the interval.',
	},
	{
		id: 'batch16',
		label: 'batches of 16',
		n8n: { batchSize: 16, batchInterval: 1 },
		loop: { concurrency: 16 },
		explain:
			'loop: 16 requests in flight on 16 keep-alive sockets. n8n: batching, 16 requests started, then a 1 ms pause, without waiting for responses.',
	},
	{
		id: 'default',
		label: 'no batching (n8n default)',
		n8n: {},
		loop: { concurrency: 'all', maxSockets: 64 },
		explain:
			"n8n: without batching RoutingNode and the HTTP Request node start every item's request at once and then await them all. " +
			'loop: the same, all requests started at once, queued by a keep-alive agent on 64 sockets.',
	},
	{
		id: 'paced',
		label: 'paced, one every 100 ms',
		items: 50,
		n8n: { batchSize: 1, batchInterval: 100 },
		loop: { concurrency: 1 },
		explain:
			'n8n: batching as a rate limit, batch size 1 and interval 100 ms over 50 items (about 4.9 s of spacing). loop: one at a time, unpaced (for reference only).',
	},
	{
		id: 'single',
		label: "one write (a run's fixed cost)",
		items: 1,
		n8n: {},
		loop: { concurrency: 1 },
		explain: 'one item, one PATCH /usage: what a run costs beyond its requests.',
	},
];
/** The write modes of 5,000 items (CONFIG.writeItems), measured against the loop as well. */
const isBulk = (mode) => mode.items === undefined;

// ---- helpers --------------------------------------------------------------------------------
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = Math.floor(s.length / 2);
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (x, digits = 0) =>
	x === undefined || Number.isNaN(x)
		? '–'
		: x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratio = (a, b) => (a !== undefined && b ? a / b : undefined);
const fmtRatio = (r) => (r === undefined ? '–' : `${r.toFixed(2)}x`);
const log = (msg) => process.stdout.write(`${msg}\n`);

function machine() {
	const mem = fs.readFileSync('/proc/meminfo', 'utf8').match(/MemTotal:\s+(\d+)/);
	const version = (p) => {
		try {
			return require(path.join(p, 'package.json')).version;
		} catch {
			return undefined;
		}
	};
	return {
		nproc: os.availableParallelism ? os.availableParallelism() : os.cpus().length,
		cpu: os.cpus()[0]?.model ?? 'unknown',
		memoryGb: mem ? Number(mem[1]) / 1048576 : os.totalmem() / 2 ** 30,
		node: process.version,
		kernel: os.release(),
		n8nCore: version(path.join(ROOT, 'node_modules', 'n8n-core')),
		n8nWorkflow: version(path.join(ROOT, 'node_modules', 'n8n-workflow')),
	};
}

/**
 * Builds the package from the current sources into bench/dist/pkg (package.json + dist/, as
 * `npm run build` lays out the repo root: tsc, then the icons and codex files), together with the
 * test harness. A snapshot of its own: others may rebuild or clean the root's dist/ meanwhile.
 */
function buildPackage() {
	const pkg = path.join(__dirname, 'dist', 'pkg');
	log('building the package and the harness (bench/tsconfig.json -> bench/dist/pkg)');
	const tsc = spawnSync(
		process.execPath,
		[
			path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
			'-p',
			path.join('bench', 'tsconfig.json'),
		],
		{
			cwd: ROOT,
			encoding: 'utf8',
		},
	);
	if (tsc.status !== 0)
		log(
			`WARNING: tsc reported errors (output emitted anyway):\n${tsc.stdout.trim().split('\n').slice(0, 10).join('\n')}`,
		);
	const main = path.join(
		pkg,
		'dist',
		'nodes',
		'SubscriptionBilling',
		'SubscriptionBilling.node.js',
	);
	if (!fs.existsSync(main)) throw new Error(`tsc did not produce ${main}`);
	fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
	const copy = (dir, test) => {
		for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
			const rel = path.join(dir, entry.name);
			if (entry.isDirectory()) copy(rel, test);
			else if (test(entry.name)) {
				fs.mkdirSync(path.join(pkg, 'dist', dir), { recursive: true });
				fs.copyFileSync(path.join(ROOT, rel), path.join(pkg, 'dist', rel));
			}
		}
	};
	copy('icons', (name) => name.endsWith('.svg'));
	copy('nodes', (name) => name.endsWith('.node.json'));
}

// ---- processes ------------------------------------------------------------------------------
/** Keeps a process (and the threads it starts) on these CPUs (`taskset -c` syntax, e.g. "0" or "1-3"). */
function pin(pid, cpus) {
	const result = spawnSync('taskset', ['-a', '-pc', cpus, String(pid)], { encoding: 'utf8' });
	if (result.status !== 0)
		throw new Error(`taskset ${cpus} ${pid}: ${result.stderr || result.error}`);
}

function startSandbox(sizes, writeItems) {
	const limited = { limits: LIMITS, invoices: LIMITED.invoices, writeItems: LIMITED.writes };
	const child = fork(path.join(__dirname, 'lib', 'sandbox-server.js'), [], {
		env: {
			...process.env,
			BENCH_SIZES: JSON.stringify(sizes),
			BENCH_WRITE_ITEMS: String(writeItems),
			BENCH_LIMITED: JSON.stringify(limited),
		},
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const ipc = ipcCaller(child);
	const call = (cmd, limits) => ipc(cmd, { limits });
	return new Promise((resolve, reject) => {
		child.once('error', reject);
		child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
		child.once('message', (info) => resolve({ child, info, call }));
	});
}

/**
 * One measured run in a fresh process; resolves with the worker's figures plus the sandbox's (and
 * `hooks.afterResult`'s). `hooks.beforeGo` runs once the worker is warm, before it is measured.
 * `job.caFile`: a certificate the worker trusts (NODE_EXTRA_CA_CERTS); `job.v8Flags`: V8 flags for it.
 */
function runJob(sandbox, job, hooks = {}) {
	return new Promise((resolve, reject) => {
		const worker = fork(path.join(__dirname, 'lib', 'worker.js'), [], {
			env: {
				...process.env,
				BENCH_JOB: JSON.stringify(job),
				...(job.caFile && { NODE_EXTRA_CA_CERTS: job.caFile }),
			},
			execArgv: ['--expose-gc', '--max-old-space-size=4096', ...(job.v8Flags ?? [])],
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		if (job.cpus) pin(worker.pid, job.cpus);
		let settled = false;
		let answered = false;
		const fail = (error) => {
			if (settled) return;
			settled = true;
			worker.kill();
			reject(error);
		};
		const timer = setTimeout(
			() => fail(new Error(`${job.scenario}/${job.way} timed out`)),
			180_000,
		);
		worker.on('message', async (m) => {
			if (m.type === 'ready') {
				await sandbox.call('clear', job.limits);
				await hooks.beforeGo?.();
				worker.send({ type: 'go' });
			} else if (m.type === 'result') {
				answered = true; // the worker exits right after sending this
				const counts = await sandbox.call('count');
				const extra = (await hooks.afterResult?.()) ?? {};
				clearTimeout(timer);
				settled = true;
				resolve({
					...m,
					requests: counts.requests,
					statuses: counts.statuses,
					connections: counts.connections,
					sandboxCpuMs: counts.cpuMs,
					limited: counts.limited,
					...extra,
				});
			} else if (m.type === 'error') {
				answered = true;
				clearTimeout(timer);
				fail(new Error(`${job.scenario}/${job.way}: ${m.message}`));
			}
		});
		worker.on('exit', (code) => {
			if (!settled && !answered) fail(new Error(`${job.scenario}/${job.way} exited with ${code}`));
		});
	});
}

// ---- main -----------------------------------------------------------------------------------
async function main() {
	const started = Date.now();
	const host = machine();
	const loadBefore = os.loadavg();
	fs.mkdirSync(OUT, { recursive: true });

	buildPackage();

	let nodesBase = findNodesBase();
	if (!nodesBase && process.env.BENCH_INSTALL_N8N === '1') {
		log('installing n8n into .n8n-local/ (scripts/n8n-local.js), several minutes');
		spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'n8n-local.js')], {
			cwd: ROOT,
			stdio: 'inherit',
		});
		nodesBase = findNodesBase();
	}
	if (!nodesBase) log(`NOTE: ${howToInstall()}`);
	const nodesBaseVersion = nodesBase
		? require(path.join(nodesBase, 'package.json')).version
		: undefined;
	const ways = nodesBase ? ['node', 'httpRequest', 'loop'] : ['node', 'loop'];
	// writes also run n8n's floor for a declarative node (bench/lib/floor-node.js)
	const writeWays = [ways[0], 'floor', ...ways.slice(1)];

	log(
		`starting the sandbox (sizes ${CONFIG.listSizes.join(', ')}; ${CONFIG.writeItems} usage entries)`,
	);
	const sandbox = await startSandbox(CONFIG.listSizes, CONFIG.writeItems);
	const targets = sandbox.info.sandboxes;
	const writeTarget = { ...targets[Math.min(...CONFIG.listSizes)] };

	const results = []; // { scenario, key, way, round, ...figures }
	async function writeRounds() {
		log(`\n# ${CONFIG.writeItems} items (paced: 50, single: 1), each PATCH /usage`);
		for (const mode of WRITE_MODES.filter(
			(m) => !WRITE_MODES_ONLY || WRITE_MODES_ONLY.includes(m.id),
		)) {
			await rounds(
				'write',
				`write-${mode.id}`,
				WRITE_ROUNDS ?? CONFIG.writeRounds[mode.id],
				(way) => ({
					target: writeTarget,
					items: mode.items ?? CONFIG.writeItems,
					mode: way === 'loop' ? mode.loop : mode.n8n,
				}),
				writeWays,
			);
		}
	}
	function profileJobsFor() {
		const biggest = Math.max(...CONFIG.listSizes);
		const profiled = WRITE_MODES.find((mode) => mode.id === PROFILE_MODE_ID);
		if (!profiled) throw new Error(`BENCH_PROFILE_MODE: no write mode ${PROFILE_MODE_ID}`);
		return [
			{ key: `list-${biggest}`, scenario: 'list', way: 'node', target: targets[biggest] },
			...(nodesBase
				? [
						{
							key: `list-${biggest}`,
							scenario: 'list',
							way: 'httpRequest',
							target: targets[biggest],
						},
					]
				: []),
			...['node', 'floor'].map((way) => ({
				key: `write-${profiled.id}`,
				scenario: 'write',
				way,
				target: writeTarget,
				items: CONFIG.profileWriteItems,
				mode: profiled.n8n,
			})),
			...(nodesBase
				? [
						{
							key: `write-${profiled.id}`,
							scenario: 'write',
							way: 'httpRequest',
							target: writeTarget,
							items: CONFIG.profileWriteItems,
							mode: profiled.n8n,
						},
					]
				: []),
		];
	}
	async function profileRuns(profileJobs) {
		log('\n# CPU profiles (one extra run each, not counted in the figures)');
		const profiles = [];
		for (const p of profileJobs) {
			const file = path.join(OUT, `${p.key}-${p.way}.cpuprofile`);
			const r = await runJob(sandbox, { ...p, nodesBase, profile: file });
			const summary = summarise(JSON.parse(fs.readFileSync(file, 'utf8')), 15);
			profiles.push({ ...p, file: path.relative(ROOT, file), wallMs: r.wallMs, summary });
			log(
				`\n## ${p.key} / ${p.way}${p.items ? ` (${p.items} items)` : ''}, ${fmt(r.wallMs)} ms under the profiler`,
			);
			log(formatProfile(summary));
		}
		return profiles;
	}
	async function rounds(scenario, key, n, jobFor, theseWays = ways) {
		for (let round = 0; round < n; round++) {
			const order = theseWays.map((_, i) => theseWays[(i + round) % theseWays.length]); // rotate who goes first
			for (const way of order) {
				const job = { ...jobFor(way), scenario, way, nodesBase };
				const r = await runJob(sandbox, job);
				results.push({ scenario, key, way, round, ...r });
				log(
					`  ${key.padEnd(14)} ${way.padEnd(11)} round ${round + 1}/${n}: ${fmt(r.wallMs).padStart(6)} ms, ` +
						`${r.requests} requests, cpu ${fmt(r.cpuMs)} ms, peak ${fmt(r.peakRssMb)} MB (+${fmt(r.peakRssMb - r.baseRssMb)})` +
						(r.limited
							? `; ${r.limited.limits.limited} 429s, ${r.failed ?? 0} failed, ${r.limited.doubled} applied twice, max ${r.limited.limits.maxInFlightSeen} in flight`
							: ''),
				);
			}
		}
	}

	if (ONLY_WRITES) {
		await writeRounds();
		const profiles = PROFILE
			? await profileRuns(profileJobsFor(writeTarget).filter((p) => p.scenario === 'write'))
			: [];
		sandbox.child.send({ cmd: 'close' });
		return printWrites(results, profiles);
	}
	log(
		`\n# ${LIMITED.writes} usage writes against an API with ${LIMITS.latencyMs}+${LIMITS.jitterMs} ms latency and ${LIMITS.ratePerSecond} requests/s`,
	);
	const limitedWays = nodesBase ? LIMITED_WRITE_WAYS : ['node'];
	await rounds(
		'limited-write',
		'limited-write',
		LIMITED.writeRounds,
		() => ({ target: targets.limited, warmTarget: writeTarget, items: LIMITED.writes }),
		limitedWays,
	);
	log(`\n# Return All of ${LIMITED.invoices} invoices from the same API`);
	await rounds('list', 'limited-list', LIMITED.listRounds, () => ({ target: targets.limited }));
	if (ONLY_LIMITED) {
		sandbox.child.send({ cmd: 'close' });
		return finish({
			host,
			loadBefore,
			started,
			nodesBase,
			nodesBaseVersion,
			ways,
			results,
			profiles: [],
		});
	}

	log("\n# Return All of one customer's invoices (page size 1000)");
	for (const size of CONFIG.listSizes) {
		await rounds('list', `list-${size}`, CONFIG.listRounds[size], () => ({
			target: targets[size],
		}));
	}
	log(`\n# Limit ${CONFIG.limit.limit} from a ${CONFIG.limit.size}-invoice customer`);
	await rounds('limit', 'limit', CONFIG.limit.rounds, () => ({
		target: targets[CONFIG.limit.size],
		limit: CONFIG.limit.limit,
	}));
	await writeRounds();
	log('\n# Loading the package (PackageDirectoryLoader on the repo root)');
	await rounds('load', 'load', CONFIG.loadRounds, () => ({ target: writeTarget }));

	// ---- profiles of our node where it matters --------------------------------------------
	const profiles = PROFILE ? await profileRuns(profileJobsFor()) : [];
	sandbox.child.send({ cmd: 'close' });
	finish({
		host,
		loadBefore,
		started,
		nodesBase,
		nodesBaseVersion,
		ways: writeWays,
		results,
		profiles,
	});
}

/** BENCH_ONLY=writes: this node against the HTTP Request node, per write mode (medians), and the profiles. */
function printWrites(results, profiles) {
	const lines = [
		'| writes | node wall / CPU ms | declarative floor wall / CPU ms | HTTP Request wall / CPU ms | CPU ratio | wall ratio | floor CPU ratio |',
		'|---|---|---|---|---|---|---|',
	];
	for (const mode of WRITE_MODES) {
		const runs = (way) => results.filter((r) => r.key === `write-${mode.id}` && r.way === way);
		if (runs('node').length === 0) continue;
		const [node, floor, http] = ['node', 'floor', 'httpRequest'].map((way) => ({
			wall: median(runs(way).map((r) => r.wallMs)),
			cpu: median(runs(way).map((r) => r.cpuMs)),
		}));
		lines.push(
			`| ${mode.label} | ${fmt(node.wall)} / ${fmt(node.cpu)} | ${fmt(floor.wall)} / ${fmt(floor.cpu)} | ${fmt(http.wall)} / ${fmt(http.cpu)} | ${fmtRatio(ratio(node.cpu, http.cpu))} | ${fmtRatio(ratio(node.wall, http.wall))} | ${fmtRatio(ratio(floor.cpu, http.cpu))} |`,
		);
	}
	log(
		`\n${lines.join('\n')}\n${profiles.length} profiles in bench/out/ (RESULTS.md is written by full runs only)`,
	);
}

function finish({
	host,
	loadBefore,
	started,
	nodesBase,
	nodesBaseVersion,
	ways,
	results,
	profiles,
}) {
	const run = {
		host,
		loadBefore,
		loadAfter: os.loadavg(),
		elapsed: (Date.now() - started) / 1000,
		date: new Date().toISOString(),
		ways,
		nodesBase,
		nodesBaseVersion,
		config: CONFIG,
		limitsConfig: { limits: LIMITS, ...LIMITED },
		onlyLimited: ONLY_LIMITED,
		results,
		profiles,
	};
	fs.writeFileSync(
		path.join(OUT, ONLY_LIMITED ? 'last-limited-run.json' : 'last-run.json'),
		JSON.stringify(run),
	);
	report(run);
}

/** Figures, goals, the plot and RESULTS.md from a run (also: node bench/run.js --render). */
function report(run) {
	const { config: CONFIG, results, ways, nodesBaseVersion, elapsed } = run;
	const limited = limitedReport(run);
	if (run.onlyLimited) {
		const text = `${limited.tables.join('\n\n')}\n\n### Goals\n\n${goalsTable(limited.goals).join('\n')}\n`;
		log(`\n${text}\ntotal ${fmt(elapsed)} s`);
		fs.writeFileSync(path.join(OUT, 'limited-results.md'), text);
		fs.writeFileSync(path.join(OUT, 'rate-limited-writes.svg'), limited.svg);
		log(
			'wrote bench/out/limited-results.md, bench/out/rate-limited-writes.svg (RESULTS.md is written by full runs only)',
		);
		return;
	}
	// ---- figures ----------------------------------------------------------------------------
	const stats = {};
	for (const r of results) {
		const s = (stats[r.key] ??= {});
		(s[r.way] ??= []).push(r);
	}
	const figure = (key, way) => {
		const runs = stats[key]?.[way];
		if (!runs) return undefined;
		const wall = median(runs.map((r) => r.wallMs));
		const requests = median(runs.map((r) => r.requests));
		return {
			runs: runs.length,
			wallMs: wall,
			minMs: Math.min(...runs.map((r) => r.wallMs)),
			maxMs: Math.max(...runs.map((r) => r.wallMs)),
			requests,
			rps: requests / (wall / 1000),
			cpuMs: median(runs.map((r) => r.cpuMs)),
			sandboxCpuMs: median(runs.map((r) => r.sandboxCpuMs)),
			connections: median(runs.map((r) => r.connections)),
			peakMb: median(runs.map((r) => r.peakRssMb)),
			deltaMb: median(runs.map((r) => r.peakRssMb - r.baseRssMb)),
			count: runs[0].count,
			statuses: runs[runs.length - 1].statuses,
		};
	};
	const F = {};
	for (const key of Object.keys(stats)) {
		F[key] = {};
		for (const way of ways) F[key][way] = figure(key, way);
	}

	// ---- goals ------------------------------------------------------------------------------
	const goals = [];
	const goal = (name, measured, pass, rule) => goals.push({ name, measured, pass, rule });
	const listKeys = [...CONFIG.listSizes.map((s) => `list-${s}`), 'limit'];
	for (const key of listKeys) {
		const n = F[key].node;
		const l = F[key].loop;
		const h = F[key].httpRequest;
		goal(
			`${key}: wall time vs plain loop`,
			fmtRatio(ratio(n.wallMs, l.wallMs)),
			ratio(n.wallMs, l.wallMs) <= 1.25,
			'<= 1.25x',
		);
		if (h)
			goal(
				`${key}: wall time vs HTTP Request node`,
				fmtRatio(ratio(n.wallMs, h.wallMs)),
				ratio(n.wallMs, h.wallMs) <= 1.05,
				'<= 1.05x (not slower, 5% noise margin)',
			);
	}
	goal(
		`limit: requests for Limit ${CONFIG.limit.limit}`,
		`${F.limit.node.requests} (loop ${F.limit.loop.requests})`,
		F.limit.node.requests === 1,
		'one page',
	);
	const big = `list-${Math.max(...CONFIG.listSizes)}`;
	goal(
		`${big}: peak memory over baseline vs plain loop`,
		`${fmtRatio(ratio(F[big].node.deltaMb, F[big].loop.deltaMb))} (${fmt(F[big].node.deltaMb)} vs ${fmt(F[big].loop.deltaMb)} MB; absolute ${fmt(F[big].node.peakMb)} vs ${fmt(F[big].loop.peakMb)} MB)`,
		ratio(F[big].node.deltaMb, F[big].loop.deltaMb) <= 1.5,
		'<= 1.5x',
	);
	for (const mode of WRITE_MODES) {
		const k = `write-${mode.id}`;
		if (!F[k]) continue; // a run from before the mode existed (--render)
		if (isBulk(mode)) {
			goal(
				`${k}: per-item wall time vs plain loop`,
				fmtRatio(ratio(F[k].node.wallMs, F[k].loop.wallMs)),
				ratio(F[k].node.wallMs, F[k].loop.wallMs) <= 1.25,
				'<= 1.25x',
			);
			goal(
				`${k}: per-item client CPU vs plain loop`,
				fmtRatio(ratio(F[k].node.cpuMs, F[k].loop.cpuMs)),
				ratio(F[k].node.cpuMs, F[k].loop.cpuMs) <= 1.25,
				'<= 1.25x (informative)',
			);
		}
		if (F[k].httpRequest) {
			// issue 38: writes at the HTTP Request node's cost, in each mode; a run's fixed cost within 5%
			const limit = mode.id === 'single' ? 1.05 : 1.1;
			const wall = ratio(F[k].node.wallMs, F[k].httpRequest.wallMs);
			const cpu = ratio(F[k].node.cpuMs, F[k].httpRequest.cpuMs);
			goal(
				`${k}: wall time vs HTTP Request node`,
				fmtRatio(wall),
				wall <= limit,
				`<= ${limit.toFixed(2)}x`,
			);
			if (mode.id !== 'single')
				goal(
					`${k}: client CPU vs HTTP Request node`,
					fmtRatio(cpu),
					cpu <= limit,
					`<= ${limit.toFixed(2)}x`,
				);
			const floor = F[k].floor;
			if (floor) {
				// what any declarative node pays (n8n's RoutingNode) against what this node adds to it
				const figures = (f) => (mode.id === 'single' ? f.wallMs : f.cpuMs);
				const what = mode.id === 'single' ? 'wall time' : 'client CPU';
				const [n, fl, h] = [F[k].node, floor, F[k].httpRequest].map(figures);
				// the guarantees' price on a write's client CPU, decided (all or nothing, the rate budget, retry keys)
				const floorLimit = mode.id === 'single' ? limit : FLOOR_CPU_LIMIT;
				goal(
					`${k}: ${what}, n8n's floor for a declarative node vs HTTP Request node`,
					`${fmtRatio(ratio(fl, h))} (${fmt(fl)} vs ${fmt(h)} ms)`,
					true,
					'informative: a floor this node cannot go under',
				);
				goal(
					`${k}: ${what}, this node vs n8n's floor for a declarative node`,
					`${fmtRatio(ratio(n, fl))} (this node ${fmt(n)}, the floor ${fmt(fl)}, the HTTP Request node ${fmt(h)} ms)`,
					ratio(n, fl) <= floorLimit,
					`<= ${floorLimit.toFixed(2)}x`,
				);
			}
		}
	}
	{
		const seq = F['write-seq'];
		const b16 = F['write-batch16'];
		const scale = ratio(b16.node.rps, seq.node.rps);
		const ofServed = ratio(b16.node.rps, b16.loop.rps);
		goal(
			'writes: batching scales throughput up to what the sandbox serves (node, batch 16)',
			`${fmt((ofServed ?? 0) * 100)}% of the ${fmt(b16.loop.rps)} req/s the sandbox serves the loop at 16 in flight (node: ${fmt(seq.node.rps)} req/s at batch 1 -> ${fmt(b16.node.rps)} at batch 16, ${fmtRatio(scale)})`,
			ofServed >= 0.8,
			'>= 80% of what the sandbox serves the loop at the same concurrency',
		);
	}
	const perInvoice = (key, way) =>
		F[key]?.[way] ? (F[key][way].wallMs * 1000) / F[key][way].count : undefined;
	{
		const small = 'list-10000';
		const g = ratio(perInvoice(big, 'node'), perInvoice(small, 'node'));
		goal(
			`growth: time per invoice at ${big.slice(5)} vs 10000 (node)`,
			`${fmtRatio(g)} (${fmt(perInvoice(small, 'node'), 1)} -> ${fmt(perInvoice(big, 'node'), 1)} µs)`,
			g <= 1.25,
			'<= 1.25x (flat)',
		);
	}

	// ---- print ------------------------------------------------------------------------------
	const tables = [];
	const table = (title, keys, unitLabel, perUnit) => {
		const lines = [];
		lines.push(`### ${title}`, '');
		lines.push(
			`| scenario | way | runs | median wall ms (min–max) | requests | req/s | ${unitLabel} | client CPU ms | sandbox CPU ms | TCP conns | peak RSS MB | peak − baseline MB | vs loop | vs HTTP Request |`,
		);
		lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
		for (const key of keys) {
			for (const way of ways) {
				const f = F[key]?.[way];
				if (!f) continue;
				lines.push(
					`| ${key} | ${way} | ${f.runs} | ${fmt(f.wallMs)} (${fmt(f.minMs)}–${fmt(f.maxMs)}) | ${fmt(f.requests)} | ${fmt(f.rps)} | ${perUnit(f)} | ${fmt(f.cpuMs)} | ${fmt(f.sandboxCpuMs)} | ${fmt(f.connections)} | ${fmt(f.peakMb)} | ${fmt(f.deltaMb)} | ${way === 'loop' ? '1.00x' : fmtRatio(ratio(f.wallMs, F[key].loop?.wallMs))} | ${F[key].httpRequest && way !== 'httpRequest' ? fmtRatio(ratio(f.wallMs, F[key].httpRequest.wallMs)) : '–'} |`,
				);
			}
		}
		tables.push(lines.join('\n'));
	};
	table('Lists: Return All (page size 1000) and Limit', listKeys, 'µs per invoice', (f) =>
		fmt((f.wallMs * 1000) / f.count, 1),
	);
	table(
		`Writes: ${CONFIG.writeItems} items (paced: 50, single: 1), each PATCH /usage`,
		WRITE_MODES.map((m) => `write-${m.id}`),
		'µs per item',
		(f) => fmt((f.wallMs * 1000) / f.count, 0),
	);
	table('Loading the package', ['load'], 'loaded', (f) => fmt(f.count));

	if (limited) {
		tables.push(...limited.tables);
		goals.push(...limited.goals);
		fs.writeFileSync(path.join(__dirname, 'rate-limited-writes.svg'), limited.svg);
	}
	const goalLines = goalsTable(goals);

	log(`\n${tables.join('\n\n')}\n\n### Goals\n\n${goalLines.join('\n')}\n`);
	log(`total ${fmt(elapsed)} s`);

	// ---- plot + RESULTS.md ------------------------------------------------------------------
	const series = ways
		.map((way) => ({
			way,
			points: CONFIG.listSizes
				.map((size) => ({ size, us: perInvoice(`list-${size}`, way) }))
				.filter((p) => p.us !== undefined),
		}))
		.filter((s) => s.points.length > 0);
	fs.writeFileSync(
		path.join(__dirname, 'time-per-invoice.svg'),
		timePerInvoiceSvg(series, {
			title: 'Return All: wall time per invoice (median)',
			nodesBaseVersion,
		}),
	);

	fs.writeFileSync(
		path.join(__dirname, 'RESULTS.md'),
		renderResults({ ...run, tables, goalLines }),
	);
	log(
		'wrote bench/RESULTS.md, bench/time-per-invoice.svg (figures of this run: bench/out/last-run.json)',
	);
}

function renderResults({
	host,
	loadBefore,
	loadAfter,
	elapsed,
	date,
	ways,
	nodesBase,
	nodesBaseVersion,
	tables,
	goalLines,
	profiles,
	config,
}) {
	const lines = [];
	lines.push('# Benchmarks: this node vs the HTTP Request node vs a plain HTTP loop', '');
	lines.push(
		'Generated by the benchmarks (`npm run bench` writes this part; bench:queue, bench:https, bench:trigger and bench:bookkeeping their own sections): the last run of each, do not edit by hand. What the figures mean: [FINDINGS.md](FINDINGS.md).',
		'',
	);
	lines.push('## Machine', '');
	lines.push(
		`- ${host.nproc} CPUs (${host.cpu}), ${host.memoryGb.toFixed(1)} GiB memory, Linux ${host.kernel}`,
	);
	lines.push(
		`- Node ${host.node}; n8n-core ${host.n8nCore}, n8n-workflow ${host.n8nWorkflow}; n8n-nodes-base ${nodesBaseVersion ?? 'not installed'}${nodesBase ? ` (${path.relative(ROOT, nodesBase)})` : ''}`,
	);
	lines.push(
		`- load average ${loadBefore.map((x) => x.toFixed(1)).join(' / ')} before, ${loadAfter.map((x) => x.toFixed(1)).join(' / ')} after (1/5/15 min): other processes share these 2 cores, so absolute times move from run to run; the three ways alternate within each round so they share the same conditions`,
	);
	lines.push(`- run took ${Math.round(elapsed)} s; finished ${date}`, '');
	lines.push('## Command', '');
	lines.push('```', 'npm run bench        # = node bench/run.js', '```', '');
	lines.push('## Method', '');
	lines.push(
		`- Ways: ${ways.map((w) => `\`${w}\``).join(', ')}. \`node\`: this package's built dist/ through n8n-core's WorkflowExecute (test/harness); ` +
			'`httpRequest`: n8n-nodes-base HTTP Request V3 (typeVersion 4.4) through the same engine, X-SERVICE-KEY as a plain header, list pagination "Response Contains Next URL" = `{{ $response.body.next }}`, complete when `{{ $response.body.next === null }}`; ' +
			"`floor` (writes only): n8n's floor for a declarative node, a node of routing definitions alone that sends the same PATCH /usage with the same three expressions (bench/lib/floor-node.js), through the same engine; " +
			'`loop`: `http.request` on an `http.Agent({ keepAlive: true })`, the same pages/requests, the same JSON.parse, all results held until measured.',
	);
	lines.push(
		'- The sandbox (test/sandbox) runs in its own process (bench/lib/sandbox-server.js) with one sandbox per list size; its CPU per run is shown as "sandbox CPU".',
	);
	lines.push(
		'- Every measured run is a fresh process (bench/lib/worker.js, forked with --expose-gc): load, warm up (two small runs of the same way), gc, reset the peak-RSS mark (`/proc/self/clear_refs` = 5), run, read VmHWM while the results are still held. ' +
			'"peak RSS" is VmHWM; "peak − baseline" subtracts the RSS after loading and gc (n8n-core alone is ~90 MB that the loop does not load). Medians over the rounds; ways alternate, the first way rotates each round.',
	);
	lines.push(
		`- Rounds: lists ${Object.entries(config.listRounds)
			.map(([s, r]) => `${s}: ${r}`)
			.join(', ')}; limit ${config.limit.rounds}; writes ${Object.entries(config.writeRounds)
			.map(([m, r]) => `${m}: ${r}`)
			.join(
				', ',
			)} (the n8n write runs take 5–15 s each, so fewer rounds there); package load ${config.loadRounds}.`,
	);
	lines.push('- Writes, what "sequential" means for each way:');
	for (const m of WRITE_MODES) lines.push(`  - \`write-${m.id}\` (${m.label}): ${m.explain}`);
	lines.push(
		'- Package load: `new PackageDirectoryLoader(repoRoot).loadAll()` in a fresh process with n8n-core already loaded (as in n8n); `httpRequest` row: requiring and constructing the HTTP Request V3 node for reference; `loop`: nothing to load.',
		'',
	);
	lines.push('## Figures (last run)', '');
	lines.push(tables.join('\n\n'), '');
	lines.push('![time per invoice](time-per-invoice.svg)', '');
	if (fs.existsSync(path.join(__dirname, 'rate-limited-writes.svg')))
		lines.push('![answers per second against a rate-limited API](rate-limited-writes.svg)', '');
	lines.push('## Goals', '');
	lines.push(goalLines.join('\n'), '');
	if (profiles.length) {
		lines.push(
			`CPU profiles of this run (one extra run each, printed with the figures; \`node bench/lib/profile-summary.js <file>\` summarises one): ${profiles.map((p) => `${p.file} (${Math.round(p.wallMs)} ms)`).join(', ')}.`,
			'',
		);
	}
	// the "Queue mode" section at the end is written by bench/queue.js: kept as it is
	const previous = fs.existsSync(path.join(__dirname, 'RESULTS.md'))
		? fs.readFileSync(path.join(__dirname, 'RESULTS.md'), 'utf8')
		: '';
	const queueSection = previous.indexOf('\n## Queue mode\n');
	if (queueSection >= 0) lines.push(previous.slice(queueSection + 1).trim(), '');
	return lines.join('\n');
}

module.exports = { buildPackage, startSandbox, runJob, pin, LIMITS };

if (require.main !== module) {
	// used as a library (bench/https.js, bench/bookkeeping.js)
} else if (process.argv.includes('--render')) {
	report(JSON.parse(fs.readFileSync(path.join(OUT, 'last-run.json'), 'utf8')));
} else {
	main().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
