/**
 * The node as an AI agent's tool, the way n8n 2.8 builds and runs it.
 *
 * Building: n8n's loader offers every `usableAsTool` node a second time as `<name>Tool`; the
 * conversion is helpers/toolGeneration.cts (SIMULATED there: a copy of n8n 2.8.4's code); where
 * n8n 2.8.4 is installed (scripts/n8n-local.js), the first test checks that the copy gives the
 * same description as n8n's own code.
 *
 * Running: everything else is n8n-core 2.8.1's real code through WorkflowExecute: a workflow
 * Start → Agent, with the tool node connected to the agent's ai_tool input. The agent asks the
 * engine for its tools (getInputConnectionData → createNodeAsTool, which derives the schema from
 * the `$fromAI()` calls and the description from the operation) and then calls one, in both ways
 * n8n 2.8 agents do:
 *   - direct: `tool.invoke(args)` (AgentExecutor-based agents, MCP): makeHandleToolInvocation runs
 *     the node's `execute` in a SupplyDataContext whose ai_tool input is the arguments;
 *   - engine request (AI Agent v3): the agent returns `{ actions: [...] }`, WorkflowExecute runs the
 *     tool node with the arguments as its ai_tool input, then resumes the agent with the result.
 * SIMULATED: the agent node and its language model — a stub decides which tool to call with which
 * arguments (what an LLM's tool call would say) and reads the result the way AI Agent v3 does.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { PackageDirectoryLoader } from 'n8n-core';
import {
	NodeConnectionTypes,
	NodeHelpers,
	deepCopy,
	type EngineResponse,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type ICredentialType,
} from 'n8n-workflow';
import { MAX_TOOL_DESCRIPTION, toolDescription } from '../nodes/SubscriptionBilling/editor';
import { resources } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { SHARED_FIELDS } from '../nodes/SubscriptionBilling/resources/sharedFields';
import { useSandbox } from './helpers/billing.cjs';
import {
	convertNodeToAiTool,
	toolDescriptionForEditor,
	toolTypeForExecution,
} from './helpers/toolGeneration.cjs';
import { ensureN8nCoreEnvironment } from './harness/environment.cjs';
import { START_NODE_TYPE, runWorkflow } from './harness/index.cjs';

const packageRoot = path.resolve(__dirname, '..');
const { LOCAL: n8nInstalls } = require('../scripts/n8n-local') as { LOCAL: string };
const N8N_TOOL_GENERATION = path.join(
	n8nInstalls,
	'n8n-2.8.4/node_modules/n8n/dist/tool-generation/index.js',
);

/** The package as n8n loads it from dist/ (codex from the .node.json, Request Options added). */
async function loadPackage(): Promise<{ nodeType: INodeType; credentialType: ICredentialType }> {
	ensureN8nCoreEnvironment();
	if (
		!existsSync(
			path.join(packageRoot, 'dist/nodes/SubscriptionBilling/SubscriptionBilling.node.js'),
		)
	) {
		throw new Error('dist/ is missing: run npm run build first (npm test does)');
	}
	const loader = new PackageDirectoryLoader(packageRoot);
	await loader.loadAll();
	return {
		nodeType: loader.nodeTypes.subscriptionBilling.type as INodeType,
		credentialType: loader.credentialTypes.subscriptionBillingApi.type,
	};
}

/** What a LangChain DynamicStructuredTool built by n8n-core exposes (zod v3 schema). */
interface AgentTool {
	name: string;
	description: string;
	schema: { shape: Record<string, { description?: string; _def: { typeName: string } }> };
	metadata?: { sourceNodeName?: string };
	invoke(args: IDataObject): Promise<string>;
}

interface ToolCall {
	tool: string;
	args: IDataObject;
}

