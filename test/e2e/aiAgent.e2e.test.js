'use strict';
// The node as an AI Agent's tool in a real n8n, run by the CLI (import, execute --id): Manual
// Trigger → AI Agent, with an OpenAI Chat Model whose credential points at a scripted model server
// of the tests' own (scriptedChatModel.js) and the tool variant of this node (subscriptionBillingTool)
// against the sandbox. The model answers the first call with a call of the tool, the second with a
// final message. Both APIs of the OpenAI Chat Model are run: Responses (its default) and Chat
// Completions. Checked: the tool the model is offered (its name as n8n derives it from the node's
// name from the panel, at most 64 characters), the request the sandbox received, the tool's result
// in the model's second call, and the agent's answer; and, for a name given where the ID belongs,
// where the node's error goes (to the model, or the run's end).
const {
	PACKAGE_NAME,
	OPENAI_CHAT_MODEL_FILE,
	credentialFor,
	startEnvironment,
	requestsOf,
	describeRun,
	nodeRun,
	outputJson,
	panelVersion,
	agentWorkflowStart,
} = require('./helpers');
const {
	startScriptedChatModel,
	chatToolResult,
	responsesToolResult,
	CALL_ID,
} = require('./scriptedChatModel');
const { toolDescription } = require('../../dist/nodes/SubscriptionBilling/editor');
const { SHARED_FIELDS } = require('../../dist/nodes/SubscriptionBilling/resources/sharedFields');
const { resources } = require('../../dist/nodes/SubscriptionBilling/SubscriptionBilling.node');

const BILLING_CREDENTIAL = { id: 'sbAgentBilling01', name: 'Subscription Billing account' };
const OPENAI_CREDENTIAL = { id: 'sbAgentOpenAi001', name: 'Scripted model' };
// as n8n names the tool added from the panel on Subscription → Get ("<action> in <node>")
const TOOL_NODE = 'Get a subscription in Subscription Billing';
const TOOL_NAME = 'Get_a_subscription_in_Subscription_Billing';
const FINAL_TEXT = 'The subscription is active.';
const subscription = resources.find((resource) => resource.value === 'subscription');

let env;
let sandbox;
let n8n;
let model;
/** What the scripted model answers; a test may change the tool's arguments. */
let script;

