#!/usr/bin/env node
'use strict';
// node test/sandbox/cli.js
// env: SANDBOX_PORT (default 0 = a free port), SANDBOX_HOST (default 127.0.0.1),
//      SANDBOX_API_KEY, SANDBOX_INVOICES (invoices of the big customer), SANDBOX_SEED,
//      SANDBOX_LATENCY_MS, SANDBOX_JITTER_MS, SANDBOX_RATE (requests/second per key),
//      SANDBOX_BURST, SANDBOX_MAX_IN_FLIGHT (see limits.js; each also as a flag:
//      --latency-ms=40 --jitter-ms=10 --rate=100 --burst=100 --max-in-flight=64),
//      SANDBOX_DEPLOYMENT or --deployment=<name>: a deployment that differs from the contract
//      (deployments.js, e.g. relative-links, page-cap-refuse, gzip, silent) in front of it.
// Prints the base URL, the API key and the fixture ids; Ctrl-C / SIGTERM closes it.

const { startSandbox, startDeployment, DEPLOYMENTS } = require('./index');

const LIMIT_SETTINGS = [
	['latencyMs', 'SANDBOX_LATENCY_MS', '--latency-ms'],
	['jitterMs', 'SANDBOX_JITTER_MS', '--jitter-ms'],
	['ratePerSecond', 'SANDBOX_RATE', '--rate'],
	['burst', 'SANDBOX_BURST', '--burst'],
	['maxInFlight', 'SANDBOX_MAX_IN_FLIGHT', '--max-in-flight'],
];

function limitsFrom(env, argv) {
	const limits = {};
	for (const [name, variable, flag] of LIMIT_SETTINGS) {
		const given = argv.find((arg) => arg.startsWith(`${flag}=`));
		const value = given ? given.slice(flag.length + 1) : env[variable];
		if (value !== undefined && value !== '') limits[name] = Number(value);
	}
	return limits;
}

async function main() {
	const env = process.env;
	const limits = limitsFrom(env, process.argv.slice(2));
	const seed = {};
	if (env.SANDBOX_INVOICES) seed.bigCustomerInvoices = Number(env.SANDBOX_INVOICES);
	if (env.SANDBOX_SEED) seed.seed = Number(env.SANDBOX_SEED);
	const sandbox = await startSandbox({
		host: env.SANDBOX_HOST || '127.0.0.1',
		port: env.SANDBOX_PORT ? Number(env.SANDBOX_PORT) : 0,
		apiKey: env.SANDBOX_API_KEY || undefined,
		seed,
		limits,
	});
	const flag = process.argv.slice(2).find((arg) => arg.startsWith('--deployment='));
	const deploymentName = flag ? flag.slice('--deployment='.length) : env.SANDBOX_DEPLOYMENT;
	const deployment = deploymentName ? await startDeployment(sandbox, deploymentName) : undefined;
	console.log(`Subscription Billing API v2 sandbox listening`);
	if (deployment) {
		console.log(
			`deployment: ${deploymentName} ${JSON.stringify(DEPLOYMENTS[deploymentName])} in front of ${sandbox.baseUrl}`,
		);
	}
	console.log(`base URL : ${deployment ? deployment.baseUrl : sandbox.baseUrl}`);
	console.log(`API key  : ${sandbox.apiKey}  (header X-SERVICE-KEY)`);
	if (sandbox.limits.active) console.log(`limits   : ${JSON.stringify(sandbox.limits.config)}`);
	console.log('fixtures :');
	for (const [k, v] of Object.entries(sandbox.fixtures)) console.log(`  ${k.padEnd(34)} ${v}`);
	let closing = false;
	const stop = (signal) => {
		if (closing) return;
		closing = true;
		console.log(`\n${signal}: closing sandbox`);
		Promise.all([sandbox.close(), deployment && deployment.close()]).then(() => process.exit(0));
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err) => {
	console.error(err);
	process.exit(1);
});