const AGENT_TYPE = 'harnessAgent';
/** Stand-in for the AI Agent node; `decide` plays the language model. */
function agentNodeType(
	mode: 'direct' | 'engine',
	decide: (tools: AgentTool[]) => ToolCall,
): INodeType {
	return {
		description: {
			displayName: 'Harness Agent',
			name: AGENT_TYPE,
			group: ['transform'],
			version: 1,
			description: 'Calls one tool as a language model would tell it to',
			defaults: { name: 'Agent' },
			inputs: [
				NodeConnectionTypes.Main,
				{ type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true },
			],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions, response?: EngineResponse) {
			const tools = (await this.getInputConnectionData(
				NodeConnectionTypes.AiTool,
				0,
			)) as AgentTool[];
			const offered = tools.map((tool) => ({
				name: tool.name,
				description: tool.description,
				schema: Object.fromEntries(
					Object.entries(tool.schema.shape).map(([key, field]) => [
						key,
						{ type: field._def.typeName, description: field.description },
					]),
				),
				sourceNodeName: tool.metadata?.sourceNodeName,
			}));
			const call = decide(tools);
			const tool = tools.find((candidate) => candidate.name === call.tool);
			if (!tool) throw new Error(`No tool ${call.tool}`);
			if (mode === 'direct') {
				const observation = await tool.invoke(call.args);
				return [[{ json: { offered, observation } } as INodeExecutionData]];
			}
			if (!response?.actionResponses?.length) {
				// As AI Agent v3's createEngineRequests turns the model's tool call into a request.
				return {
					actions: [
						{
							actionType: 'ExecutionNodeAction',
							nodeName: tool.metadata?.sourceNodeName as string,
							input: call.args,
							type: NodeConnectionTypes.AiTool,
							id: 'call_1',
							metadata: { itemIndex: 0 },
						},
					],
					metadata: {},
				} as never;
			}
			// As AI Agent v3's buildSteps reads the tool's result (buildObservation).
			const [{ data, action }] = response.actionResponses;
			const aiToolData = data?.data?.[NodeConnectionTypes.AiTool]?.[0]?.map((item) => item?.json);
			const observation = aiToolData?.length
				? JSON.stringify(aiToolData)
				: JSON.stringify({ error: data?.error?.message });
			return [[{ json: { offered, observation, action: action as unknown as IDataObject } }]];
		},
	};
}

const FROM_AI_ID = "={{ $fromAI('subscriptionId', 'The subscription id', 'string') }}";
const TOOL_NODE = 'Subscription Billing';

async function runAgentWithTool(
	mode: 'direct' | 'engine',
	toolParameters: IDataObject,
	decide: (tools: AgentTool[]) => ToolCall,
	apiKey = sandbox.apiKey,
) {
	const { nodeType, credentialType } = await loadPackage();
	const toolType = toolTypeForExecution(nodeType);
	const nodes: INode[] = [
		{
			id: 'start',
			name: 'Start',
			type: START_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'agent',
			name: 'Agent',
			type: AGENT_TYPE,
			typeVersion: 1,
			position: [200, 0],
			parameters: {},
		},
		{
			id: 'tool',
			name: TOOL_NODE,
			type: toolType.description.name,
			typeVersion: 1,
			position: [200, 200],
			parameters: { descriptionType: 'auto', ...toolParameters } as INode['parameters'],
			credentials: { subscriptionBillingApi: { id: 'cred-1', name: 'Billing' } },
		},
	];
	const result = await runWorkflow({
		nodeTypes: [agentNodeType(mode, decide), toolType],
		credentialTypes: [credentialType],
		credentials: {
			'cred-1': { apiKey, environment: 'production', productionBaseUrl: sandbox.baseUrl },
		},
		workflow: {
			nodes,
			connections: {
				Start: { main: [[{ node: 'Agent', type: NodeConnectionTypes.Main, index: 0 }]] },
				[TOOL_NODE]: { ai_tool: [[{ node: 'Agent', type: NodeConnectionTypes.AiTool, index: 0 }]] },
			},
		},
		startItems: [{ chatInput: 'What is the status of my subscription?' }],
	});
	return {
		result,
		agent: result.outputOf('Agent')[0]?.json,
		toolRuns: result.run.data.resultData.runData[TOOL_NODE] ?? [],
	};
}

