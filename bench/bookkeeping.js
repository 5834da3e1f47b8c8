#!/usr/bin/env node
'use strict';
// node bench/bookkeeping.js
//
// What the package keeps for itself grows with the work, not faster: the run gate of a run over
// many items (execute/run.ts: every item checked before the first request; the items by outcome
// when the API refused one) and the trigger's saved state (trigger/state/triggerState.ts: the customers table
// and the invoice rows joined when saved, split when read). Each at several sizes in one run, the
// median of 5; the time per item (or per customer) should stay flat from 20,000 items and 10,000 customers on.
// And the saved state's bytes for several make-ups of a customer's invoices (open, paid and issued
// within the look-back window, failed payments), written by the trigger's own tables, beside the
// bytes the per-part figures of docs/trigger.md predict (bench/lib/state-figures.js). Writes the
// "Bookkeeping at scale" section of bench/RESULTS.md.
//   BENCH_BUILD=bench/dist/<folder>: build there instead of bench/dist/pkg (bench/lib/bench-build.js).

const os = require('node:os');
const path = require('node:path');
const { buildBench } = require('./lib/bench-build');
const { writeSection, goalsTable } = require('./lib/results-section');
const { predictState, errorPercent, emptyMakeup } = require('./lib/state-figures');

const ROUNDS = 5;
const ITEMS = [1000, 20000, 100000];
const CUSTOMERS = [10000, 100000];
/** The customers of the make-ups' states, and how far the per-part figures may miss. */
const MAKEUP_CUSTOMERS = 10000;
const PREDICTION_PERCENT = 15;
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

