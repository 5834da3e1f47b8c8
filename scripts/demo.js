#!/usr/bin/env node
'use strict';
/**
 * `npm run demo`: this package in a real n8n, in one command.
 *
 * Builds the package, starts the API sandbox with its seeded data (or uses a real service when
 * BILLING_BASE_URL and BILLING_API_KEY are set), installs the pinned n8n into .n8n-local/ if it is
 * missing, loads the package as a community package, creates the owner account, imports a
 * credential and the example workflows, starts n8n on 127.0.0.1 and prints what to do.
 * Ctrl-C stops everything it started.
 *
 * Options:  --fresh      start from an empty n8n (forget workflows, executions, the owner)
 *           --no-build   use dist/ as it is
 *           --verbose    show n8n's own output
 *           --queue      n8n's queue mode: Postgres and Redis (Debian's packages, installed with
 *                        apt-get when missing), a main and two workers, the package on each;
 *                        everything is fresh and temporary (scripts/lib/queue.js)
 *           --workers=N  --concurrency=N   with --queue: how many workers (2), executions per worker (10)
 *           and the sandbox's, as `npm run sandbox` takes them (listed below), e.g.
 *           --customers=10000 --latency-ms=40 --rate=100
 * Env:      BILLING_BASE_URL, BILLING_API_KEY, BILLING_ENVIRONMENT (production|staging)
 *           N8N_DEMO_PORT (default 5678, or a free port when it is taken), N8N_E2E_VERSION
 *           and the sandbox's SANDBOX_* (listed below)
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { N8n, OWNER, portIsFree } = require('./lib/n8n');
const { QueueCluster } = require('./lib/queue');
const { tryLines } = require('./lib/sandboxActions');
const { endedMessage, stoppingMessage, listed } = require('./lib/demoMessages');
const { shownPath } = require('./lib/shownPath');
const { LOCAL, ROOT } = require('./n8n-local');
const { demoOptions } = require('./lib/demoOptions');
const { optionsHelp, worldSummary } = require('../test/sandbox/cliOptions');

const CREDENTIAL_ID = 'sbSandboxCred001';
const CREDENTIAL_NAME = 'Subscription Billing account';
const EXAMPLES = path.join(ROOT, 'examples');

const say = (msg = '') => process.stdout.write(`${msg}\n`);
const step = (msg) => say(`\x1b[1m==>\x1b[0m ${msg}`);

/** How often a workflow's trigger polls, as its Poll Times say ("every minute", "every hour"). */
function pollingSchedule(workflow) {
	const trigger = workflow.nodes.find((node) => node.parameters?.pollTimes);
	const modes = (trigger?.parameters.pollTimes.item ?? []).map((entry) => entry.mode);
	const words = {
		everyMinute: 'every minute',
		everyHour: 'every hour',
		everyDay: 'every day',
		everyWeek: 'every week',
		everyMonth: 'every month',
	};
	return modes.length === 1 && words[modes[0]] ? words[modes[0]] : 'on its Poll Times';
}

