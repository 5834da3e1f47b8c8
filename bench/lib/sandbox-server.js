'use strict';
// The benchmark's sandbox process: one sandbox per list size (each seeded with a big customer of
// that many invoices) plus WRITE_ITEMS usage entries to update, all on 127.0.0.1. Runs in its own
// process so that its CPU and memory are not counted in the measured process.
//
// IPC (from bench/run.js):
//   { id, cmd: 'clear' }  empties every sandbox's request log and idempotency store, restarts the
//                        request counters and the CPU clock          -> { id, ok: true }
//   { id, cmd: 'count' }  requests received since 'clear' (per sandbox and total) and the CPU time
//                        this process spent serving them and the TCP
//                        connections opened                         -> { id, requests, cpuMs, ... }

const path = require('node:path');
const { startSandbox } = require(path.join(__dirname, '..', '..', 'test', 'sandbox'));

const sizes = JSON.parse(process.env.BENCH_SIZES || '[10000]');
const writeItems = Number(process.env.BENCH_WRITE_ITEMS || 10000);

async function main() {
	const sandboxes = {};
	for (const size of sizes) sandboxes[size] = await startSandbox({ seed: { bigCustomerInvoices: size } });
	// usage entries to update live on the smallest sandbox
	const writeSandbox = sandboxes[Math.min(...sizes)];
	const template = writeSandbox.state.usage.get(writeSandbox.fixtures.usageTransactionId);
	for (let i = 0; i < writeItems; i++) {
		const id = `bench-usage-${i}`;
		writeSandbox.state.usage.set(id, { ...template, transaction_id: id, value: 0, properties: {} });
	}
	let cpuStart = process.cpuUsage();
	// TCP connections opened by the client (n8n-core opens one per request: no keep-alive)
	let connections = 0;
	for (const sb of Object.values(sandboxes)) sb.server.on('connection', () => connections++);

	process.on('message', (msg) => {
		if (msg.cmd === 'clear') {
			for (const sb of Object.values(sandboxes)) {
				sb.clearRequests();
				sb.idempotency.clear();
			}
			cpuStart = process.cpuUsage();
			connections = 0;
			process.send({ id: msg.id, ok: true });
		} else if (msg.cmd === 'count') {
			const cpu = process.cpuUsage(cpuStart);
			const perSandbox = {};
			let requests = 0;
			const statuses = {};
			for (const [size, sb] of Object.entries(sandboxes)) {
				perSandbox[size] = sb.requestCount;
				requests += sb.requestCount;
				for (const r of sb.requests) statuses[r.status] = (statuses[r.status] || 0) + 1;
			}
			process.send({ id: msg.id, requests, perSandbox, statuses, connections, cpuMs: (cpu.user + cpu.system) / 1000 });
		} else if (msg.cmd === 'close') {
			Promise.all(Object.values(sandboxes).map((sb) => sb.close())).then(() => process.exit(0));
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
		};
	}
	process.send({ type: 'ready', sandboxes: info, writeBaseUrl: writeSandbox.baseUrl, writeItems });
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
