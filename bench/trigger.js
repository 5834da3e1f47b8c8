#!/usr/bin/env node
'use strict';
// The trigger at scale.
// 1. Sweeps (bench/lib/trigger-sweep.js): 10,000 and 100,000 customers against the sandbox with
//    40 ms latency and a limit of 100 requests/s; Invoice Paid over all customers, polls back to
//    back: requests per poll, sweep time against the ideal (customers ÷ limit), 429s, failed polls,
//    time from a change to its emission, state bytes per customer and per open invoice. First at
//    10,000 customers for several Requests Per Poll (the default is chosen from these).
// 3. State size (--only state): every event selected, Compare Detail Fields on, all customers,
//    --state-customers customers (default 100,000), for each make-up of --open-invoices (default
//    1,3: the sandbox's seed.openInvoices, open invoices a customer on net-30 terms with the last
//    30 days' payments; `default` for the sandbox's default world): the saved static data after the
//    first pass and sweep and after the next, per section, the most any poll left, and the state
//    predicted from the world's make-up with the per-part figures of docs/trigger.md
//    (bench/lib/trigger-state-size.js, bench/lib/state-figures.js); written to bench/RESULTS.md with
//    the runs before it at other sizes and make-ups (bench/out/trigger-state-runs.json;
//    --render-state: again from that file).
// 4. Publishing (--only publish): the activation poll n8n awaits, at --publish-customers customers
//    (default 10,000 and 100,000) with the sweep's latency and limit, for Invoice Paid + Invoice
//    Payment Failed and for every event with Compare Detail Fields; then the polls until the first
//    pass has ended (bench/lib/trigger-publish.js).
// 2. Every event at 10,000 customers (10,004 subscriptions) and 100,006 invoices without latency
//    or limit: the first poll, then a poll after a few changes: requests, items, state, poll time.
//
//   BENCH_PROGRESS=1 prints each poll.
//   node bench/trigger.js [--customers 10000] [--invoices 60000] [--sweep-customers 10000,100000]
//     [--budgets 250,1000,4000] [--sweeps 3] [--state-customers 100000] [--open-invoices 1,3]
//     [--only sweep|events|state]   (npm run bench:trigger)
//   BENCH_BUILD=bench/dist/<folder>: build there instead of bench/dist/pkg (bench/lib/bench-build.js).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startSandbox } = require('../test/sandbox');
const { buildBench } = require('./lib/bench-build');
const { errorPercent } = require('./lib/state-figures');
const {
	sweepRun,
	percentile,
	seconds,
	LATENCY_MS,
	LIMIT_PER_SECOND,
} = require('./lib/trigger-sweep');
const { stateSizeRun } = require('./lib/trigger-state-size');
const { publishRun } = require('./lib/trigger-publish');
const { writeSection } = require('./lib/results-section');