async function main() {
	// a bad option is refused before anything starts
	const {
		flags: args,
		number: numberArg,
		sandbox: sandboxWanted,
	} = demoOptions(process.argv.slice(2), process.env);
	const queue = args.has('--queue');
	if (args.has('--help') || args.has('-h')) {
		say(
			fs
				.readFileSync(__filename, 'utf8')
				.split('*/')[0]
				.replace(/^[\s\S]*?\/\*\*\n/, '')
				.replace(/^ \* ?/gm, ''),
		);
		say(`The sandbox's options and variables (not with BILLING_BASE_URL):\n${optionsHelp()}`);
		return;
	}
	const started = Date.now();
	// what the demo started, in order: the names of what of it still runs, and how to stop it
	const parts = [];
	const running = () => parts.flatMap((part) => part.names());
	let stopping = false;
	const stopAll = async (code) => {
		if (stopping) return;
		stopping = true;
		const message = stoppingMessage(running());
		if (message) say(`\n${message}`);
		for (const part of parts.reverse()) {
			try {
				await part.stop();
			} catch (e) {
				say(`  (while stopping: ${e.message})`);
			}
		}
		if (message) say('Stopped.');
		process.exit(code);
	};
	process.on('SIGINT', () => stopAll(0));
	process.on('SIGTERM', () => stopAll(0));
	process.on('SIGHUP', () => stopAll(0));

	if (!args.has('--no-build')) {
		step('Building the package (npm run build)');
		const b = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
		if (b.status !== 0) throw new Error('npm run build failed');
	}

	// the billing service: a real one from the environment, or the sandbox
	let billing;
	const realUrl = process.env.BILLING_BASE_URL;
	const realKey = process.env.BILLING_API_KEY;
	if (realUrl || realKey) {
		if (!realUrl || !realKey)
			throw new Error(
				'set both BILLING_BASE_URL and BILLING_API_KEY (or neither, for the sandbox)',
			);
		const environment = process.env.BILLING_ENVIRONMENT === 'staging' ? 'staging' : 'production';
		billing = { real: true, baseUrl: realUrl, apiKey: realKey, environment };
		step(
			`Using the billing service at ${realUrl} (${environment}) from BILLING_BASE_URL / BILLING_API_KEY`,
		);
	} else {
		step('Starting the API sandbox with seeded data');
		const { startSandbox, startDeployment } = require(path.join(ROOT, 'test', 'sandbox'));
		const sandbox = await startSandbox(sandboxWanted.options);
		const deployment =
			sandboxWanted.deployment && (await startDeployment(sandbox, sandboxWanted.deployment));
		parts.push({
			names: () => ['the sandbox'],
			stop: () => Promise.all([sandbox.close(), deployment && deployment.close()]),
		});
		billing = {
			real: false,
			baseUrl: deployment ? deployment.baseUrl : sandbox.baseUrl,
			apiKey: sandbox.apiKey,
			environment: 'production',
			sandbox,
		};
	}

	step(
		`Preparing n8n (installed into ${shownPath(LOCAL)} the first time: several minutes, about 2.5 GB)`,
	);
	const wanted = Number(process.env.N8N_DEMO_PORT || 5678);
	// 5678 when it is free; otherwise n8n.js chooses one at the start (and again if it is taken meanwhile)
	const port = (await portIsFree(wanted)) ? wanted : undefined;
	let n8n;
	let cluster;
	if (queue) {
		step(
			'Queue mode: Postgres and Redis (apt-get install when missing), a main and workers, each with the package',
		);
		cluster = await QueueCluster.create({
			name: 'demo-queue',
			port,
			quiet: !args.has('--verbose'),
			workers: numberArg('workers', 2),
			concurrency: numberArg('concurrency', 10),
		});
		parts.push({
			names: () => [
				...[cluster.main, ...cluster.workers]
					.filter((instance) => instance.children.size > 0)
					.map((instance) => `n8n ${instance.name}`),
				'Postgres',
				'Redis',
			],
			stop: () => cluster.dispose(),
		});
		n8n = cluster.main;
	} else {
		n8n = await N8n.create({
			keepAs: 'demo',
			fresh: args.has('--fresh'),
			port,
			quiet: !args.has('--verbose'),
		});
		parts.push({
			names: () => (n8n.children.size > 0 ? ['n8n'] : []),
			stop: () => n8n.dispose(),
		});
		n8n.installPackage();
	}

	step('Importing the credential and the example workflows');
	const data = {
		apiKey: billing.apiKey,
		environment: billing.environment,
		productionBaseUrl: '',
		stagingBaseUrl: '',
	};
	data[billing.environment === 'staging' ? 'stagingBaseUrl' : 'productionBaseUrl'] =
		billing.baseUrl;
	const examples = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));
	// the MCP example's Bearer credential, with a token made for this install (printed below)
	const mcp = examples
		.map((f) => JSON.parse(fs.readFileSync(path.join(EXAMPLES, f), 'utf8')))
		.find((wf) => wf.nodes.some((node) => node.type.endsWith('.mcpTrigger')));
	const mcpTrigger = mcp?.nodes.find((node) => node.type.endsWith('.mcpTrigger'));
	const mcpToken = randomBytes(24).toString('hex');
	await n8n.importCredentials([
		{ id: CREDENTIAL_ID, name: CREDENTIAL_NAME, type: 'subscriptionBillingApi', data },
		...(mcpTrigger
			? [
					{
						...mcpTrigger.credentials.httpBearerAuth,
						type: 'httpBearerAuth',
						data: { token: mcpToken },
					},
				]
			: []),
	]);
	const importDir = path.join(n8n.dir, 'examples-import');
	fs.rmSync(importDir, { recursive: true, force: true });
	fs.mkdirSync(importDir);
	for (const f of examples) fs.copyFileSync(path.join(EXAMPLES, f), path.join(importDir, f));
	await n8n.cliOk(['import:workflow', '--separate', `--input=${importDir}`]);
	// Workflows started by the Subscription Billing Trigger are published (active) against the
	// sandbox; against a real service they stay inactive until you publish them yourself.
	const triggered = examples
		.map((f) => JSON.parse(fs.readFileSync(path.join(EXAMPLES, f), 'utf8')))
		.filter((wf) => wf.nodes.some((node) => node.type.endsWith('.subscriptionBillingTrigger')));
	if (!billing.real) for (const wf of triggered) await n8n.activateWorkflow(wf.id);
	if (!billing.real && mcp) await n8n.activateWorkflow(mcp.id);

	step(`Starting n8n ${n8n.version}${queue ? ` and ${cluster.workers.length} workers` : ''}`);
	if (queue) await cluster.start();
	else await n8n.start();
	for (const instance of queue ? [n8n, ...cluster.workers] : [n8n]) {
		instance.server.once('exit', (code, signal) => {
			if (stopping) return;
			say(`\n${endedMessage(instance, code, signal)}`);
			stopAll(1);
		});
	}
	await n8n.setupOwner();

	const workflows = examples.map((f) =>
		JSON.parse(fs.readFileSync(path.join(EXAMPLES, f), 'utf8')),
	);
	const fx = billing.sandbox?.fixtures;
	say('');
	say(
		'\x1b[1mn8n is running with the Subscription Billing node\x1b[0m' +
			` (ready in ${Math.round((Date.now() - started) / 1000)} s)`,
	);
	say('');
	say(`  Editor    ${n8n.baseUrl}`);
	say(`  Login     ${OWNER.email}  /  ${OWNER.password}`);
	say(
		billing.real
			? `  Billing   ${billing.baseUrl} (your service)`
			: `  Sandbox   ${billing.baseUrl}  (API key ${billing.apiKey})\n            ${worldSummary(billing.sandbox)}`,
	);
	if (queue) {
		say(
			`  Queue     main ${n8n.baseUrl} + ${cluster.workers.length} workers (n8n worker --concurrency ${cluster.options.concurrency}), executions run on the workers`,
		);
		say(
			`            Postgres ${cluster.postgres.host}:${cluster.postgres.port} (${cluster.versions.postgres}), Redis ${cluster.redis.host}:${cluster.redis.port} (${cluster.versions.redis})`,
		);
		say(
			`  Logs      ${[n8n, ...cluster.workers].map((i) => shownPath(i.logFile)).join('\n            ')}`,
		);
		say('  Data      temporary: removed on Ctrl-C');
	} else {
		say(`  Data      ${shownPath(n8n.dir)} (kept between runs; --fresh starts over)`);
	}
	say('');
	say('What to try:');
	say('  1. Open one of the example workflows and click "Execute workflow":');
	for (const wf of workflows) say(`       ${wf.name.padEnd(68)} ${n8n.baseUrl}/workflow/${wf.id}`);
	say('  2. Add a node: "+" > search "Subscription Billing" > pick a resource and an operation.');
	for (const wf of triggered) {
		say(
			`  ${billing.real ? 'Inactive (publish it to start polling)' : `Active, polling ${pollingSchedule(wf)}`}: ${wf.name}  ${n8n.baseUrl}/workflow/${wf.id}`,
		);
	}
	if (!billing.real && triggered.length > 0) {
		const byEvent = {};
		for (const wf of triggered) {
			const trigger = wf.nodes.find((node) => node.type.endsWith('.subscriptionBillingTrigger'));
			for (const event of trigger.parameters.events) byEvent[event] = wf.name;
		}
		for (const line of tryLines(billing.sandbox, byEvent).lines) say(`     ${line}`);
	}
	if (mcp) {
		const url = `${n8n.baseUrl}/mcp/${mcpTrigger.parameters.path}`;
		say(
			`  ${billing.real ? 'Inactive (publish it to serve)' : 'Published'}: ${mcp.name}  ${n8n.baseUrl}/workflow/${mcp.id}`,
		);
		say(
			`     MCP server ${url}, header "Authorization: Bearer ${mcpToken}" (README, AI agents and MCP clients)`,
		);
	}
	say(
		`  3. Open the credential "${CREDENTIAL_NAME}" (Overview > Credentials) and click "Retry" / "Test".`,
	);
	if (fx) {
		say(
			'  Sandbox ids to use: customer ' +
				fx.customerId +
				' (' +
				fx.customerName +
				'), subscription ' +
				fx.subscriptionId +
				',',
		);
		say(
			'    open-order subscription ' +
				fx.openOrderSubscriptionId +
				', usage transaction ' +
				fx.usageTransactionId +
				'.',
		);
		say('    The sandbox starts from the same data on every run; all ids: `npm run sandbox`.');
	} else {
		say(
			'  The examples carry sandbox ids: replace them with ids of your account before running them.',
		);
	}
	say('');
	say(`Press Ctrl-C to stop ${listed(running())}.`);
	await new Promise(() => {}); // until a signal
}

main().catch((e) => {
	process.stderr.write(`\ndemo failed: ${e.message}\n`);
	// the 'exit' of this process makes the guards stop n8n; the sandbox dies with the process
	process.exit(1);
});
