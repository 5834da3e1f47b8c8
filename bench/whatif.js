#!/usr/bin/env node
'use strict';
// node bench/whatif.js   (after `node bench/run.js` has built bench/dist/pkg)
//
// Backs the fixes suggested in bench/FINDINGS.md with numbers: copies the built node into
// bench/dist/variants/<name>/, applies one suggested change to the compiled JavaScript, and
// measures the client CPU of the same job in a warm process (3 runs after 2 warm-ups, median)
// against the sandbox in its own process. CPU time, not wall time, so that other load on the
// machine matters less. A change whose target text is no longer in the build is reported as
// "n/a" (the code moved on: update the patch or drop it).

const fs = require('node:fs');
const path = require('node:path');
const { fork, spawnSync } = require('node:child_process');

const PKG = path.join(__dirname, 'dist', 'pkg', 'dist');
const VARIANTS = path.join(__dirname, 'dist', 'variants');
const REPS = Number(process.env.WHATIF_REPS || 1); // processes per variant and job (each: 3 measured runs, median)

/** name -> [file under nodes/SubscriptionBilling, text, replacement][] */
const CHANGES = {
	// undoing this package's own cuts, to show what they saved
	'as before: credential read for every item (perform.ts)': [
		['execute/perform.js', 'const credentials = await (0, apiCredentials_1.runCredentials)(this);', "const credentials = await this.getCredentials('subscriptionBillingApi');"],
	],
	'as before: baseURL expression in requestDefaults, evaluated for every item (node.ts)': [
		[
			'SubscriptionBilling.node.js',
			"requestDefaults: { headers: { Accept: 'application/json' } },",
			`requestDefaults: { baseURL: '={{ $credentials.environment === "staging" ? $credentials.stagingBaseUrl : $credentials.productionBaseUrl }}', headers: { Accept: 'application/json' } },`,
		],
	],
	'as before: run index read through a WorkflowDataProxy (with its $now) for every write (idempotency.ts)': [
		['execute/idempotency.js', "return typeof carried === 'number' ? carried :", 'return false ? carried :'],
	],
	'as before: at most 16 in flight, no slow start (rateBudget.ts)': [
		['shared/rateBudget.js', 'exports.DEFAULT_MAX_CONCURRENT = 64;', 'exports.DEFAULT_MAX_CONCURRENT = 16;'],
	],
	// what is left, and why it stays
	'no request budget (rateBudget.ts; the budget is kept: it is what survives a rate limit)': [
		['shared/transport.js', 'const ticket = await budgetOf(session, options)?.acquire();', 'const ticket = undefined;'],
	],
};

function copyDir(src, dst) {
	fs.mkdirSync(dst, { recursive: true });
	for (const e of fs.readdirSync(src, { withFileTypes: true })) {
		const s = path.join(src, e.name);
		const d = path.join(dst, e.name);
		if (e.isDirectory()) copyDir(s, d);
		else fs.copyFileSync(s, d);
	}
}

/** Builds a variant; returns false when a change no longer applies. */
function buildVariant(name, changes) {
	const dir = path.join(VARIANTS, name);
	fs.rmSync(dir, { recursive: true, force: true });
	copyDir(path.join(PKG, 'nodes'), path.join(dir, 'nodes'));
	copyDir(path.join(PKG, 'credentials'), path.join(dir, 'credentials'));
	for (const [file, text, replacement] of changes) {
		const p = path.join(dir, 'nodes', 'SubscriptionBilling', file);
		const source = fs.readFileSync(p, 'utf8');
		if (!source.includes(text)) return false;
		fs.writeFileSync(p, source.replace(text, replacement));
	}
	return true;
}

