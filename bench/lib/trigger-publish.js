'use strict';
// Publishing at scale: Fetch Test Event and the activation poll (what n8n awaits when a workflow is
// published) for a few selections of events, against the sandbox in its own process with the sweep's latency and
// limit; then the polls until the first pass over the customers (and subscriptions) has ended:
// how long until a change anywhere is reported.
const { allEvents, sandboxPoller, startSandboxProcess, seconds } = require('./trigger-sweep');

const SELECTIONS = {
	'Invoice Paid + Invoice Payment Failed': () => ({
		events: ['invoicePaid', 'invoicePaymentFailed'],
	}),
	'every event, Compare Detail Fields': () => ({ events: allEvents(), subscriptionDetails: true }),
};

const firstPassDone = (staticData) => {
	const state = staticData.trigger ?? {};
	const pass = state.customerList?.detailPass;
	return (
		state.invoices?.sweep?.nextCustomer === undefined &&
		pass?.learningRenewals === undefined &&
		pass?.learningDetails === undefined
	);
};

/** One poll (`work`) of the harness: its time and the requests the sandbox answered meanwhile. */
async function measured(sandbox, work) {
	const before = (await sandbox.call('stats')).requests;
	const started = performance.now();
	const result = await work();
	const ms = performance.now() - started;
	if (result.error) throw result.error;
	return { ms, requests: (await sandbox.call('stats')).requests - before };
}

/**
 * One sandbox of `customers`; for each selection: Fetch Test Event's and the activation poll's time
 * and requests, and (`passes`) the polls of the first pass, polled back to back.
 */
async function publishRun({ customers, passes = true, log = console.log, ...built }) {
	const sandbox = await startSandboxProcess({ customers, bigCustomerInvoices: 0 });
	const rows = [];
	try {
		for (const [name, parameters] of Object.entries(SELECTIONS)) {
			const poller = sandboxPoller(built, sandbox, { ...parameters(), scope: 'all' });
			const fetch = await measured(sandbox, () => poller.fetchTestEvent());
			const publish = await measured(sandbox, () => poller.activate());
			log(
				`  ${customers.toLocaleString('en-US')} customers, ${name}: Fetch Test Event in ${seconds(fetch.ms)} (${fetch.requests} requests), published in ${seconds(publish.ms)} (${publish.requests} requests)`,
			);
			let polls = 0;
			while (passes && !firstPassDone(poller.nodeStaticData)) {
				const result = await poller.poll();
				if (result.error) throw result.error;
				polls++;
			}
			const row = {
				customers,
				name,
				fetchMs: fetch.ms,
				fetchRequests: fetch.requests,
				publishMs: publish.ms,
				publishRequests: publish.requests,
				polls: passes ? polls : undefined,
			};
			if (passes) log(`    the first pass ended after ${polls} more polls`);
			rows.push(row);
		}
	} finally {
		await sandbox.close();
	}
	return rows;
}

module.exports = { publishRun };
