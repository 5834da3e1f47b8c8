'use strict';
// The trigger sweep's sandbox, in its own process: seeded with BENCH_CUSTOMERS customers (and a big
// customer of BENCH_INVOICES invoices; BENCH_OPEN_INVOICES, when set: the sandbox's seed.openInvoices,
// that many open invoices a customer on net-30 terms), behind BENCH_LIMITS (latency and rate limit). Its own
// process keeps its CPU, its garbage collection and its million invoices out of the measured
// process, as a real API would be; it keeps no request log (only counts), so a long run does not
// grow.
//
// IPC (from bench/lib/trigger-sweep.js), each answered with the same id:
//   { id, cmd: 'stats' }                 -> { requests, limited, cpuMs } since the start
//   { id, cmd: 'change', n, event }      an invoice of amount 1 issued to the n-th chosen customer
//                                           (and paid, for Invoice Paid)  -> { invoiceId }
//   { id, cmd: 'makeup', keepFrom, days }  the world's parts the trigger keeps (every event, All
//                                           Customers; invoices in the look-back window from
//                                           keepFrom, epoch ms; Ending Soon and Renewal Due `days`
//                                           ahead) -> the counts bench/lib/state-figures.js takes
// On start it sends { ready: true, baseUrl, apiKey, customers, openInvoices, subscriptions, runningSubscriptions }.

const path = require('node:path');
const { startSandbox } = require(path.join(__dirname, '..', '..', 'test', 'sandbox'));
const { emptyMakeup } = require('./state-figures');

const customers = Number(process.env.BENCH_CUSTOMERS);
const bigCustomerInvoices = Number(process.env.BENCH_INVOICES);
const limits = JSON.parse(process.env.BENCH_LIMITS);
const openInvoicesSeeded = process.env.BENCH_OPEN_INVOICES
	? Number(process.env.BENCH_OPEN_INVOICES)
	: undefined;

const CUSTOMER_FIELDS = [
	'name',
	'legal_name',
	'external_id',
	'address',
	'processor_customer_id',
	'tax_id',
];
const ENDED = ['INACTIVE', 'SUPERSEDED', 'TERMINATED'];
const DAY_MS = 86400000;

/** Whole UTC days from today to a date, as the trigger counts them (events/dateWindow.ts daysUntil). */
function daysUntil(date, nowMs) {
	if (typeof date !== 'string') return undefined;
	const today = Date.parse(`${new Date(nowMs).toISOString().slice(0, 10)}T00:00:00Z`);
	return Math.round((Date.parse(`${date.slice(0, 10)}T00:00:00Z`) - today) / DAY_MS);
}

/**
 * What the trigger keeps of this world (every event, All Customers), counted from the world, not
 * from the state: the make-up bench/lib/state-figures.js predicts the state from. An invoice is
 * open when it is unpaid, owes something and is not void (events/invoiceEvents.ts isOpen).
 */
function makeup(state, { keepFrom, days = 30 }) {
	const nowMs = Date.now();
	const counts = emptyMakeup(state.customers.size, state.subscriptions.size);
	for (const customer of state.customers.values())
		for (const field of CUSTOMER_FIELDS) if (customer[field] == null) counts.nullCustomerFields++;
	for (const list of state.invoicesByCustomer.values()) {
		let issued = 0;
		let watched = 0;
		for (const invoice of list) {
			if (invoice.issuedMs >= keepFrom && invoice.issuedMs <= nowMs) issued++;
			const open = invoice.paidMs == null && invoice.remaining > 0 && invoice.status !== 'VOID';
			const paid = invoice.paidMs != null && invoice.paidMs >= keepFrom;
			if (!open && !paid) continue;
			watched++;
			if (open) counts.openInvoices++;
			else counts.paidInvoices++;
			const failed = (invoice.paymentLog || []).filter((p) => p.error && p.paid_amount >= 0);
			if (failed.length > 0) counts.invoicesWithFailedPayments++;
			if (failed.length > 0 && !open) counts.paidInvoicesWithFailedPayments++;
			counts.failedPayments += failed.length;
		}
		counts.issuedInvoices += issued;
		if (issued > 0) counts.customersWithIssued++;
		if (watched > 0) counts.customersWithWatched++;
	}
	for (const sub of state.subscriptions.values()) {
		if (ENDED.includes(sub.status)) continue;
		counts.runningSubscriptions++;
		const inWindow = (date) => {
			const left = daysUntil(date, nowMs);
			return left !== undefined && left >= 0 && left <= days;
		};
		if (inWindow(sub.ends_at)) counts.endingSoon++;
		if (inWindow(sub.renews_at)) counts.renewalDue++;
	}
	return counts;
}

async function main() {
	const sandbox = await startSandbox({
		seed: {
			customers,
			bigCustomerInvoices,
			...(openInvoicesSeeded !== undefined && { openInvoices: openInvoicesSeeded }),
		},
	});
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
		makeup: (m) => makeup(sandbox.state, m),
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
