'use strict';
// The trigger's sweep of all customers against a rate-limited API: the sandbox answers after 40 ms
// and allows 100 requests/s (429 with Retry-After above it). Polls run back to back, as n8n would
// run them with a Poll Times interval no longer than a poll; each spends at most Requests Per Poll.
// Measures, per sweep (every customer visited once): requests per poll, sweep time against the
// ideal (requests ÷ limit, and customers ÷ limit as the issue states it), 429s and failed polls,
// the time from a change to the poll that emits it, and the state's size. The sandbox runs in its
// own process (trigger-sandbox.js), as the API would: its CPU and garbage collection do not stall
// the trigger's.

const path = require('node:path');
const { fork } = require('node:child_process');
const { BUILT } = require('./bench-build');

const LIMIT_PER_SECOND = 100;
const LATENCY_MS = 40;

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const percentile = (values, p) => {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** What the trigger remembers for its invoice events (trigger/state/triggerState.ts: its `invoices` section). */
const invoiceData = (staticData) => staticData.trigger?.invoices;

/** A module of the trigger as the bench built it (bench/lib/bench-build.js), e.g. `fromBuild('state', 'invoiceTable')`. */
const fromBuild = (...parts) =>
	require(path.join(BUILT, 'nodes', 'SubscriptionBilling', 'trigger', ...parts));

/** The trigger's own reader of the invoice section (state/invoiceTable.ts), from the bench's build. */
const invoiceTable = (section) => {
	const { InvoiceTable } = fromBuild('state', 'invoiceTable');
	return InvoiceTable.read(section?.customers);
};

/** Bytes of the state as n8n stores it (JSON), split into the per-customer part and the watched open invoices. */
function stateSize(staticData) {
	const total = JSON.stringify(staticData).length;
	const table = invoiceTable(invoiceData(staticData));
	let watched = 0;
	let watchedBytes = 0;
	for (const [print, row] of table.rows) {
		const count = Object.keys(table.get(print).watched).length;
		watched += count;
		// A row's cells: the known invoices' fingerprints, then the watched invoices.
		if (count > 0) watchedBytes += row[1].length;
	}
	return { total, watchedBytes, watched, customersStored: table.rows.size };
}

/** Every event of the trigger, in the catalog's order. */
function allEvents() {
	const catalog = fromBuild('events', 'catalog');
	return [...catalog.CUSTOMER_LIST_EVENTS, ...catalog.INVOICE_FAMILY_EVENTS];
}

/** The trigger of the bench's build, polling the sandbox process `sandbox` with `parameters`. */
function sandboxPoller({ Poller, Trigger, Credential }, sandbox, parameters) {
	return new Poller({
		nodeType: new Trigger(),
		credentialType: new Credential(),
		credentials: {
			apiKey: sandbox.info.apiKey,
			environment: 'production',
			productionBaseUrl: sandbox.info.baseUrl,
		},
		parameters,
	});
}

/** The sandbox process for one run; resolves once seeded and listening. */
function startSandboxProcess({
	customers,
	bigCustomerInvoices,
	openInvoices,
	limits = { latencyMs: LATENCY_MS, ratePerSecond: LIMIT_PER_SECOND },
}) {
	const child = fork(path.join(__dirname, 'trigger-sandbox.js'), [], {
		env: {
			...process.env,
			BENCH_CUSTOMERS: String(customers),
			BENCH_INVOICES: String(bigCustomerInvoices),
			BENCH_OPEN_INVOICES: openInvoices === undefined ? '' : String(openInvoices),
			BENCH_LIMITS: JSON.stringify(limits),
		},
		execArgv: ['--max-old-space-size=8192'],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	let nextId = 0;
	const pending = new Map();
	const call = (cmd, args = {}) =>
		new Promise((resolve, reject) => {
			const id = ++nextId;
			pending.set(id, { resolve, reject });
			child.send({ id, cmd, ...args });
		});
	return new Promise((resolve, reject) => {
		const exited = (code) => {
			const error = new Error(`the sandbox process exited with ${code}`);
			for (const { reject: fail } of pending.values()) fail(error);
			reject(error);
		};
		child.once('error', reject);
		child.once('exit', exited);
		child.on('message', (m) => {
			if (m.ready) {
				resolve({
					info: m,
					call,
					close: () =>
						new Promise((done) => {
							child.off('exit', exited);
							child.once('exit', done);
							child.disconnect();
						}),
				});
				return;
			}
			const waiter = pending.get(m.id);
			pending.delete(m.id);
			if (m.error) waiter.reject(new Error(m.error));
			else waiter.resolve(m);
		});
	});
}

/**
 * One run: `customers` customers, event `event` over all customers with `budget` requests per
 * poll. Sweep 1 is the silent first sweep; during sweep 2 an invoice is paid every `changeEveryMs`
 * (and issued, for New Invoice) and each change's time to emission is recorded; sweep 3 shows
 * whether the state grows from sweep to sweep.
 */
async function sweepRun({
	Poller,
	Trigger,
	Credential,
	customers,
	budget,
	event = 'invoicePaid',
	bigCustomerInvoices = 60000,
	sweeps = 3,
	changeEveryMs = 2000,
	log = console.log,
	progress = process.env.BENCH_PROGRESS === '1',
}) {
	const sandbox = await startSandboxProcess({ customers, bigCustomerInvoices });
	const { openInvoices } = sandbox.info;
	const poller = sandboxPoller({ Poller, Trigger, Credential }, sandbox, {
		events: [event],
		scope: 'all',
		requestsPerPoll: budget,
	});
	const sweepDone = () => {
		const data = invoiceData(poller.nodeStaticData);
		if (data === undefined)
			throw new Error(
				`the trigger's state has no invoice section: ${JSON.stringify(poller.nodeStaticData).slice(0, 300)}`,
			);
		return data.sweep.nextCustomer === undefined;
	};
	const results = [];
	const changedAt = new Map();
	const latencies = [];
	const emitted = new Set();
	let doubled = 0;
	let failedPolls = 0;
	let changeNumber = 0;
	for (let sweep = 1; sweep <= sweeps; sweep++) {
		const statsBefore = await sandbox.call('stats');
		const started = performance.now();
		const cpuBefore = process.cpuUsage();
		const perPoll = [];
		let nextChange = started + changeEveryMs;
		do {
			if (sweep === 2) {
				while (performance.now() >= nextChange) {
					const { invoiceId } = await sandbox.call('change', { n: changeNumber++, event });
					changedAt.set(invoiceId, performance.now());
					nextChange += changeEveryMs;
				}
			}
			const before = (await sandbox.call('stats')).requests;
			const pollStarted = performance.now();
			const result = await poller.poll();
			const endedAt = performance.now();
			if (result.error) {
				failedPolls++;
				log(
					`  poll failed: ${result.error.message}${result.error.description ? ` (${result.error.description})` : ''}`,
				);
				continue;
			}
			perPoll.push((await sandbox.call('stats')).requests - before);
			if (progress)
				log(
					`    sweep ${sweep}, poll ${perPoll.length}: ${perPoll.at(-1)} requests in ${seconds(endedAt - pollStarted)}, ${seconds(endedAt - started)} into the sweep`,
				);
			for (const item of result.items || []) {
				const key = `${item.event} ${item.invoice.invoice_id} ${item.invoice.fully_paid_at}`;
				if (emitted.has(key)) doubled++;
				emitted.add(key);
				const at = changedAt.get(item.invoice.invoice_id);
				if (at !== undefined) {
					latencies.push(endedAt - at);
					changedAt.delete(item.invoice.invoice_id);
				}
			}
		} while (!sweepDone());
		const ms = performance.now() - started;
		const cpu = process.cpuUsage(cpuBefore);
		const statsAfter = await sandbox.call('stats');
		const cpuMs = (cpu.user + cpu.system) / 1000;
		const sandboxCpuMs = statsAfter.cpuMs - statsBefore.cpuMs;
		const requests = statsAfter.requests - statsBefore.requests;
		const state = stateSize(poller.nodeStaticData);
		const row = {
			customers,
			budget,
			sweep,
			polls: perPoll.length,
			requests,
			maxPerPoll: Math.max(...perPoll),
			ms,
			idealCustomersMs: (customers / LIMIT_PER_SECOND) * 1000,
			idealRequestsMs: (requests / LIMIT_PER_SECOND) * 1000,
			limited: statsAfter.limited - statsBefore.limited,
			cpuMs,
			sandboxCpuMs,
			state,
		};
		results.push(row);
		log(
			`  ${customers} customers, budget ${budget}, sweep ${sweep}: ${row.polls} polls, ${requests} requests (max ${row.maxPerPoll}/poll), ${seconds(ms)}: ` +
				`${(ms / row.idealCustomersMs).toFixed(2)}x customers÷limit, ${(ms / row.idealRequestsMs).toFixed(2)}x requests÷limit; ${row.limited} answered 429; CPU a request ${(cpuMs / requests).toFixed(1)} ms (trigger) and ${(sandboxCpuMs / requests).toFixed(1)} ms (sandbox), trigger ${((100 * cpuMs) / ms).toFixed(0)}% of a core; state ${state.total} bytes`,
		);
	}
	const missed = changedAt.size;
	await sandbox.close();
	return {
		results,
		latencies,
		missed,
		doubled,
		failedPolls,
		openInvoices,
		customers,
		budget,
		event,
	};
}

module.exports = {
	allEvents,
	sandboxPoller,
	fromBuild,
	sweepRun,
	startSandboxProcess,
	stateSize,
	percentile,
	seconds,
	LIMIT_PER_SECOND,
	LATENCY_MS,
};