function agentWorkflow(id, { responsesApi }) {
	const start = agentWorkflowStart(
		n8n,
		`What is the status of subscription ${sandbox.fixtures.subscriptionId}?`,
	);
	return {
		id,
		name: `e2e: AI Agent with the Subscription Billing tool (${responsesApi ? 'Responses' : 'Chat Completions'} API)`,
		nodes: [
			...start.nodes,
			{
				id: 'agent-model',
				name: 'OpenAI Chat Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: panelVersion(n8n, OPENAI_CHAT_MODEL_FILE),
				position: [120, 220],
				parameters: {
					model: { __rl: true, mode: 'id', value: 'scripted-model' },
					responsesApiEnabled: responsesApi,
					options: {},
				},
				credentials: { openAiApi: OPENAI_CREDENTIAL },
			},
			{
				id: 'agent-tool',
				name: TOOL_NODE,
				type: `${PACKAGE_NAME}.subscriptionBillingTool`,
				typeVersion: 1,
				position: [320, 220],
				parameters: {
					resource: 'subscription',
					operation: 'get',
					subscriptionId: {
						__rl: true,
						mode: 'id',
						value: "={{ $fromAI('subscriptionId', 'The ID of the subscription', 'string') }}",
					},
				},
				credentials: { subscriptionBillingApi: BILLING_CREDENTIAL },
			},
		],
		connections: {
			...start.connections,
			'OpenAI Chat Model': {
				ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
			},
			[TOOL_NODE]: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
		// as the editor saves a new workflow (in the legacy order, v0, AI Agent v3 resumes before its tool has run)
		settings: { executionOrder: 'v1' },
	};
}

const WORKFLOWS = [
	{ api: 'responses', id: 'sbE2eAgentResp01', responsesApi: true },
	{ api: 'chat', id: 'sbE2eAgentChat01', responsesApi: false },
];

beforeAll(async () => {
	env = await startEnvironment({ name: 'e2e-ai-agent' });
	({ sandbox, n8n } = env);
	script = {
		toolName: TOOL_NAME,
		toolArguments: { subscriptionId: sandbox.fixtures.subscriptionId },
		finalText: FINAL_TEXT,
	};
	model = await startScriptedChatModel(script);
	await n8n.importCredentials([
		credentialFor(sandbox, BILLING_CREDENTIAL),
		{
			...OPENAI_CREDENTIAL,
			type: 'openAiApi',
			data: { apiKey: 'sk-scripted-model', url: model.baseUrl, header: false },
		},
	]);
	await n8n.importWorkflow(WORKFLOWS.map((w) => agentWorkflow(w.id, w)));
});

afterAll(async () => {
	await model?.close();
	await env?.close();
});

beforeEach(() => {
	sandbox.reset();
	model.reset();
	script.toolArguments = { subscriptionId: sandbox.fixtures.subscriptionId };
});

/** The tools a model call offers, as { name, description, parameters } whichever API it used. */
function offeredTools(call) {
	return (call.body.tools ?? []).map((tool) => {
		const fn = tool.function ?? tool; // Chat Completions nests the function; Responses does not
		return { name: fn.name, description: fn.description, parameters: fn.parameters };
	});
}

describe.each(WORKFLOWS)(
	'an AI Agent with the OpenAI Chat Model ($api API) calling the tool',
	({ api, id }) => {
		test('the model is offered the tool, the call reaches the API, the result reaches the model, the agent answers', async () => {
			const r = await n8n.execute(id);
			if (!r.succeeded)
				throw new Error(
					`workflow ${id} failed: ${describeRun(r)}\nmodel calls: ${JSON.stringify(model.calls).slice(0, 3000)}`,
				);

			// two model calls on the API chosen: the question, then the question with the tool's result
			expect(model.calls.map((c) => `${c.method} ${c.path}`)).toEqual(
				Array(2).fill(api === 'chat' ? 'POST /v1/chat/completions' : 'POST /v1/responses'),
			);
			expect(model.calls.every((c) => c.authorization === 'Bearer sk-scripted-model')).toBe(true);
			const [first, second] = model.calls;
			const [tool, ...others] = offeredTools(first);
			expect(others).toEqual([]);
			expect(tool).toMatchObject({
				name: TOOL_NAME,
				// the node's own Description of Subscription → Get (n8n's automatic one would be the node's name)
				description: toolDescription(
					subscription,
					subscription.operations.find((operation) => operation.value === 'get'),
					SHARED_FIELDS,
				),
				parameters: {
					type: 'object',
					properties: {
						subscriptionId: { type: 'string', description: 'The ID of the subscription' },
					},
				},
			});
			expect(tool.name.length).toBeLessThanOrEqual(64);

			// the tool ran the node against the API: one request, with the key, for the model's ID
			expect(
				requestsOf(sandbox).map((q) => ({
					method: q.method,
					path: q.path,
					status: q.status,
					apiKey: q.apiKey,
				})),
			).toEqual([
				{
					method: 'GET',
					path: `/subscriptions/${sandbox.fixtures.subscriptionId}`,
					status: 200,
					apiKey: sandbox.apiKey,
				},
			]);

			// the node's output, as the tool's result, in the model's second call
			const result =
				api === 'chat' ? chatToolResult(second.body) : responsesToolResult(second.body);
			expect(typeof result).toBe('string');
			const returned = JSON.parse(result);
			expect(returned).toEqual([
				expect.objectContaining({
					subscription_id: sandbox.fixtures.subscriptionId,
					status: 'ACTIVE',
					customer_name: sandbox.fixtures.customerName,
				}),
			]);
			expect(JSON.stringify(returned)).not.toContain(sandbox.apiKey);

			// n8n logged the call on the tool node, and the agent answered with the model's final text
			const toolRun = nodeRun(r.run, TOOL_NODE);
			// the model's arguments; n8n 1.x logs the model's id of the call with them (toolCallId), 2.x does not
			const loggedCallId = Number(n8n.version.split('.')[0]) < 2 ? { toolCallId: CALL_ID } : {};
			expect(toolRun.inputOverride.ai_tool[0].map((item) => item.json)).toEqual([
				{ subscriptionId: sandbox.fixtures.subscriptionId, ...loggedCallId },
			]);
			expect(toolRun.data.ai_tool[0].map((item) => item.json)).toEqual(returned);
			expect(outputJson(r.run, 'AI Agent')).toEqual([{ output: FINAL_TEXT }]);
		});
	},
);

// What AI Agent v3 does with a tool's error, as measured: 2.41.1 hands the model the error item's
// message and goes on; 2.8.4 ends the run with the error (the model is not called again).
const TOOL_ERROR_TO_MODEL = { '2.8.4': false, '2.41.1': true };

test("a name where the subscription ID belongs: the node's error (the argument, what is wanted, where it is found, nothing sent), without a stack trace, reaches the model (2.41) or ends the run (2.8)", async () => {
	script.toolArguments = { subscriptionId: 'Acme Corporation Growth' };
	const r = await n8n.execute(WORKFLOWS[0].id);
	const message =
		'Subscription (tool argument "subscriptionId"): "Acme Corporation Growth" is not an ID (an ID has only letters, digits and hyphens). ' +
		"Give the subscription_id from Customer → Search or Customer → Get (a customer's active_subscription_ids) or from an invoice. " +
		'Nothing was sent to the API. Correct the argument and call the tool again.';
	expect(sandbox.requests).toHaveLength(0);
	const toModel = r.succeeded;
	if (n8n.version in TOOL_ERROR_TO_MODEL) expect(toModel).toBe(TOOL_ERROR_TO_MODEL[n8n.version]);
	if (toModel) {
		expect(JSON.parse(responsesToolResult(model.calls[1].body))).toEqual([{ error: message }]);
		expect(nodeRun(r.run, TOOL_NODE).error.message).toBe(message);
		expect(outputJson(r.run, 'AI Agent')).toEqual([{ output: FINAL_TEXT }]);
	} else {
		expect(model.calls).toHaveLength(1);
		expect(r.error?.message ?? r.stdout).toContain(message);
	}
});
