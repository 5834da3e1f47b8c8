'use strict';
// Shared by the end-to-end tests: a sandbox, a real n8n with this package loaded, the examples,
// and readers for n8n's run data.
const fs = require('node:fs');
const path = require('node:path');
const { N8n, OWNER, PACKAGE_NAME } = require('../../scripts/lib/n8n');
const { startSandbox } = require('../sandbox');

const ROOT = path.resolve(__dirname, '..', '..');
const EXAMPLES_DIR = path.join(ROOT, 'examples');
const NODE_TYPE = `${PACKAGE_NAME}.subscriptionBilling`;
const CREDENTIAL_TYPE = 'subscriptionBillingApi';
const EXAMPLE_CREDENTIAL_ID = 'sbSandboxCred001';
// the option n8n adds to the resource and operation pickers it serves (HTTP Request reuse)
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/** The example workflows: { file, workflow }[]. */
function loadExamples() {
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			workflow: JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')),
		}));
}

function example(file) {
	return JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'));
}

function credentialFor(
	sandbox,
	{
		id = EXAMPLE_CREDENTIAL_ID,
		name = 'Subscription Billing account',
		apiKey = sandbox.apiKey,
	} = {},
) {
	return {
		id,
		name,
		type: CREDENTIAL_TYPE,
		data: {
			apiKey,
			environment: 'production',
			productionBaseUrl: sandbox.baseUrl,
			stagingBaseUrl: '',
		},
	};
}

/** Starts a sandbox and an n8n (not its server) with the package installed. */
async function startEnvironment({ name, seed, env } = {}) {
	const sandbox = await startSandbox(seed ? { seed } : {});
	let n8n;
	try {
		n8n = await N8n.create({ name, env });
		n8n.installPackage();
	} catch (e) {
		await sandbox.close();
		throw e;
	}
	return {
		sandbox,
		n8n,
		async close() {
			await Promise.allSettled([n8n.dispose(), sandbox.close()]);
		},
	};
}

/** The run data of one node: its first run. */
function nodeRun(run, nodeName) {
	const runs = run?.data?.resultData?.runData?.[nodeName];
	if (!runs)
		throw new Error(
			`node "${nodeName}" did not run; ran: ${Object.keys(run?.data?.resultData?.runData ?? {}).join(', ')}`,
		);
	return runs[0];
}

/** Items of a node's output (branch `output`, default 0): n8n items, { json, binary, pairedItem }. */
function outputItems(run, nodeName, output = 0) {
	return nodeRun(run, nodeName).data?.main?.[output] ?? [];
}

const outputJson = (run, nodeName, output = 0) =>
	outputItems(run, nodeName, output).map((i) => i.json);

/** Requests the sandbox received, as 'METHOD /path' (relative to /api/v2) with query and body. */
function requestsOf(sandbox) {
	return sandbox.requests.map((r) => ({
		method: r.method,
		path: r.path.replace(/^\/api\/v2/, ''),
		query: r.query,
		body: r.body,
		status: r.status,
		apiKey: r.headers['x-service-key'],
	}));
}

/** Explains a failed execute: exit code, the error and the end of the output. */
function describeRun(r) {
	return `exit ${r.code ?? r.signal}; error: ${r.error ? JSON.stringify(r.error).slice(0, 1500) : 'none'}\n--- stdout (end)\n${r.stdout.slice(-3000)}\n--- stderr (end)\n${r.stderr.slice(-3000)}`;
}

/** The node's description as built in dist/ (what n8n loads). */
function builtNodeDescription() {
	const file = path.join(
		ROOT,
		'dist',
		'nodes',
		'SubscriptionBilling',
		'SubscriptionBilling.node.js',
	);
	delete require.cache[require.resolve(file)];
	const { SubscriptionBilling } = require(file);
	return new SubscriptionBilling().description;
}

/** The action's name in the nodes panel for `resource` → `operation`, from the built description. */
function actionOf(resource, operation, description = builtNodeDescription()) {
	const picker = description.properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
	);
	return picker.options.find((o) => o.value === operation).action;
}

/** { resourceValue: { name, operations: [operation display names, in the picker's order] } } */
function expectedOperations(description = builtNodeDescription()) {
	const resources = description.properties.find((p) => p.name === 'resource');
	const out = {};
	for (const r of resources.options) {
		const picker = description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(r.value),
		);
		if (!picker) continue; // the "Custom API Call" resource n8n adds to the served description
		const options = picker.options.filter((o) => o.value !== CUSTOM_API_CALL);
		out[r.value] = {
			name: r.name,
			operations: options.map((o) => o.name),
			actions: options.map((o) => o.action),
		};
	}
	return out;
}

/**
 * Poll Times that fire every `seconds` seconds on every tested release: one entry per firing, each a
 * cron with a single fixed second. n8n 2.41 refuses any other seconds field (a range, a step, a
 * list) as "shorter than a minute"; 2.8 refuses only a `*` there.
 */
function pollEverySeconds(seconds) {
	const item = [];
	for (let second = 0; second < 60; second += seconds)
		item.push({ mode: 'custom', cronExpression: `${second} * * * * *` });
	return { item };
}

/**
 * The version n8n's nodes panel adds of one of n8n's own nodes (its defaultVersion, else its newest),
 * read from the running release's install: `relativeFile` below its node_modules.
 */