let DEFAULT_REQUESTS_PER_POLL;
const arg = (name, fallback) => {
	const i = process.argv.indexOf(`--${name}`);
	return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const CUSTOMERS = arg('customers', 10000);
const BIG_CUSTOMER_INVOICES = arg('invoices', 60000);
const list = (name, fallback) => {
	const i = process.argv.indexOf(`--${name}`);
	return (i >= 0 ? process.argv[i + 1] : fallback).split(',').map(Number);
};
const SWEEP_CUSTOMERS = list('sweep-customers', '10000,100000');
const SWEEPS = arg('sweeps', 3);
const STATE_CUSTOMERS = arg('state-customers', 100000);
const OPEN_INVOICES = (() => {
	const i = process.argv.indexOf('--open-invoices');
	return (i >= 0 ? process.argv[i + 1] : '1,3')
		.split(',')
		.map((value) => (value === 'default' ? undefined : Number(value)));
})();
const BUDGETS = list('budgets', '250,1000,4000');
const PUBLISH_CUSTOMERS = list('publish-customers', '10000,100000');
const ONLY = (() => {
	const i = process.argv.indexOf('--only');
	return i >= 0 ? process.argv[i + 1] : undefined;
})();

function build() {
	const out = buildBench();
	const { DEFAULT_REQUESTS_PER_POLL: budget } = require(
		path.join(out, 'nodes', 'SubscriptionBilling', 'trigger', 'description'),
	);
	DEFAULT_REQUESTS_PER_POLL = budget;
	return {
		Poller: require(path.join(out, 'test', 'harness', 'index.cjs')).Poller,
		shutdown: require(path.join(out, 'test', 'harness', 'index.cjs')).shutdownN8nCore,
		Trigger: require(
			path.join(out, 'nodes', 'SubscriptionBilling', 'SubscriptionBillingTrigger.node'),
		).SubscriptionBillingTrigger,
		Credential: require(path.join(out, 'credentials', 'SubscriptionBillingApi.credentials'))
			.SubscriptionBillingApi,
	};
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

async function sweeps(built) {
	const runs = [];
	const [first, ...others] = SWEEP_CUSTOMERS;
	for (const budget of BUDGETS)
		runs.push(
			await sweepRun({
				...built,
				customers: first,
				budget,
				bigCustomerInvoices: BIG_CUSTOMER_INVOICES,
				sweeps: SWEEPS,
			}),
		);
	for (const customers of others)
		runs.push(
			await sweepRun({
				...built,
				customers,
				budget: DEFAULT_REQUESTS_PER_POLL,
				bigCustomerInvoices: BIG_CUSTOMER_INVOICES,
				sweeps: SWEEPS,
			}),
		);
	console.log('');
	console.log(
		`Invoice Paid, all customers, ${LATENCY_MS} ms latency, ${LIMIT_PER_SECOND} requests/s; polls back to back. Sweep 1 is the silent first sweep (it reads the big customer's ${BIG_CUSTOMER_INVOICES.toLocaleString('en-US')} invoices to know its open ones); sweep 2 has a change every 2 s.`,
	);
	console.log(
		'| Customers | Requests per poll | Sweep | Polls | Requests | Most per poll | Sweep time | vs customers ÷ limit | vs requests ÷ limit | 429s | Trigger CPU a request | Sandbox CPU a request | Trigger share of a core | State |',
	);
	console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
	for (const run of runs) {
		for (const r of run.results) {
			console.log(
				`| ${r.customers.toLocaleString('en-US')} | ${r.budget.toLocaleString('en-US')} | ${r.sweep} | ${r.polls} | ${r.requests.toLocaleString('en-US')} | ${r.maxPerPoll.toLocaleString('en-US')} | ${seconds(r.ms)} | ${(r.ms / r.idealCustomersMs).toFixed(2)}x | ${(r.ms / r.idealRequestsMs).toFixed(2)}x | ${r.limited} | ${(r.cpuMs / r.requests).toFixed(1)} ms | ${(r.sandboxCpuMs / r.requests).toFixed(1)} ms | ${((100 * r.cpuMs) / r.ms).toFixed(0)}% | ${kb(r.state.total)} |`,
			);
		}
	}
	console.log('');
	console.log(
		'| Customers | Requests per poll | Failed polls | Changes: emitted once / missed / doubled | Change to emission: median / 95th / max | State bytes per customer | per watched open invoice | Open invoices watched (seeded open) |',
	);
	console.log('|---|---|---|---|---|---|---|---|');
	for (const run of runs) {
		const last = run.results.at(-1).state;
		const perCustomer = (last.total - last.watchedBytes) / run.customers;
		const perOpen = last.watched > 0 ? last.watchedBytes / last.watched : 0;
		console.log(
			`| ${run.customers.toLocaleString('en-US')} | ${run.budget.toLocaleString('en-US')} | ${run.failedPolls} | ${run.latencies.length} / ${run.missed} / ${run.doubled} | ${run.latencies.length === 0 ? '– (no change in a measured sweep)' : `${seconds(percentile(run.latencies, 50))} / ${seconds(percentile(run.latencies, 95))} / ${seconds(Math.max(...run.latencies))}`} | ${perCustomer.toFixed(1)} | ${perOpen.toFixed(1)} | ${last.watched.toLocaleString('en-US')} (${run.openInvoices.toLocaleString('en-US')}) |`,
		);
	}
	console.log('');
}

async function publishing(built) {
	const rows = [];
	// The first pass polled back to back only at 10,000 customers or fewer (at 100,000 with every
	// event it takes about an hour: about customers ÷ 1,000 polls).
	for (const customers of PUBLISH_CUSTOMERS)
		rows.push(...(await publishRun({ ...built, customers, passes: customers <= 10000 })));
	console.log('');
	console.log(
		`Fetch Test Event and publishing (the activation poll), ${LATENCY_MS} ms latency, ${LIMIT_PER_SECOND} requests/s, Requests Per Poll and Subscription Reads Per Poll at their defaults.`,
	);
	console.log(
		'| Customers | Events | Fetch Test Event | Its requests | Activation poll | Its requests | Polls until the first pass ended |',
	);
	console.log('|---|---|---|---|---|---|---|');
	for (const r of rows)
		console.log(
			`| ${r.customers.toLocaleString('en-US')} | ${r.name} | ${seconds(r.fetchMs)} | ${r.fetchRequests} | ${seconds(r.publishMs)} | ${r.publishRequests.toLocaleString('en-US')} | ${r.polls ?? '–'} |`,
		);
	console.log('');
}

async function main() {
	const built = build();
	if (ONLY === undefined || ONLY === 'sweep') await sweeps(built);
	if (ONLY === undefined || ONLY === 'events') await events(built);
	if (ONLY === undefined || ONLY === 'state') await stateSize(built);
	if (ONLY === undefined || ONLY === 'publish') await publishing(built);
	built.shutdown();
}

const STATE_BUDGET_BYTES = 10 * 1000 * 1000;
const STATE_RUNS_FILE = path.join(__dirname, 'out', 'trigger-state-runs.json');

/** The state-size runs kept (bench/out/trigger-state-runs.json), by size and world. */
function stateRuns() {
	return fs.existsSync(STATE_RUNS_FILE) ? JSON.parse(fs.readFileSync(STATE_RUNS_FILE, 'utf8')) : {};
}

const worldOf = (r) =>
	r.seededOpenInvoices === null
		? "default (each subscription's last invoice open)"
		: `${r.seededOpenInvoices} open a customer, net-30`;

/**
 * The state-size runs: measured (one per make-up of --open-invoices at --state-customers), or
 * (--render-state) only read back; printed and written to bench/RESULTS.md with the runs kept
 * from before at other sizes and make-ups.
 */
async function stateSize(built) {
	const runs = stateRuns();
	if (!process.argv.includes('--render-state'))
		for (const openInvoices of OPEN_INVOICES) {
			const started = Date.now();
			const r = {
				...(await stateSizeRun({
					...built,
					customers: STATE_CUSTOMERS,
					bigCustomerInvoices: BIG_CUSTOMER_INVOICES,
					openInvoices,
				})),
				date: new Date().toISOString().slice(0, 10),
				minutes: Math.round((Date.now() - started) / 60000),
				loadAverage: os.loadavg().map((x) => Number(x.toFixed(1))),
			};
			runs[`${r.customers}:${r.seededOpenInvoices}`] = r;
			fs.mkdirSync(path.dirname(STATE_RUNS_FILE), { recursive: true });
			fs.writeFileSync(STATE_RUNS_FILE, JSON.stringify(runs, null, 2));
		}
	const list = Object.values(runs).sort(
		(a, b) =>
			(a.seededOpenInvoices ?? 0) - (b.seededOpenInvoices ?? 0) || a.customers - b.customers,
	);
	const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
	const n = (x) => x.toLocaleString('en-US');
	const each = (x, r) => (x / r.customers).toFixed(2);
	const pct = (r) => `${errorPercent(r.later.total, r.predicted.total).toFixed(1)}%`;
	const polls = (count) => `${count} poll${count === 1 ? '' : 's'}`;
	const part = (r, key) =>
		`${kb(r.parts.measured[key])} / ${kb(r.parts.predicted[key])} (${errorPercent(r.parts.measured[key], r.parts.predicted[key]).toFixed(1)}%)`;
	const lines = [
		'## Trigger state size',
		'',
		`Generated by \`node bench/trigger.js --only state [--state-customers N] [--open-invoices 1,3]\` (bench/lib/trigger-state-size.js; each run kept in bench/out/trigger-state-runs.json and all rendered here). Every event selected, Compare Detail Fields on, All Customers, the 7-day look-back window; the sandbox in its own process without latency or limit, its big customer with ${n(BIG_CUSTOMER_INVOICES)} invoices. The world: the sandbox's default (each subscription's last invoice open, none paid or issued in the last weeks), or seed.openInvoices (each customer invoiced every 30 / k days on net-30 terms and paying each invoice on its due date: k open, and 7k / 30 paid and as many issued a week). Polls until the first pass over the running subscriptions and the first invoice sweep have ended, then over the next pass and sweep; JSON bytes of the node's static data as n8n saves it (the customers table carries its customers' invoice rows), after the next pass and sweep. **Predicted**: from the world's make-up (counted in the sandbox, not from the state) with the per-part figures of docs/trigger.md (bench/lib/state-figures.js).`,
		'',
		'| Customers | World | Open invoices a customer | Paid in the window | Issued in the window | Subscriptions (running) | Measured | Predicted | Error | Measured a customer | Date | Run (load average at its end) |',
		'|---|---|---|---|---|---|---|---|---|---|---|---|',
		...list.map(
			(r) =>
				`| ${n(r.customers)} | ${worldOf(r)} | ${each(r.makeup.openInvoices, r)} | ${each(r.makeup.paidInvoices, r)} | ${each(r.makeup.issuedInvoices, r)} | ${n(r.makeup.subscriptions)} (${n(r.makeup.runningSubscriptions)}) | ${n(r.later.total)} | ${n(r.predicted.total)} | ${pct(r)} | ${(r.later.total / r.customers).toFixed(1)} B | ${r.date} | ${r.minutes === undefined ? 'not recorded' : `${r.minutes} min (${r.loadAverage.join(' / ')})`} |`,
		),
		'',
		'By part, measured / predicted: the customers (fingerprint and six fields), their invoice cells (known and watched invoices, `~~` for none), the subscriptions, the rest (headers, date windows, sweep, pass).',
		'',
		'| Customers | World | Customers | Invoice cells | Subscriptions | Rest |',
		'|---|---|---|---|---|---|',
		...list.map(
			(r) =>
				`| ${n(r.customers)} | ${worldOf(r)} | ${part(r, 'customers')} | ${part(r, 'invoices')} | ${part(r, 'subscriptions')} | ${kb(r.parts.measured.rest)} / ${kb(r.parts.predicted.rest)} |`,
		),
		'',
		`What n8n writes: on each poll that emits, the workflow's static data (every node's, this state under \`node:<name>\`) to the workflow's row; with durable cursors, the node's static data to \`poller_state\` on each poll. Budget ${mb(STATE_BUDGET_BYTES)}.`,
		'',
		'| Customers | World | After the first pass and sweep | After the next | The most any poll left | Budget | Written on a poll that emits | With durable cursors, each poll | Without the join |',
		'|---|---|---|---|---|---|---|---|---|',
		...list.map(
			(r) =>
				`| ${n(r.customers)} | ${worldOf(r)} | ${mb(r.first.total)} (${polls(r.firstPolls)}) | ${mb(r.later.total)} (${polls(r.laterPolls)}) | ${mb(r.most)} | ${r.most <= STATE_BUDGET_BYTES ? 'within' : 'OVER'} | ${mb(r.workflowStaticData)} | ${mb(r.later.total)} | ${mb(r.unjoined)} |`,
		),
		'',
	];
	console.log(`\n${lines.join('\n')}`);
	writeSection('Trigger state size', lines.join('\n'));
	console.log('wrote the "Trigger state size" section of bench/RESULTS.md');
}

async function events({ Poller, Trigger, Credential }) {
	const sandbox = await startSandbox({
		seed: { customers: CUSTOMERS, bigCustomerInvoices: BIG_CUSTOMER_INVOICES },
	});
	let invoices = 0;
	for (const list of sandbox.state.invoicesByCustomer.values()) invoices += list.length;
	console.log(
		`sandbox: ${sandbox.state.customers.size} customers, ${sandbox.state.subscriptions.size} subscriptions, ${invoices} invoices`,
	);

	const customers = [...sandbox.state.customers.keys()];
	const withOpenInvoice = customers.filter((id) =>
		sandbox.state.invoicesByCustomer.get(id).some((i) => i.paidMs == null && i.remaining > 0),
	);
	const openInvoice = (customerId) =>
		sandbox.state.invoicesByCustomer
			.get(customerId)
			.find((i) => i.paidMs == null && i.remaining > 0);
	const dueLater = [];
	const scenarios = [
		{
			event: 'newCustomer',
			change: (n) => sandbox.world.createCustomer({ name: `Bench New Customer ${n}` }),
		},
		{
			event: 'newSubscription',
			change: (n) => sandbox.world.createSubscription({ customer_id: customers[n * 7] }),
		},
		{
			event: 'subscriptionStatusChanged',
			change: (n) =>
				sandbox.world.setSubscriptionStatus({
					subscription_id: [...sandbox.state.subscriptions.keys()][100 + n * 13],
					status: 'TERMINATING',
				}),
		},
		{
			event: 'newInvoice',
			scope: 'all',
			change: (n) => sandbox.world.issueInvoice({ customer_id: customers[n * 11] }),
		},
		{
			event: 'invoicePaid',
			scope: 'all',
			change: (n) =>
				sandbox.world.payInvoice({ invoice_id: openInvoice(withOpenInvoice[n * 17]).invoice_id }),
		},
		{
			event: 'invoiceOverdue',
			scope: 'all',
			// Seeded open invoices are past due already: issue some due in 30 days, then let 10 pass.
			setup: (n) =>
				dueLater.push(
					sandbox.world.issueInvoice({ customer_id: customers[5 + n * 19] }).invoice_id,
				),
			change: (n) => sandbox.world.passDueDate({ invoice_id: dueLater[n] }),
		},
	];
	const CHANGES = 10;
	const rows = [];
	for (const scenario of scenarios) {
		const poller = new Poller({
			nodeType: new Trigger(),
			credentialType: new Credential(),
			credentials: {
				apiKey: sandbox.apiKey,
				environment: 'production',
				productionBaseUrl: sandbox.baseUrl,
			},
			parameters: {
				events: [scenario.event],
				...(scenario.scope ? { scope: scenario.scope } : {}),
			},
		});
		const measure = async () => {
			sandbox.clearRequests();
			const started = process.hrtime.bigint();
			const result = await poller.poll();
			const ms = Number(process.hrtime.bigint() - started) / 1e6;
			if (result.error) throw result.error;
			return {
				requests: sandbox.requestCount,
				items: result.items ? result.items.length : 0,
				ms,
				state: JSON.stringify(poller.nodeStaticData).length,
			};
		};
		if (scenario.setup) for (let n = 0; n < CHANGES; n++) scenario.setup(n);
		const first = await measure();
		for (let n = 0; n < CHANGES; n++) scenario.change(n);
		const second = await measure();
		const third = await measure();
		rows.push({
			event: `${scenario.event}${scenario.scope ? ' (all customers)' : ''}`,
			first,
			second,
			third,
		});
		console.log(
			`${scenario.event}: first poll ${first.requests} requests, ${(first.ms / 1000).toFixed(1)} s; after ${CHANGES} changes ${second.requests} requests, ${second.items} items; state ${kb(second.state)}`,
		);
	}
	console.log('');
	console.log(
		`| Event | First poll: requests | Later poll: requests | Items after ${CHANGES} changes | Next poll: items | State | First / later poll time |`,
	);
	console.log('|---|---|---|---|---|---|---|');
	for (const { event, first, second, third } of rows) {
		console.log(
			`| ${event} | ${first.requests.toLocaleString('en-US')} | ${second.requests.toLocaleString('en-US')} | ${second.items} | ${third.items} | ${kb(second.state)} | ${(first.ms / 1000).toFixed(1)} s / ${(second.ms / 1000).toFixed(1)} s |`,
		);
	}
	await sandbox.close();
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