// ---- the measured child ---------------------------------------------------------------------
async function child([variant, scenario, n]) {
	const harness = require(path.join(PKG, 'test', 'harness', 'index.cjs'));
	const dir = path.join(VARIANTS, variant);
	const { SubscriptionBilling } = require(path.join(dir, 'nodes', 'SubscriptionBilling', 'SubscriptionBilling.node.js'));
	const { SubscriptionBillingApi } = require(path.join(dir, 'credentials', 'SubscriptionBillingApi.credentials.js'));
	const credentials = { apiKey: process.env.WHATIF_KEY, environment: 'production', productionBaseUrl: process.env.WHATIF_BASE_URL };
	const run = (count) => {
		const common = { nodeType: new SubscriptionBilling(), credentialType: new SubscriptionBillingApi(), credentials };
		if (scenario === 'list') {
			const customerId = count ? process.env.WHATIF_CUSTOMER : process.env.WHATIF_SMALL_CUSTOMER;
			return harness.runNode({ ...common, parameters: { resource: 'invoice', operation: 'getManyForCustomer', customerId, returnAll: true, invoiceOutput: 'raw' } });
		}
		const items = Array.from({ length: count || 50 }, (_, i) => ({ transaction_id: `bench-usage-${i}`, value: i + Math.random() }));
		const parameters = {
			resource: 'usage',
			operation: 'update',
			transactionId: '={{ $json.transaction_id }}',
			value: '={{ $json.value }}',
			requestOptions: { batching: { batch: { batchSize: 50, batchInterval: 1 } } },
		};
		return harness.runNode({ ...common, parameters, items });
	};
	await run(0);
	await run(0);
	const cpu = [];
	for (let r = 0; r < 3; r++) {
		global.gc();
		const c0 = process.cpuUsage();
		const res = await run(Number(n));
		if (res.error) throw res.error;
		const c = process.cpuUsage(c0);
		cpu.push((c.user + c.system) / 1000);
	}
	harness.shutdownN8nCore();
	process.stdout.write(JSON.stringify(cpu.sort((a, b) => a - b)[1]));
	process.exit(0);
}

async function main() {
	if (!fs.existsSync(path.join(PKG, 'nodes'))) throw new Error('bench/dist/pkg is missing: run `node bench/run.js` (or npm run bench) first');
	const variants = { baseline: [] };
	for (const [name, changes] of Object.entries(CHANGES)) variants[name] = changes;
	const applicable = {};
	for (const [name, changes] of Object.entries(variants)) applicable[name] = buildVariant(slug(name), changes);

	const LIST = 100000;
	const WRITES = 2000;
	const sandbox = fork(path.join(__dirname, 'lib', 'sandbox-server.js'), [], {
		env: { ...process.env, BENCH_SIZES: JSON.stringify([LIST]), BENCH_WRITE_ITEMS: String(WRITES) },
	});
	const info = await new Promise((resolve) => sandbox.once('message', resolve));
	const t = info.sandboxes[LIST];
	const env = {
		...process.env,
		WHATIF_BASE_URL: t.baseUrl,
		WHATIF_KEY: t.apiKey,
		WHATIF_CUSTOMER: t.customerId,
		WHATIF_SMALL_CUSTOMER: t.smallCustomerId,
	};
	const jobs = [
		['list', LIST, `Return All of ${LIST.toLocaleString('en-US')} invoices`],
		['write', WRITES, `${WRITES.toLocaleString('en-US')} items, PATCH /usage`],
	];
	const rows = [];
	for (const [name] of Object.entries(variants)) {
		const row = { name, cells: [] };
		for (const [scenario, n] of jobs) {
			if (!applicable[name]) {
				row.cells.push(undefined);
				continue;
			}
			const samples = [];
			for (let rep = 0; rep < REPS; rep++) {
				const r = spawnSync(process.execPath, ['--expose-gc', __filename, '--child', slug(name), scenario, String(n)], { env, encoding: 'utf8' });
				if (r.status !== 0) throw new Error(`${name} ${scenario}: ${r.stderr}`);
				samples.push(Number(r.stdout));
			}
			row.cells.push(Math.min(...samples));
		}
		rows.push(row);
		process.stderr.write(`  ${name}: ${row.cells.map((c) => (c === undefined ? 'n/a' : `${Math.round(c)} ms`)).join(', ')}\n`);
	}
	sandbox.kill();
	const base = rows[0].cells;
	const lines = [`| change | ${jobs.map((j) => `${j[2]}: client CPU ms (vs baseline)`).join(' | ')} |`, `|---|${jobs.map(() => '---').join('|')}|`];
	for (const row of rows) {
		const cells = row.cells.map((c, i) => (c === undefined ? 'n/a (code changed)' : `${Math.round(c)} (${(((c - base[i]) / base[i]) * 100).toFixed(0)}%)`));
		lines.push(`| ${row.name} | ${cells.join(' | ')} |`);
	}
	process.stdout.write(`${lines.join('\n')}\n`);
}

function slug(name) {
	return name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase();
}

if (process.argv[2] === '--child') {
	child(process.argv.slice(3)).catch((error) => {
		console.error(error);
		process.exit(1);
	});
} else {
	main().catch((error) => {
		console.error(error);
		process.exit(1);
	});
}