function panelVersion(n8n, relativeFile) {
	const text = fs.readFileSync(path.join(n8n.install.dir, 'node_modules', relativeFile), 'utf8');
	const defaultVersion = /defaultVersion: ([\d.]+)/.exec(text);
	if (defaultVersion) return Number(defaultVersion[1]);
	const versions = /version: \[([\d., ]+)\]/.exec(text);
	if (!versions) throw new Error(`no version in ${relativeFile}`);
	return Math.max(...versions[1].split(',').map(Number));
}

const AI_AGENT_FILE = '@n8n/n8n-nodes-langchain/dist/nodes/agents/Agent/Agent.node.js';
const OPENAI_CHAT_MODEL_FILE =
	'@n8n/n8n-nodes-langchain/dist/nodes/llms/LMChatOpenAi/LmChatOpenAi.node.js';

/**
 * A Manual Trigger "Start" feeding an "AI Agent" (the version the panel adds) that is asked
 * `prompt`: { nodes, connections } to add a model and tools to. Run it with `settings:
 * { executionOrder: 'v1' }`, as the editor saves a new workflow.
 */
function agentWorkflowStart(n8n, prompt) {
	return {
		nodes: [
			{
				id: 'agent-start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'agent-agent',
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: panelVersion(n8n, AI_AGENT_FILE),
				position: [220, 0],
				parameters: { promptType: 'define', text: prompt, options: {} },
			},
		],
		connections: { Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] } },
	};
}

/** A workflow holding only n8n's Manual Trigger, its output pinned to `items` (JSON objects). */
function pinnedManualTrigger({ id, name, items }) {
	const trigger = 'When clicking ‘Execute workflow’';
	return {
		id,
		name,
		active: false,
		nodes: [
			{
				id: crypto.randomUUID(),
				name: trigger,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
		],
		connections: {},
		pinData: { [trigger]: items.map((json) => ({ json })) },
		settings: { executionOrder: 'v1' },
	};
}

/** Polls `check` until it returns a value (not undefined); fails with `what` after `timeoutMs`. */
async function waitFor(what, check, timeoutMs = 90_000) {
	const deadline = Date.now() + timeoutMs;
	let last;
	let failure;
	for (;;) {
		// n8n may list an execution a moment before it serves it (or while it starts again): try again.
		try {
			last = await check();
			failure = undefined;
		} catch (error) {
			if (error.final) throw error;
			last = undefined;
			failure = error;
		}
		if (last !== undefined && last !== false) return last;
		if (Date.now() > deadline)
			throw new Error(`timed out waiting for ${what}${failure ? `: ${failure.message}` : ''}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * Every finished execution of the workflow, one entry per node that ran, with its output items;
 * undefined while n8n lists an execution it does not serve yet (just finished, or n8n starting again).
 * A failed execution fails the test at once.
 */
async function readExecutions(n8n, workflowId) {
	const flatted = require(path.join(n8n.install.dir, 'node_modules', 'flatted'));
	const list = await n8n.rest(
		'GET',
		`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`,
	);
	if (list.status !== 200) return undefined;
	const results = [];
	for (const summary of list.body.data.results) {
		if (summary.status !== 'success' && summary.status !== 'error') continue;
		const one = await n8n.rest('GET', `/rest/executions/${summary.id}`);
		if (one.status !== 200 || !one.body?.data) return undefined;
		const data =
			typeof one.body.data.data === 'string'
				? flatted.parse(one.body.data.data)
				: one.body.data.data;
		if (summary.status === 'error') {
			const failed = Object.values(data.resultData.runData)
				.flat()
				.find((run) => run.error)?.error;
			const { message, description } = data.resultData.error ?? failed ?? {};
			throw Object.assign(
				new Error(
					`execution ${summary.id} failed: ${message}${description ? ` (${description})` : ''} ${JSON.stringify(data.resultData).slice(0, 1500)}`,
				),
				{ final: true },
			);
		}
		for (const [node, runs] of Object.entries(data.resultData.runData)) {
			results.push({
				id: summary.id,
				mode: summary.mode,
				node,
				items: runs[0].data.main[0].map((item) => item.json),
			});
		}
	}
	return results;
}

/**
 * N8N_E2E_DURABLE_CURSORS=1: n8n 2.36+ keeps each poll's state in its poller_state table and commits
 * it with the execution (2.37+ only with its scheduler running the polls and the publication service).
 */
const DURABLE_CURSORS =
	process.env.N8N_E2E_DURABLE_CURSORS === '1'
		? {
				N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
				N8N_SCHEDULER_ENABLED: 'true',
				N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
				N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
			}
		: undefined;

module.exports = {
	ROOT,
	pinnedManualTrigger,
	OWNER,
	NODE_TYPE,
	CREDENTIAL_TYPE,
	EXAMPLE_CREDENTIAL_ID,
	PACKAGE_NAME,
	loadExamples,
	example,
	credentialFor,
	DURABLE_CURSORS,
	pollEverySeconds,
	readExecutions,
	startEnvironment,
	waitFor,
	nodeRun,
	outputItems,
	outputJson,
	requestsOf,
	describeRun,
	builtNodeDescription,
	actionOf,
	expectedOperations,
	panelVersion,
	agentWorkflowStart,
	OPENAI_CHAT_MODEL_FILE,
};
