#!/usr/bin/env node
'use strict';
// node bench/bookkeeping.js
//
// What the package keeps for itself grows with the work, not faster: the run gate of a run over
// many items (execute/run.ts: every item checked before the first request; the items by outcome
// when the API refused one) and the trigger's saved state (trigger/state/triggerState.ts: the customers table
// and the invoice rows joined when saved, split when read). Each at several sizes in one run, the
// median of 5; the time per item (or per customer) should stay flat from 20,000 items and 10,000 customers on. Writes the "Bookkeeping at
// scale" section of bench/RESULTS.md.

const os = require('node:os');
const path = require('node:path');
const { buildPackage } = require('./run');
const { writeSection, goalsTable } = require('./lib/results-section');

const ROUNDS = 5;
const ITEMS = [1000, 20000, 100000];
const CUSTOMERS = [10000, 100000];
/**
 * Time per item at the largest size over that at the size before it. A cost that grows with the
 * square of the size gives the ratio of the sizes (5x, 10x); a linear one 1.1–2.1x over runs here
 * (the garbage collector works on a larger heap, as it does for bare promises).
 */
const FLAT = 3;

const log = (msg) => process.stdout.write(`${msg}\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x, digits = 0) =>
	x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function load() {
	const dist = path.join(__dirname, 'dist', 'pkg', 'dist', 'nodes', 'SubscriptionBilling');
	return {
		RunGate: require(path.join(dist, 'execute', 'run')).RunGate,
		state: require(path.join(dist, 'trigger', 'state', 'triggerState')),
		RecordTable: require(path.join(dist, 'trigger', 'state', 'recordTable')).RecordTable,
		InvoiceTable: require(path.join(dist, 'trigger', 'state', 'invoiceTable')).InvoiceTable,
		fingerprint: require(path.join(dist, 'trigger', 'state', 'fingerprint')).fingerprint,
	};
}

/** The median of ROUNDS runs, after one not counted (it compiles the code for this size). */
async function timed(run) {
	await run();
	const runs = [];
	for (let round = 0; round < ROUNDS; round++) {
		const started = performance.now();
		await run();
		runs.push(performance.now() - started);
	}
	return median(runs);
}

/** Every item checked, then each asks for the invalid ones, as perform.ts does before its first request. */
function validRun(RunGate, n) {
	const gate = new RunGate(n);
	return Promise.all(
		Array.from({ length: n }, async (_, index) => {
			await gate.whenChecked(index, undefined);
			gate.invalidItems();
		}),
	);
}

/** The API refused the first item; every other item was held back and asks which failed, as perform.ts does. */
function refusedRun(RunGate, n) {
	const gate = new RunGate(n);
	return Promise.all(
		Array.from({ length: n }, async (_, index) => {
			gate.record(index, index === 0 ? 'failed' : 'notSent');
			await gate.whenSettled();
			if (index > 0) gate.itemsWith('failed');
		}),
	);
}

/** A state as the families leave it: every customer with six hashed fields and one open invoice. */
function familiesState({ RecordTable, InvoiceTable, fingerprint }, customers) {
	const columns = [
		'name',
		'legal_name',
		'external_id',
		'address',
		'processor_customer_id',
		'tax_id',
	];
	const table = new RecordTable(
		columns,
		columns.map(() => 'h'),
	);
	const invoices = InvoiceTable.read(undefined);
	for (let i = 0; i < customers; i++) {
		const print = fingerprint(`customer-${i}`);
		table.rows.set(
			print,
			columns.map((column) => table.cell(column, `${column} ${i}`)),
		);
		const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
		invoices.set(print, {
			known: fingerprint(uuid),
			watched: { [uuid]: { status: 'OPEN', failed: '', overdue: false } },
		});
	}
	return {
		format: 2,
		customerList: { events: ['newCustomer', 'customerUpdated'], customers: table.store() },
		invoices: {
			events: ['newInvoice', 'invoicePaid'],
			customer: '*',
			sweep: { startedAt: 0, lookBackMs: 0 },
			customers: invoices.store(),
		},
	};
}

async function main() {
	const started = Date.now();
	buildPackage();
	const lib = load();
	const gateRows = [];
	for (const n of ITEMS) {
		const valid = await timed(() => validRun(lib.RunGate, n));
		const refused = await timed(() => refusedRun(lib.RunGate, n));
		gateRows.push({ n, valid, refused });
		log(`run gate, ${n} items: all checked ${fmt(valid, 1)} ms, one refused ${fmt(refused, 1)} ms`);
	}
	const stateRows = [];
	for (const n of CUSTOMERS) {
		const written = familiesState(lib, n);
		const data = {};
		const ctx = { getWorkflowStaticData: () => data };
		const save = await timed(() => lib.state.writeTriggerState(ctx, written));
		const bytes = JSON.stringify(data).length;
		const read = await timed(() => lib.state.readTriggerState(ctx));
		stateRows.push({ n, save, read, bytes });
		log(
			`trigger state, ${n} customers: save ${fmt(save)} ms, read ${fmt(read)} ms, ${fmt(bytes)} bytes`,
		);
	}
	const goals = [];
	const goal = (name, first, last, perFirst, perLast) =>
		goals.push({
			name,
			measured: `${fmt(perFirst, 2)} → ${fmt(perLast, 2)} µs (${fmt(first)} → ${fmt(last)})`,
			rule: `at most ${FLAT}x: flat`,
			pass: perLast <= perFirst * FLAT,
		});
	// from 20,000 items on: below, a run takes a few milliseconds and the promises' own cost still climbs (bare promises: 0.25 µs each at 10,000, 0.4 at 20,000, 0.76 at 100,000)
	const [g0, gN] = [gateRows[1], gateRows.at(-1)];
	goal(
		'run gate, all checked: per item',
		g0.n,
		gN.n,
		(g0.valid * 1000) / g0.n,
		(gN.valid * 1000) / gN.n,
	);
	goal(
		'run gate, one refused: per item',
		g0.n,
		gN.n,
		(g0.refused * 1000) / g0.n,
		(gN.refused * 1000) / gN.n,
	);
	const [s0, sN] = [stateRows[0], stateRows.at(-1)];
	goal(
		'trigger state, save: per customer',
		s0.n,
		sN.n,
		(s0.save * 1000) / s0.n,
		(sN.save * 1000) / sN.n,
	);
	goal(
		'trigger state, read: per customer',
		s0.n,
		sN.n,
		(s0.read * 1000) / s0.n,
		(sN.read * 1000) / sN.n,
	);
	const section = [
		'## Bookkeeping at scale',
		'',
		'Generated by `node bench/bookkeeping.js` — do not edit by hand.',
		'',
		`- ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model}), Node ${process.version}; load average ${os
			.loadavg()
			.map((x) => x.toFixed(1))
			.join(
				' / ',
			)}; run took ${Math.round((Date.now() - started) / 1000)} s, finished ${new Date().toISOString()}.`,
		`- The package's own bookkeeping, in one process, the median of ${ROUNDS} at each size. Run gate (execute/run.ts): every item checked and then asking for the invalid ones before its first request, as perform.ts does; and a run whose first item the API refused, every other item held back asking which failed. Trigger state (trigger/state/triggerState.ts): saving and reading the state the families leave with every customer holding six hashed fields and one open invoice (the customers table and the invoice rows joined when saved, split when read).`,
		'',
		'| run gate | all checked ms | one refused ms |',
		'|---|---|---|',
		...gateRows.map((r) => `| ${fmt(r.n)} items | ${fmt(r.valid, 1)} | ${fmt(r.refused, 1)} |`),
		'',
		'| trigger state | save ms | read ms | saved bytes |',
		'|---|---|---|---|',
		...stateRows.map(
			(r) => `| ${fmt(r.n)} customers | ${fmt(r.save)} | ${fmt(r.read)} | ${fmt(r.bytes)} |`,
		),
		'',
		...goalsTable(goals),
		'',
	].join('\n');
	log(`\n${section}`);
	writeSection('Bookkeeping at scale', section);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
