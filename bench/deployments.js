#!/usr/bin/env node
'use strict';
// node bench/deployments.js
//
// Return All of a customer's invoices through this package's node (n8n-core's WorkflowExecute,
// test/harness), against the contract and against each deployment of test/sandbox/deployments.js
// (one thing varied in front of the same sandbox), in one run: wall time, requests the deployment
// received, requests that reached the API, items. Then a silent server with the node's settings made
// short: how long until the item fails, attempts, connections left open.
// Environment: BENCH_INVOICES (default 10000), BENCH_ROUNDS (default 3; the median is printed).

const path = require('node:path');
const { buildPackage } = require('./run');
const { startSandbox, startDeployment, DEPLOYMENTS } = require('../test/sandbox');

const INVOICES = Number(process.env.BENCH_INVOICES || 10000);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const PKG = path.join(__dirname, 'dist', 'pkg', 'dist');
const SKIPPED = new Set(['silent', 'repeated-next']);

function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

async function main() {
	buildPackage();
	const harness = require(path.join(PKG, 'test', 'harness', 'index.cjs'));
	const { SubscriptionBilling } = require(path.join(PKG, 'nodes', 'SubscriptionBilling', 'SubscriptionBilling.node.js'));
	const { SubscriptionBillingApi } = require(path.join(PKG, 'credentials', 'SubscriptionBillingApi.credentials.js'));
	const sandbox = await startSandbox({ seed: { bigCustomerInvoices: INVOICES } });
	const run = (baseUrl, parameters) =>
		harness.runNode({
			nodeType: new SubscriptionBilling(),
			credentialType: new SubscriptionBillingApi(),
			credentials: { apiKey: sandbox.apiKey, environment: 'production', productionBaseUrl: baseUrl },
			parameters,
		});
	const listAll = { resource: 'invoice', operation: 'getManyForCustomer', customerId: sandbox.fixtures.bigCustomerId, returnAll: true, faultHandling: { retryDelay: 50 } };
	const rows = [];
	try {
		for (const name of Object.keys(DEPLOYMENTS).filter((variant) => !SKIPPED.has(variant))) {
			const front = await startDeployment(sandbox, name);
			const times = [];
			let last;
			for (let round = 0; round < ROUNDS; round++) {
				front.clear();
				sandbox.clearRequests();
				const started = performance.now();
				last = await run(front.baseUrl, listAll);
				times.push(performance.now() - started);
			}
			rows.push({
				deployment: name,
				ms: Math.round(median(times)),
				requests: front.requests.length,
				reachedApi: sandbox.requests.length,
				items: last.items.length,
				result: last.error ? last.error.message : 'ok',
			});
			await front.close();
		}
		const silent = await startDeployment(sandbox, 'silent');
		const started = performance.now();
		const failed = await run(silent.baseUrl, {
			resource: 'subscription',
			operation: 'get',
			subscriptionId: sandbox.fixtures.subscriptionId,
			requestOptions: { timeout: 1000 },
			faultHandling: { maxRequestTime: 5 },
		});
		const took = Math.round(performance.now() - started);
		let open = await silent.openConnections();
		for (let turn = 0; turn < 100 && open > 0; turn++) {
			await new Promise((resolve) => setTimeout(resolve, 10));
			open = await silent.openConnections();
		}
		rows.push({ deployment: 'silent (timeout 1 s, 5 s per request)', ms: took, requests: silent.requests.length, reachedApi: 0, items: failed.items.length, result: `${failed.error && failed.error.message}; ${open} connections left open` });
		await silent.close();
	} finally {
		await sandbox.close();
		harness.shutdownN8nCore();
	}
	console.log(`Return All of ${INVOICES} invoices, median of ${ROUNDS} runs, per deployment:`);
	console.table(rows);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
