'use strict';
// The benchmark's sandbox process: one sandbox per list size (each seeded with a big customer of
// that many invoices) plus WRITE_ITEMS usage entries to update, all on 127.0.0.1. Runs in its own
// process so that its CPU and memory are not counted in the measured process.
//
// BENCH_LINK_SCHEME=https: next links say https (the sandboxes are reached through a TLS relay).
// BENCH_LIMITED (JSON, optional): one more sandbox behind latency and a rate limit (test/sandbox/
// limits.js) with `invoices` invoices of its big customer and `writeItems` usage entries.
//
// IPC (from bench/run.js):
//   { id, cmd: 'clear', limits? }  empties every sandbox's request log and idempotency store (the
//                        limited sandbox gets `limits` instead of BENCH_LIMITED's until the next
//                        'clear'), restarts the
//                        request counters and the CPU clock          -> { id, ok: true }
//   { id, cmd: 'count' }  requests received since 'clear' (per sandbox and total) and the CPU time
//                        this process spent serving them and the TCP
//                        connections opened                         -> { id, requests, cpuMs, ... }

const path = require('node:path');
const { startSandbox } = require(path.join(__dirname, '..', '..', 'test', 'sandbox'));

const sizes = JSON.parse(process.env.BENCH_SIZES || '[10000]');
const writeItems = Number(process.env.BENCH_WRITE_ITEMS || 10000);
const limitedConfig = process.env.BENCH_LIMITED ? JSON.parse(process.env.BENCH_LIMITED) : null;

function addUsageEntries(sandbox, count) {
	const template = sandbox.state.usage.get(sandbox.fixtures.usageTransactionId);
	for (let i = 0; i < count; i++) {
		const id = `bench-usage-${i}`;
		sandbox.state.usage.set(id, { ...template, transaction_id: id, value: 0, properties: {} });
	}
}

/** What the limited sandbox saw since 'clear': arrivals (ms after the first) with their status, limits, doubled writes. */
function limitedReport(sandbox) {
	const first = sandbox.requests.length ? sandbox.requests[0].receivedAt : 0;
	return {
		arrivals: sandbox.requests.map((r) => [Math.round(r.receivedAt - first), r.status]),
		limits: sandbox.limits.stats(),
		applied: sandbox.applied.distinct,
		doubled: sandbox.applied.doubled().length,
	};
}

const linkScheme = process.env.BENCH_LINK_SCHEME;

async function main() {
	const sandboxes = {};
	for (const size of sizes)
		sandboxes[size] = await startSandbox({ seed: { bigCustomerInvoices: size }, linkScheme });
	// usage entries to update live on the smallest sandbox
	const writeSandbox = sandboxes[Math.min(...sizes)];
	addUsageEntries(writeSandbox, writeItems);
	let limited = null;
	if (limitedConfig) {
		limited = await startSandbox({
			seed: { bigCustomerInvoices: limitedConfig.invoices },
			limits: limitedConfig.limits,
			linkScheme,
		});
		addUsageEntries(limited, limitedConfig.writeItems);
	}
	const everySandbox = [...Object.values(sandboxes), ...(limited ? [limited] : [])];
	let cpuStart = process.cpuUsage();
	// TCP connections opened by the client (n8n-core opens one per request: no keep-alive)
	let connections = 0;
	for (const sb of everySandbox) sb.server.on('connection', () => connections++);

	process.on('message', (msg) => {
		if (msg.cmd === 'clear') {
			for (const sb of everySandbox) {
				sb.clearRequests();
				sb.idempotency.clear();
				sb.applied.clear();
			}
			if (limited) limited.setLimits(msg.limits ?? limitedConfig.limits); // full buckets, fresh statistics
			cpuStart = process.cpuUsage();
			connections = 0;
			process.send({ id: msg.id, ok: true });
		} else if (msg.cmd === 'count') {
			const cpu = process.cpuUsage(cpuStart);
			const perSandbox = {};
			let requests = 0;
			const statuses = {};
			for (const [size, sb] of [
				...Object.entries(sandboxes),
				...(limited ? [['limited', limited]] : []),
			]) {
				perSandbox[size] = sb.requestCount;
				requests += sb.requestCount;
				for (const r of sb.requests) statuses[r.status] = (statuses[r.status] || 0) + 1;
			}
			const limitedSeen = limited && limited.requestCount > 0 ? limitedReport(limited) : undefined;
			process.send({
				id: msg.id,
				requests,
				perSandbox,
				statuses,
				connections,
				cpuMs: (cpu.user + cpu.system) / 1000,
				limited: limitedSeen,
			});
		} else if (msg.cmd === 'close') {
			Promise.all(everySandbox.map((sb) => sb.close())).then(() => process.exit(0));
		}
	});
	process.on('disconnect', () => process.exit(0));

	const info = {};
	for (const [size, sb] of Object.entries(sandboxes)) {
		info[size] = {
			baseUrl: sb.baseUrl,
			apiKey: sb.apiKey,
			customerId: sb.fixtures.bigCustomerId,
			invoices: sb.fixtures.bigCustomerInvoices,
			smallCustomerId: sb.fixtures.customerId,
			port: sb.port,
		};
	}
	if (limited) {
		info.limited = {
			baseUrl: limited.baseUrl,
			apiKey: limited.apiKey,
			customerId: limited.fixtures.bigCustomerId,
			invoices: limited.fixtures.bigCustomerInvoices,
			smallCustomerId: limited.fixtures.customerId,
			port: limited.port,
		};
	}
	process.send({ type: 'ready', sandboxes: info, writeBaseUrl: writeSandbox.baseUrl, writeItems });
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
