#!/usr/bin/env node
'use strict';
// npm run sandbox -- [options]: the sandbox on its own (options: --help, cliOptions.js).
// Prints the base URL, the API key, the world and the fixture ids; Ctrl-C / SIGTERM closes it.

const { startSandbox, startDeployment, DEPLOYMENTS } = require('./index');
const { sandboxSettings, optionsHelp, worldSummary, SandboxOptionError } = require('./cliOptions');

const USAGE = `npm run sandbox -- [options]   (or: node test/sandbox/cli.js [options])

The Subscription Billing API v2 sandbox with its seeded world: the same world on every run for the
same options. Each option can also be given by its environment variable; the option wins.

${optionsHelp()}

Example, 10,000 customers behind 40 ms and 100 requests/s:
  npm run sandbox -- --customers=10000 --latency-ms=40 --rate=100`;

/** The settings of this command line, or the reason it is refused. */
function settingsOf(argv, env) {
	const settings = sandboxSettings(argv, env);
	const unknown = settings.rest.filter((arg) => arg !== '--help' && arg !== '-h');
	if (unknown.length > 0)
		throw new SandboxOptionError(`unknown option ${unknown[0]} (--help lists them)`);
	return settings;
}

async function main(argv) {
	if (argv.includes('--help') || argv.includes('-h')) {
		console.log(USAGE);
		return;
	}
	let settings;
	try {
		settings = settingsOf(argv, process.env);
	} catch (error) {
		if (!(error instanceof SandboxOptionError)) throw error;
		console.error(`sandbox: ${error.message}`);
		process.exit(2);
	}
	const sandbox = await startSandbox(settings.options);
	const deploymentName = settings.deployment;
	const deployment = deploymentName ? await startDeployment(sandbox, deploymentName) : undefined;
	console.log(`Subscription Billing API v2 sandbox listening`);
	if (deployment) {
		console.log(
			`deployment: ${deploymentName} ${JSON.stringify(DEPLOYMENTS[deploymentName])} in front of ${sandbox.baseUrl}`,
		);
	}
	console.log(`base URL : ${deployment ? deployment.baseUrl : sandbox.baseUrl}`);
	console.log(`API key  : ${sandbox.apiKey}  (header X-SERVICE-KEY)`);
	console.log(`world    : ${worldSummary(sandbox)}`);
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

main(process.argv.slice(2)).catch((err) => {
	console.error(err);
	process.exit(1);
});
