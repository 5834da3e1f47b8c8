#!/usr/bin/env node
'use strict';
// The trigger at scale: 10,000 customers (10,004 subscriptions) and 100,006 invoices in the
// sandbox. For each event: the first poll (remembers where things stand), then a poll after a few
// changes. Prints requests per poll, items emitted, the size of the remembered state (the node's
// static data as n8n stores it, JSON) and the time of each poll on this machine (informative).
//
//   node bench/trigger.js [--customers 10000] [--invoices 60000]   (npm run bench:trigger)

const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { startSandbox } = require('../test/sandbox');

const ROOT = path.resolve(__dirname, '..');
const arg = (name, fallback) => {
	const i = process.argv.indexOf(`--${name}`);
	return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const CUSTOMERS = arg('customers', 10000);
const BIG_CUSTOMER_INVOICES = arg('invoices', 60000);

function build() {
	const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join('bench', 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8' });
	if (tsc.status !== 0) throw new Error(`tsc failed:\n${tsc.stdout}`);
	const out = path.join(ROOT, 'bench', 'dist', 'pkg', 'dist');
	return {
		Poller: require(path.join(out, 'test', 'harness', 'index.cjs')).Poller,
		shutdown: require(path.join(out, 'test', 'harness', 'index.cjs')).shutdownN8nCore,
		Trigger: require(path.join(out, 'nodes', 'SubscriptionBillingTrigger', 'SubscriptionBillingTrigger.node')).SubscriptionBillingTrigger,
		Credential: require(path.join(out, 'credentials', 'SubscriptionBillingApi.credentials')).SubscriptionBillingApi,
	};
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
	const { Poller, shutdown, Trigger, Credential } = build();
	const sandbox = await startSandbox({ seed: { customers: CUSTOMERS, bigCustomerInvoices: BIG_CUSTOMER_INVOICES } });
	let invoices = 0;
	for (const list of sandbox.state.invoicesByCustomer.values()) invoices += list.length;
	console.log(`sandbox: ${sandbox.state.customers.size} customers, ${sandbox.state.subscriptions.size} subscriptions, ${invoices} invoices`);

	const customers = [...sandbox.state.customers.keys()];
	const withOpenInvoice = customers.filter((id) => sandbox.state.invoicesByCustomer.get(id).some((i) => i.paidMs == null && i.remaining > 0));
	const openInvoice = (customerId) => sandbox.state.invoicesByCustomer.get(customerId).find((i) => i.paidMs == null && i.remaining > 0);
	const dueLater = [];
	const scenarios = [
		{ event: 'newCustomer', change: (n) => sandbox.world.createCustomer({ name: `Bench New Customer ${n}` }) },
		{ event: 'newSubscription', change: (n) => sandbox.world.createSubscription({ customer_id: customers[n * 7] }) },
		{ event: 'subscriptionStatusChanged', change: (n) => sandbox.world.setSubscriptionStatus({ subscription_id: [...sandbox.state.subscriptions.keys()][100 + n * 13], status: 'TERMINATING' }) },
		{ event: 'newInvoice', scope: 'all', change: (n) => sandbox.world.issueInvoice({ customer_id: customers[n * 11] }) },
		{ event: 'invoicePaid', scope: 'all', change: (n) => sandbox.world.payInvoice({ invoice_id: openInvoice(withOpenInvoice[n * 17]).invoice_id }) },
		{
			event: 'invoiceOverdue',
			scope: 'all',
			// Seeded open invoices are past due already: issue some due in 30 days, then let 10 pass.
			setup: (n) => dueLater.push(sandbox.world.issueInvoice({ customer_id: customers[5 + n * 19] }).invoice_id),
			change: (n) => sandbox.world.passDueDate({ invoice_id: dueLater[n] }),
		},
	];
	const CHANGES = 10;
	const rows = [];
	for (const scenario of scenarios) {
		const poller = new Poller({
			nodeType: new Trigger(),
			credentialType: new Credential(),
			credentials: { apiKey: sandbox.apiKey, environment: 'production', productionBaseUrl: sandbox.baseUrl },
			parameters: { event: scenario.event, ...(scenario.scope ? { scope: scenario.scope } : {}) },
		});
		const measure = async () => {
			sandbox.clearRequests();
			const started = process.hrtime.bigint();
			const result = await poller.poll();
			const ms = Number(process.hrtime.bigint() - started) / 1e6;
			if (result.error) throw result.error;
			return { requests: sandbox.requestCount, items: result.items ? result.items.length : 0, ms, state: JSON.stringify(poller.nodeStaticData).length };
		};
		if (scenario.setup) for (let n = 0; n < CHANGES; n++) scenario.setup(n);
		const first = await measure();
		for (let n = 0; n < CHANGES; n++) scenario.change(n);
		const second = await measure();
		const third = await measure();
		rows.push({ event: `${scenario.event}${scenario.scope ? ' (all customers)' : ''}`, first, second, third });
		console.log(`${scenario.event}: first poll ${first.requests} requests, ${(first.ms / 1000).toFixed(1)} s; after ${CHANGES} changes ${second.requests} requests, ${second.items} items; state ${kb(second.state)}`);
	}
	console.log('');
	console.log(`| Event | First poll: requests | Later poll: requests | Items after ${CHANGES} changes | Next poll: items | State | First / later poll time |`);
	console.log('|---|---|---|---|---|---|---|');
	for (const { event, first, second, third } of rows) {
		console.log(`| ${event} | ${first.requests.toLocaleString('en-US')} | ${second.requests.toLocaleString('en-US')} | ${second.items} | ${third.items} | ${kb(second.state)} | ${(first.ms / 1000).toFixed(1)} s / ${(second.ms / 1000).toFixed(1)} s |`);
	}
	await sandbox.close();
	shutdown();
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