function load(built) {
	const dist = path.join(built, 'nodes', 'SubscriptionBilling');
	return {
		RunGate: require(path.join(dist, 'execute', 'runGate')).RunGate,
		state: require(path.join(dist, 'trigger', 'state', 'triggerState')),
		RecordTable: require(path.join(dist, 'trigger', 'state', 'recordTable')).RecordTable,
		InvoiceTable: require(path.join(dist, 'trigger', 'state', 'invoiceTable')).InvoiceTable,
		fingerprint: require(path.join(dist, 'trigger', 'state', 'cells')).fingerprint,
		CUSTOMER_FIELDS: require(path.join(dist, 'trigger', 'events', 'fieldChanges')).CUSTOMER_FIELDS,
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

const ONE_OPEN = {
	name: 'one open invoice, issued within the window',
	open: () => 1,
	issued: () => 1,
};

/**
 * Make-ups of a customer's invoices (customer `i`): open, paid within the look-back window,
 * issued within it (the newest open ones), failed payments on an open one, overdue ones.
 */
const MAKEUPS = [
	ONE_OPEN,
	{
		name: '1 open, a week of paid (7 / 30 a customer)',
		open: () => 1,
		paid: (i) => (i % 30 < 7 ? 1 : 0),
		issued: (i) => (i % 30 < 7 ? 1 : 0),
	},
	{
		name: '3 open, a week of paid (7 / 10 a customer)',
		open: () => 3,
		paid: (i) => (i % 10 < 7 ? 1 : 0),
		issued: (i) => (i % 10 < 7 ? 1 : 0),
	},
	{
		name: '3 open, a week of paid, 2 failed payments at every 5th customer, every 4th overdue',
		open: () => 3,
		paid: (i) => (i % 10 < 7 ? 1 : 0),
		issued: (i) => (i % 10 < 7 ? 1 : 0),
		failed: (i) => (i % 5 === 0 ? 2 : 0),
		overdue: (i) => i % 4 === 0,
	},
	{
		name: '1 open, a 90-day window of monthly payments (3 paid, 3 issued)',
		open: () => 1,
		paid: () => 3,
		issued: () => 3,
	},
	{
		name: '3 open, a week of paid, every 12th customer renewing and ending within 30 days (Renewal Due, Ending Soon)',
		open: () => 3,
		paid: (i) => (i % 10 < 7 ? 1 : 0),
		issued: (i) => (i % 10 < 7 ? 1 : 0),
		inWindow: (i) => i % 12 === 0,
	},
	{ name: 'no invoices', open: () => 0 },
];

const uuidOf = (i, n) =>
	`00000000-0000-4000-8${String(n).padStart(3, '0')}-${String(i).padStart(12, '0')}`;

/**
 * A state as the families leave it: every customer with six hashed fields (legal name null at
 * every third, tax ID at every second) and its invoices as `makeup` has them; with the make-up's
 * counts (bench/lib/state-figures.js predictState).
 */
function familiesState(
	{ RecordTable, InvoiceTable, fingerprint, CUSTOMER_FIELDS },
	customers,
	makeup = ONE_OPEN,
) {
	const columns = [...CUSTOMER_FIELDS];
	const table = new RecordTable(
		columns,
		columns.map(() => 'h'),
	);
	const invoices = InvoiceTable.read(undefined);
	const counts = emptyMakeup(customers);
	const count = (of, i) => (makeup[of] ? makeup[of](i) : 0);
	for (let i = 0; i < customers; i++) {
		const print = fingerprint(`customer-${i}`);
		const value = (column) =>
			(column === 'legal_name' && i % 3 === 2) || (column === 'tax_id' && i % 2 === 1)
				? null
				: `${column} ${i}`;
		table.rows.set(
			print,
			columns.map((column) => table.cell(column, value(column))),
		);
		counts.nullCustomerFields += columns.filter((column) => value(column) === null).length;
		const watched = {};
		const known = [];
		const open = count('open', i);
		const failed = count('failed', i);
		for (let n = 0; n < open; n++)
			watched[uuidOf(i, n)] = {
				status: 'OPEN',
				failed:
					n === 0 && failed > 0
						? Array.from({ length: failed }, (_, k) => fingerprint(`payment-${i}-${k}`))
								.sort()
								.join('')
						: '',
				overdue: n === open - 1 && makeup.overdue?.(i) === true,
			};
		for (let n = 0; n < count('paid', i); n++)
			watched[uuidOf(i, 100 + n)] = {
				status: 'PAID',
				failed: '',
				overdue: false,
				paidAt: 1_790_000_000_000 + i * 1000 + n,
			};
		for (let n = 0; n < count('issued', i); n++) known.push(fingerprint(uuidOf(i, n)));
		invoices.set(print, { known: known.sort().join(''), watched });
		counts.openInvoices += open;
		counts.paidInvoices += count('paid', i);
		counts.issuedInvoices += known.length;
		if (known.length > 0) counts.customersWithIssued++;
		if (Object.keys(watched).length > 0) counts.customersWithWatched++;
		if (failed > 0) counts.invoicesWithFailedPayments++;
		counts.failedPayments += failed;
	}
	// Ending Soon and Renewal Due: the `id|date` pairs reported and still inside the window (idSet.ts).
	const windows = { endingSoon: [], renewalDue: [] };
	for (let i = 0; i < customers; i++)
		if (makeup.inWindow?.(i))
			for (const [key, list] of Object.entries(windows)) {
				list.push(fingerprint(`subscription-${i}|2026-10-0${key === 'endingSoon' ? 1 : 2}`));
				counts[key]++;
			}
	const dateWindows = Object.fromEntries(
		Object.entries(windows)
			.filter(([, list]) => list.length > 0)
			.map(([key, list]) => [key, list.sort().join('')]),
	);
	return {
		state: {
			format: 2,
			customerList: {
				events: ['newCustomer', 'customerUpdated'],
				customers: table.store(),
				...dateWindows,
			},
			invoices: {
				events: ['newInvoice', 'invoicePaid'],
				customer: '*',
				sweep: { startedAt: 0, lookBackMs: 0 },
				customers: invoices.store(),
			},
		},
		counts,
	};
}

/** Each make-up's saved state at `customers` customers: measured bytes beside the predicted. */
function makeupRows(lib, customers) {
	return MAKEUPS.map((makeup) => {
		const { state, counts } = familiesState(lib, customers, makeup);
		const data = {};
		lib.state.writeTriggerState({ getWorkflowStaticData: () => data }, state);
		const measured = JSON.stringify(data).length;
		const predicted = predictState(counts).total;
		return { name: makeup.name, customers, counts, measured, predicted };
	});
}

async function main() {
	const started = Date.now();
	const lib = load(buildBench());
	const gateRows = [];
	for (const n of ITEMS) {
		const valid = await timed(() => validRun(lib.RunGate, n));
		const refused = await timed(() => refusedRun(lib.RunGate, n));
		gateRows.push({ n, valid, refused });
		log(`run gate, ${n} items: all checked ${fmt(valid, 1)} ms, one refused ${fmt(refused, 1)} ms`);
	}
	const stateRows = [];
	for (const n of CUSTOMERS) {
		const written = familiesState(lib, n).state;
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
	const makeups = makeupRows(lib, MAKEUP_CUSTOMERS);
	for (const r of makeups)
		log(
			`trigger state, ${fmt(r.customers)} customers, ${r.name}: ${fmt(r.measured)} bytes, predicted ${fmt(r.predicted)} (${fmt(errorPercent(r.measured, r.predicted), 1)}%)`,
		);
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
	const worst = makeups.reduce((a, r) =>
		Math.abs(errorPercent(r.measured, r.predicted)) >
		Math.abs(errorPercent(a.measured, a.predicted))
			? r
			: a,
	);
	goals.push({
		name: 'trigger state: bytes predicted by the per-part figures, the worst make-up',
		measured: `${fmt(errorPercent(worst.measured, worst.predicted), 1)}% (${worst.name})`,
		rule: `within ${PREDICTION_PERCENT}%`,
		pass: Math.abs(errorPercent(worst.measured, worst.predicted)) <= PREDICTION_PERCENT,
	});
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
		`The saved state of ${fmt(MAKEUP_CUSTOMERS)} customers (the customer-list family's customers table with Customer Updated, the invoice family's rows; no subscriptions) for make-ups of their invoices, written by the trigger's tables, beside the bytes the per-part figures of docs/trigger.md predict from the make-up's counts (bench/lib/state-figures.js, whose fixed part, 1.2 KB, is the full state's headers, sweep and pass: more than this state has).`,
		'',
		'| make-up | open | paid in the window | issued in the window | failed payments | saved bytes | predicted | error |',
		'|---|---|---|---|---|---|---|---|',
		...makeups.map(
			(r) =>
				`| ${r.name} | ${fmt(r.counts.openInvoices)} | ${fmt(r.counts.paidInvoices)} | ${fmt(r.counts.issuedInvoices)} | ${fmt(r.counts.failedPayments)} | ${fmt(r.measured)} | ${fmt(r.predicted)} | ${fmt(errorPercent(r.measured, r.predicted), 1)}% |`,
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
