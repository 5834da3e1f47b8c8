'use strict';
// The trigger sweep's sandbox, in its own process: seeded with BENCH_CUSTOMERS customers (and a big
// customer of BENCH_INVOICES invoices), behind BENCH_LIMITS (latency and rate limit). Its own
// process keeps its CPU, its garbage collection and its million invoices out of the measured
// process, as a real API would be; it keeps no request log (only counts), so a long run does not
// grow.
//
// IPC (from bench/lib/trigger-sweep.js), each answered with the same id:
//   { id, cmd: 'stats' }                 -> { requests, limited, cpuMs } since the start
//   { id, cmd: 'change', n, event }      an invoice of amount 1 issued to the n-th chosen customer
//                                           (and paid, for Invoice Paid)  -> { invoiceId }
// On start it sends { ready: true, baseUrl, apiKey, customers, openInvoices, subscriptions, runningSubscriptions }.

const path = require('node:path');
const { startSandbox } = require(path.join(__dirname, '..', '..', 'test', 'sandbox'));

const customers = Number(process.env.BENCH_CUSTOMERS);
const bigCustomerInvoices = Number(process.env.BENCH_INVOICES);
const limits = JSON.parse(process.env.BENCH_LIMITS);

async function main() {
	const sandbox = await startSandbox({ seed: { customers, bigCustomerInvoices } });
	let openInvoices = 0;
	for (const list of sandbox.state.invoicesByCustomer.values())
		for (const i of list) if (i.paidMs == null && i.remaining > 0) openInvoices++;
	const ids = [...sandbox.state.customers.keys()];
	sandbox.setLimits(limits);
	let requests = 0;
	const counted = () => {
		requests += sandbox.requestCount;
		sandbox.clearRequests();
		return requests;
	};
	const cpu = () => {
		const used = process.cpuUsage();
		return (used.user + used.system) / 1000;
	};
	const answer = {
		stats: () => ({ requests: counted(), limited: sandbox.limits.stats().limited, cpuMs: cpu() }),
		change: ({ n, event }) => {
			const issued = sandbox.world.issueInvoice({
				customer_id: ids[(n * 7919) % ids.length],
				amount: 1,
			});
			if (event === 'invoicePaid') sandbox.world.payInvoice({ invoice_id: issued.invoice_id });
			return { invoiceId: issued.invoice_id };
		},
	};
	process.on('message', (m) => {
		try {
			process.send({ id: m.id, ...answer[m.cmd](m) });
		} catch (error) {
			process.send({ id: m.id, error: String(error && error.stack) });
		}
	});
	process.on('disconnect', () => sandbox.close().then(() => process.exit(0)));
	const subscriptions = [...sandbox.state.subscriptions.values()];
	const runningSubscriptions = subscriptions.filter(
		(s) => !['INACTIVE', 'SUPERSEDED', 'TERMINATED'].includes(s.status),
	).length;
	process.send({
		ready: true,
		baseUrl: sandbox.baseUrl,
		apiKey: sandbox.apiKey,
		customers: ids.length,
		openInvoices,
		subscriptions: subscriptions.length,
		runningSubscriptions,
	});
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