const sandbox = useSandbox();

describe('the tool variant n8n derives from the node', () => {
	// Skipped (reported as such) where n8n 2.8.4 is not installed, e.g. in CI.
	const testWhereN8nIsInstalled = existsSync(N8N_TOOL_GENERATION) ? test : test.skip;
	testWhereN8nIsInstalled(
		'matches what n8n 2.8.4 itself builds (n8n installed in .n8n-local/)',
		async () => {
			const { nodeType } = await loadPackage();
			const n8n = require(N8N_TOOL_GENERATION) as {
				convertNodeToAiTool: typeof convertNodeToAiTool;
			};
			const theirs = n8n.convertNodeToAiTool({
				description: deepCopy(nodeType.description),
			}).description;
			expect(toolDescriptionForEditor(nodeType.description)).toEqual(theirs);
		},
	);

	test("is subscriptionBillingTool: an ai_tool output, the node's own Description per operation (n8n adds none), an AI Tools codex", async () => {
		const { nodeType } = await loadPackage();
		const base = deepCopy(nodeType.description);
		const tool = toolDescriptionForEditor(nodeType.description);
		expect(tool.name).toBe('subscriptionBillingTool');
		expect(tool.displayName).toBe('Subscription Billing Tool');
		expect(tool.inputs).toEqual([]);
		expect(tool.outputs).toEqual([NodeConnectionTypes.AiTool]);
		expect(tool.credentials).toEqual(base.credentials);
		// the node has a toolDescription of its own, so n8n adds neither its descriptionType nor its toolDescription
		expect(tool.properties).toEqual(base.properties);
		const descriptions = tool.properties.filter((property) => property.name === 'toolDescription');
		expect(descriptions).toHaveLength(
			resources.reduce((count, resource) => count + resource.operations.length, 0),
		);
		expect(
			descriptions.every(
				(property) =>
					property.displayOptions?.show?.['@tool']?.[0] === true && property.type === 'string',
			),
		).toBe(true);
		expect(tool.codex).toEqual({
			categories: ['AI'],
			subcategories: { AI: ['Tools'], Tools: ['Other Tools'] },
			resources: base.codex?.resources,
		});
		expect(tool.codex?.resources?.primaryDocumentation?.[0].url).toMatch(/^https:\/\//);
		// The node itself is left as it was.
		expect(nodeType.description.name).toBe('subscriptionBilling');
		expect(nodeType.description.usableAsTool).toBe(true);
	});
});

/** The default tool description of an operation. */
function descriptionOf(resourceValue: string, operationValue: string): string {
	const resource = resources.find((candidate) => candidate.value === resourceValue);
	const operation = resource?.operations.find((candidate) => candidate.value === operationValue);
	if (!resource || !operation) throw new Error(`no operation ${resourceValue} → ${operationValue}`);
	return toolDescription(resource, operation, SHARED_FIELDS);
}

/** The tool node's parameters as n8n's Workflow resolves them (defaults of the fields shown), then n8n's choice of description. */
function descriptionN8nSends(tool: INodeType, parameters: IDataObject): string {
	const node = {
		id: 't',
		name: 'Tool',
		type: tool.description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	} as unknown as INode;
	const resolved = NodeHelpers.getNodeParameters(
		tool.description.properties,
		node.parameters,
		true,
		false,
		node,
		tool.description,
	);
	return NodeHelpers.getToolDescriptionForNode({ ...node, parameters: resolved ?? {} }, tool);
}

describe("the tool's description n8n sends the model", () => {
	test('by default, for every operation: what it does, what it returns, which IDs it needs and which operation finds each; within 1,024 characters, no two alike', async () => {
		const { nodeType } = await loadPackage();
		const tool = toolTypeForExecution(nodeType);
		const sent = resources.flatMap((resource) =>
			resource.operations.map((operation) => ({
				operation: `${resource.name} → ${operation.name}`,
				description: descriptionN8nSends(tool, {
					resource: resource.value,
					operation: operation.value,
				}),
				expected: toolDescription(resource, operation, SHARED_FIELDS),
				starts: operation.toolSummary ?? operation.description,
			})),
		);
		for (const entry of sent) {
			expect(entry.description).toBe(entry.expected);
			expect(entry.description.startsWith(`${entry.starts}. Returns `)).toBe(true);
			expect(entry.description.length).toBeLessThanOrEqual(MAX_TOOL_DESCRIPTION);
		}
		expect(new Set(sent.map((entry) => entry.description)).size).toBe(sent.length);
		const of = (operation: string) =>
			sent.find((entry) => entry.operation === operation)?.description;
		expect(of('Subscription → Get')).toBe(
			'Get a subscription by ID with its status, dates, totals, customer, billing, line items, schedule, phases, pauses and contacts. ' +
				'Returns the subscription: ID, status, stage, dates, renewal (renewal_total_cents: in cents of the currency, as the API gives it), grand total (as the API gives it), currency, customer and the current pause. ' +
				"Needs the subscription_id from Customer → Search or Customer → Get (a customer's active_subscription_ids) or from an invoice.",
		);
		expect(of('Customer → Search')).toMatch(
			/^Find customers by part of the name, by external ID or by processor customer ID\. Returns a list of customers, each with ID, names, .*active ones\.$/,
		);
		expect(of('Invoice → Get Many for Customer')).toContain(
			'Needs the customer_id from Customer → Search',
		);
		expect(of('Usage → Create')).toContain(
			'Needs the subscription_id from Customer → Search or Customer → Get',
		);
		expect(of('Usage → Create')).toContain(
			"; and the brick_id from Plan → Get or Plan → Get Many (each plan's bricks).",
		);
		expect(of('Usage → Create')).not.toContain('transaction_id from');
		for (const operation of ['Usage → Update', 'Usage → Delete'])
			expect(of(operation)).toContain(
				'Needs the transaction_id from the Usage → Create that recorded the entry',
			);
		expect(of('Customer → Create or Update')).toMatch(
			/^Create a customer, or update the one that already has the given External ID or Processor Customer ID \(Match By\).* action: created or updated\. Returns the customer: /,
		);
		expect(of('Subscription Upgrade → Get Sign URL')).toMatch(
			/Returns url\. Needs the subscription_id .*; and the order_id from Subscription Upgrade → Get Many/,
		);
	});

	test(`an older workflow that stored n8n's "Set Automatically" gets the same description; a user's own wins; an emptied one is n8n's action text`, async () => {
		const { nodeType } = await loadPackage();
		const tool = toolTypeForExecution(nodeType);
		const get = { resource: 'subscription', operation: 'get' };
		expect(descriptionN8nSends(tool, { ...get, descriptionType: 'auto' })).toBe(
			descriptionOf('subscription', 'get'),
		);
		expect(descriptionN8nSends(tool, { ...get, toolDescription: 'Look up one subscription' })).toBe(
			'Look up one subscription',
		);
		expect(
			descriptionN8nSends(tool, {
				...get,
				descriptionType: 'manual',
				toolDescription: 'Look up one subscription',
			}),
		).toBe('Look up one subscription');
		expect(descriptionN8nSends(tool, { ...get, toolDescription: ' ' })).toBe(
			'Get a subscription in Subscription Billing',
		);
	});

	test('the node itself (not the tool) has no Description field', async () => {
		const { nodeType } = await loadPackage();
		const node = {
			id: 'n',
			name: 'Node',
			type: 'subscriptionBilling',
			typeVersion: 1,
			position: [0, 0],
			parameters: { resource: 'subscription', operation: 'get' },
		} as unknown as INode;
		const resolved = NodeHelpers.getNodeParameters(
			nodeType.description.properties,
			node.parameters,
			true,
			false,
			node,
			nodeType.description,
		);
		expect(resolved).not.toHaveProperty('toolDescription');
		expect(resolved).toHaveProperty('subscriptionOutput', 'simplified');
	});
});

describe('an agent calling the tool (n8n-core getInputConnectionData → createNodeAsTool)', () => {
	const getSubscription = {
		resource: 'subscription',
		operation: 'get',
		subscriptionId: { __rl: true, mode: 'id', value: FROM_AI_ID },
	};

	test('direct invocation: schema from $fromAI, description from the operation, the call runs the node against the API', async () => {
		const { result, agent, toolRuns } = await runAgentWithTool('direct', getSubscription, () => ({
			tool: 'Subscription_Billing',
			args: { subscriptionId: sandbox.fixtures.subscriptionId },
		}));
		expect(result.errorOf('Agent')).toBeUndefined();
		expect(agent.offered).toEqual([
			{
				name: 'Subscription_Billing',
				description: descriptionOf('subscription', 'get'),
				schema: { subscriptionId: { type: 'ZodString', description: 'The subscription id' } },
				sourceNodeName: TOOL_NODE,
			},
		]);
		expect(sandbox.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			`GET /api/v2/subscriptions/${sandbox.fixtures.subscriptionId}`,
		]);
		expect(sandbox.requests[0].headers['x-service-key']).toBe(sandbox.apiKey);
		const returned = JSON.parse(String(agent.observation)) as IDataObject[];
		expect(returned).toHaveLength(1);
		expect(returned[0]).toMatchObject({
			subscription_id: sandbox.fixtures.subscriptionId,
			status: 'ACTIVE',
			customer_name: sandbox.fixtures.customerName,
		});
		// n8n logs the call on the tool node: the arguments as its ai_tool input, the result as output.
		expect(toolRuns).toHaveLength(1);
		expect(toolRuns[0].inputOverride?.ai_tool?.[0]?.[0].json).toEqual({
			subscriptionId: sandbox.fixtures.subscriptionId,
		});
		expect(toolRuns[0].data?.ai_tool?.[0]?.[0].json).toEqual({ response: returned });
	});

	test('engine request (AI Agent v3): WorkflowExecute runs the tool node with the arguments and resumes the agent', async () => {
		const { result, agent, toolRuns } = await runAgentWithTool(
			'engine',
			{ ...getSubscription, subscriptionOutput: 'raw' },
			(tools) => ({
				tool: tools[0].name,
				args: { subscriptionId: sandbox.fixtures.pausedSubscriptionId },
			}),
		);
		expect(result.errorOf('Agent')).toBeUndefined();
		expect(result.run.data.resultData.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.path)).toEqual([
			`/api/v2/subscriptions/${sandbox.fixtures.pausedSubscriptionId}`,
		]);
		const returned = JSON.parse(String(agent.observation)) as IDataObject[];
		expect(returned).toHaveLength(1);
		expect(returned[0]).toMatchObject({
			subscription_id: sandbox.fixtures.pausedSubscriptionId,
			status: 'PAUSED',
		});
		expect(returned[0].line_items).toBeDefined(); // output: raw
		expect(toolRuns).toHaveLength(1);
		expect(toolRuns[0].inputOverride?.ai_tool?.[0]?.[0].json).toEqual({
			subscriptionId: sandbox.fixtures.pausedSubscriptionId,
		});
		expect((agent.action as IDataObject).nodeName).toBe(TOOL_NODE);
	});

	test('a name where the ID belongs: the error names the tool argument, says an ID is wanted and which operation finds it, and that nothing was sent', async () => {
		const { result } = await runAgentWithTool('direct', getSubscription, () => ({
			tool: 'Subscription_Billing',
			args: { subscriptionId: 'Acme Corporation Growth' },
		}));
		const message = result.errorOf('Agent')?.message;
		expect(message).toContain(
			'Subscription (tool argument "subscriptionId"): "Acme Corporation Growth" is not an ID (an ID has only letters, digits and hyphens). ' +
				"Give the subscription_id from Customer → Search or Customer → Get (a customer's active_subscription_ids) or from an invoice",
		);
		expect(message).toContain(
			'Nothing was sent to the API. Correct the argument and call the tool again.',
		);
		expect(message).not.toContain('item 0');
		expect(sandbox.requests).toHaveLength(0);
	});

	test.each(['direct', 'engine'] as const)(
		'%s: an empty search from the model: which arguments to fill, nothing sent',
		async (mode) => {
			const search = {
				resource: 'customer',
				operation: 'search',
				searchFields: {
					name: "={{ $fromAI('customer_name', 'Part of the customer name', 'string') }}",
				},
			};
			const { toolRuns } = await runAgentWithTool(mode, search, (tools) => ({
				tool: tools[0].name,
				args: { customer_name: '' },
			}));
			// run as a tool, the node says the description in the message (execute/itemFailure.ts), which is what an agent reads
			expect(toolRuns[0].error?.message).toBe(
				'Search Fields (tool argument "customer_name"): give at least one of External ID, Name, Processor Customer ID. Nothing was sent to the API. Correct the argument and call the tool again.',
			);
			expect(sandbox.requests).toHaveLength(0);
		},
	);

	test.each(['direct', 'engine'] as const)(
		"%s: a well-formed subscription ID the API does not have: the API's code, message and error id, then the tool argument, that nothing was changed and which operation finds the ID",
		async (mode) => {
			const { result, toolRuns } = await runAgentWithTool(mode, getSubscription, (tools) => ({
				tool: tools[0].name,
				args: { subscriptionId: 'sub-does-not-exist' },
			}));
			expect(toolRuns[0].error?.message).toMatch(
				new RegExp(
					'^ERR_NOT_FOUND: Subscription sub-does-not-exist not found\\. HTTP 404 from GET /api/v2/subscriptions/sub-does-not-exist; error id [0-9a-f-]{36}\\. ' +
						'The API has no record with the ID "sub-does-not-exist" in Subscription \\(tool argument "subscriptionId"\\), so nothing was changed\\. ' +
						"Call the tool again with the subscription_id from Customer → Search or Customer → Get \\(a customer's active_subscription_ids\\) or from an invoice\\.$",
				),
			);
			expect(toolRuns[0].error?.description ?? null).toBeNull();
			const seen =
				mode === 'direct'
					? result.errorOf('Agent')?.message
					: String(toolRuns[0].data?.ai_tool?.[0]?.[0]?.json.error);
			expect(seen).toContain(
				'in Subscription (tool argument "subscriptionId"), so nothing was changed. Call the tool again with the subscription_id from Customer → Search',
			);
			expect(seen).not.toContain('item 0');
			expect(seen).not.toContain(sandbox.apiKey);
			expect(
				sandbox.requests.map((request) => `${request.method} ${request.path} ${request.status}`),
			).toEqual(['GET /api/v2/subscriptions/sub-does-not-exist 404']);
		},
	);

	test("an unknown ID set in the tool's node, not by the model: the model is told calling again does not change it", async () => {
		const fixed = {
			resource: 'subscription',
			operation: 'get',
			subscriptionId: { __rl: true, mode: 'id', value: 'sub-does-not-exist' },
		};
		const { toolRuns } = await runAgentWithTool('engine', fixed, (tools) => ({
			tool: tools[0].name,
			args: {},
		}));
		expect(toolRuns[0].error?.message).toMatch(
			/The API has no record with the ID "sub-does-not-exist" in Subscription, so nothing was changed\. The ID is set in the tool's node, not by a tool argument: calling the tool again does not change it\. It needs the subscription_id from Customer → Search /,
		);
		expect(sandbox.requests).toHaveLength(1);
	});

	test("a wrong ID set in the tool's node, not by the model: the model is told it cannot correct it", async () => {
		const fixed = {
			resource: 'subscription',
			operation: 'get',
			subscriptionId: { __rl: true, mode: 'id', value: 'Acme Growth' },
		};
		const { toolRuns } = await runAgentWithTool('engine', fixed, (tools) => ({
			tool: tools[0].name,
			args: {},
		}));
		expect(toolRuns[0].error?.message).toMatch(
			/^Subscription: "Acme Growth" is not an ID \(an ID has only letters, digits and hyphens\)\. Give the subscription_id from /,
		);
		expect(toolRuns[0].error?.message).toMatch(
			/\. Nothing was sent to the API\. This value is set in the tool's node, not by a tool argument: it cannot be corrected by calling the tool again\.$/,
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	test.each(['direct', 'engine'] as const)(
		"%s: a wrong key: the agent gets the API's refusal and what to check, each said once",
		async (mode) => {
			const { result, toolRuns } = await runAgentWithTool(
				mode,
				getSubscription,
				(tools) => ({
					tool: tools[0].name,
					args: { subscriptionId: sandbox.fixtures.subscriptionId },
				}),
				'sbx_wrong_key',
			);
			const advice = 'check the API Key of the Subscription Billing API credential';
			const once = (text: string | undefined) => (text ?? '').split(advice).length - 1;
			const toolError = toolRuns[0].error;
			expect(toolError?.message).toMatch(
				/^ERR_UNAUTHORIZED: Invalid or missing API key\. HTTP 401 from GET \/api\/v2\/subscriptions\/\S+; the API did not accept the key: check the API Key/,
			);
			expect(once(toolError?.message)).toBe(1);
			expect(toolError?.description ?? null).toBeNull();
			expect(toolError?.message).not.toContain('Details:');
			if (mode === 'direct') {
				expect(once(result.errorOf('Agent')?.message)).toBe(1);
			} else {
				// AI Agent v3 reads the tool's error item, which holds the message alone
				expect(once(String(toolRuns[0].data?.ai_tool?.[0]?.[0]?.json.error))).toBe(1);
			}
			expect(sandbox.requests.map((request) => request.status)).toEqual([401]);
		},
	);

	test('a manual tool description replaces the automatic one, and several $fromAI keys make the schema', async () => {
		const { agent } = await runAgentWithTool(
			'direct',
			{
				resource: 'invoice',
				operation: 'getManyForCustomer',
				customerId: {
					__rl: true,
					mode: 'id',
					value: "={{ $fromAI('customerId', 'The customer id', 'string') }}",
				},
				limit: "={{ $fromAI('limit', 'How many invoices at most', 'number') }}",
				descriptionType: 'manual',
				toolDescription: "Lists a customer's invoices, newest first",
			},
			(tools) => ({
				tool: tools[0].name,
				args: { customerId: sandbox.fixtures.customerId, limit: 2 },
			}),
		);
		const [offered] = agent.offered as IDataObject[];
		expect(offered.description).toBe("Lists a customer's invoices, newest first");
		expect(offered.schema).toEqual({
			customerId: { type: 'ZodString', description: 'The customer id' },
			limit: { type: 'ZodNumber', description: 'How many invoices at most' },
		});
		const returned = JSON.parse(String(agent.observation)) as IDataObject[];
		expect(returned).toHaveLength(2);
		expect(returned.every((invoice) => invoice.customer_id === sandbox.fixtures.customerId)).toBe(
			true,
		);
		expect(sandbox.requests[0].path).toBe(
			`/api/v2/customers/${sandbox.fixtures.customerId}/invoices`,
		);
	});
});
