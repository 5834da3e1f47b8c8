'use strict';
// The trigger's sweep of all customers against a rate-limited API: the sandbox answers after 40 ms
// and allows 100 requests/s (429 with Retry-After above it). Polls run back to back, as n8n would
// run them with a Poll Times interval no longer than a poll; each spends at most Requests Per Poll.
// Measures, per sweep (every customer visited once): requests per poll, sweep time against the
// ideal (requests ÷ limit, and customers ÷ limit as the issue states it), 429s and failed polls,
// the time from a change to the poll that emits it, and the state's size.

const { startSandbox } = require('../../test/sandbox');

const LIMIT_PER_SECOND = 100;
const LATENCY_MS = 40;

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const percentile = (values, p) => {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** What the trigger remembers for its invoice events (trigger/state.ts: one section per event family). */
const invoiceData = (staticData) => staticData.trigger?.families?.invoices?.data;

/** Bytes of the state as n8n stores it (JSON), split into the per-customer part and the watched open invoices. */
function stateSize(staticData) {
	const total = JSON.stringify(staticData).length;
	const data = invoiceData(staticData);
	const entries = Object.values((data && data.customers) || {});
	let watchedBytes = 0;
	let watched = 0;
	for (const entry of entries) {
		const list = entry.slice(entry.indexOf('|') + 1);
		if (list === '') continue;
		watchedBytes += list.length + 1;
		watched += list.split(',').length;
	}
	return { total, watchedBytes, watched, customersStored: entries.length };
}

/**
 * One run: `customers` customers, event `event` over all customers with `budget` requests per
 * poll. Sweep 1 is the silent first sweep; during sweep 2 an invoice is paid every `changeEveryMs`
 * (and issued, for New Invoice) and each change's time to emission is recorded; sweep 3 shows
 * whether the state grows from sweep to sweep.
 */
async function sweepRun({ Poller, Trigger, Credential, customers, budget, event = 'invoicePaid', bigCustomerInvoices = 60000, sweeps = 3, changeEveryMs = 2000, log = console.log, progress = process.env.BENCH_PROGRESS === '1' }) {
	const sandbox = await startSandbox({ seed: { customers, bigCustomerInvoices } });
	let openInvoices = 0;
	for (const list of sandbox.state.invoicesByCustomer.values()) for (const i of list) if (i.paidMs == null && i.remaining > 0) openInvoices++;
	sandbox.setLimits({ latencyMs: LATENCY_MS, ratePerSecond: LIMIT_PER_SECOND });
	const poller = new Poller({
		nodeType: new Trigger(),
		credentialType: new Credential(),
		credentials: { apiKey: sandbox.apiKey, environment: 'production', productionBaseUrl: sandbox.baseUrl },
		parameters: { event, scope: 'all', requestsPerPoll: budget },
	});
	const ids = [...sandbox.state.customers.keys()];
	const sweepDone = () => {
		const data = invoiceData(poller.nodeStaticData);
		if (data === undefined) throw new Error(`the trigger's state has no invoice section: ${JSON.stringify(poller.nodeStaticData).slice(0, 300)}`);
		return data.c === undefined;
	};
	const results = [];
	const changedAt = new Map();
	const latencies = [];
	const emitted = new Set();
	let doubled = 0;
	let failedPolls = 0;
	let changeNumber = 0;
	for (let sweep = 1; sweep <= sweeps; sweep++) {
		const requestsBefore = sandbox.requestCount;
		const limitedBefore = sandbox.limits.stats().limited;
		const started = performance.now();
		const cpuBefore = process.cpuUsage();
		const perPoll = [];
		let nextChange = started + changeEveryMs;
		do {
			if (sweep === 2) {
				while (performance.now() >= nextChange) {
					const customer = ids[(changeNumber++ * 7919) % ids.length];
					const issued = sandbox.world.issueInvoice({ customer_id: customer, amount: 1 });
					if (event === 'invoicePaid') sandbox.world.payInvoice({ invoice_id: issued.invoice_id });
					changedAt.set(issued.invoice_id, performance.now());
					nextChange += changeEveryMs;
				}
			}
			const before = sandbox.requestCount;
			const pollStarted = performance.now();
			const result = await poller.poll();
			const endedAt = performance.now();
			if (result.error) {
				failedPolls++;
				log(`  poll failed: ${result.error.message}${result.error.description ? ` (${result.error.description})` : ''}`);
				continue;
			}
			perPoll.push(sandbox.requestCount - before);
			if (progress) log(`    sweep ${sweep}, poll ${perPoll.length}: ${perPoll.at(-1)} requests in ${seconds(endedAt - pollStarted)}, ${seconds(endedAt - started)} into the sweep`);
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
		const cpuMs = (cpu.user + cpu.system) / 1000;
		const requests = sandbox.requestCount - requestsBefore;
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
			limited: sandbox.limits.stats().limited - limitedBefore,
			cpuMs,
			state,
		};
		results.push(row);
		log(
			`  ${customers} customers, budget ${budget}, sweep ${sweep}: ${row.polls} polls, ${requests} requests (max ${row.maxPerPoll}/poll), ${seconds(ms)}: ` +
				`${(ms / row.idealCustomersMs).toFixed(2)}x customers÷limit, ${(ms / row.idealRequestsMs).toFixed(2)}x requests÷limit; ${row.limited} answered 429; CPU ${(cpuMs / requests).toFixed(1)} ms a request (trigger and sandbox), ${((100 * cpuMs) / ms).toFixed(0)}% of a core; state ${state.total} bytes`,
		);
	}
	const missed = changedAt.size;
	await sandbox.close();
	return { results, latencies, missed, doubled, failedPolls, openInvoices, customers, budget, event };
}

module.exports = { sweepRun, stateSize, percentile, seconds, LIMIT_PER_SECOND, LATENCY_MS };
