'use strict';
// The billing assistant example (examples/billing-assistant-mcp.json) behind n8n's MCP Server
// Trigger, published in a real n8n and used by a real MCP client (@modelcontextprotocol/sdk) over
// Streamable HTTP and SSE with the Bearer token: the tools listed with their descriptions and input
// schemas, reads and a write checked against the sandbox's requests, a wrong ID and a missing value
// refused with nothing sent, an unknown ID answered with the next step, and no tools without the token.
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const {
	StreamableHTTPClientTransport,
} = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { SSEClientTransport } = require('@modelcontextprotocol/sdk/client/sse.js');
const { example, credentialFor, startEnvironment, requestsOf } = require('./helpers');
const { toolDescription } = require('../../dist/nodes/SubscriptionBilling/editor');
const { SHARED_FIELDS } = require('../../dist/nodes/SubscriptionBilling/resources/sharedFields');
const { resources } = require('../../dist/nodes/SubscriptionBilling/SubscriptionBilling.node');

const TOKEN = 'mcp-e2e-token-0123456789';
const workflow = example('billing-assistant-mcp.json');
const trigger = workflow.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger');
const TOKEN_CREDENTIAL = trigger.credentials.httpBearerAuth;
// imported under another ID than the file's, as Import from File does: Customer invoices calls its own workflow by {{ $workflow.id }}
const WORKFLOW_ID = 'sbE2eMcpAssist01';

let env;
let sandbox;
let n8n;
const clients = [];
/** n8n 2.41 records a refused tool call, sends no stack trace and sends the trigger's Instructions; 2.8 does none of these (see docs/compatibility.md). */
let since241;
/** n8n 2.x before 2.41 appends the error's stack to a tool's error (MessageFormatter.formatError); 1.x's McpServer sends `Error: <message>` alone. */
let appendsStack;

beforeAll(async () => {
	env = await startEnvironment({ name: 'e2e-mcp-client' });
	({ sandbox, n8n } = env);
	await n8n.importCredentials([
		credentialFor(sandbox),
		{ ...TOKEN_CREDENTIAL, type: 'httpBearerAuth', data: { token: TOKEN } },
	]);
	await n8n.importWorkflow({ ...workflow, id: WORKFLOW_ID });
	await n8n.activateWorkflow(WORKFLOW_ID);
	await n8n.start();
	await n8n.setupOwner();
	await untilRegistered();
	const [major, minor] = n8n.version.split('.').map(Number);
	since241 = major > 2 || (major === 2 && minor >= 41); // the tested releases: 1.123.81, 2.8.4 and 2.41.1
	appendsStack = major === 2 && minor < 41;
});

afterAll(async () => {
	await Promise.allSettled(clients.map((client) => client.close()));
	await env?.close();
});

beforeEach(() => {
	sandbox.reset();
});

const endpoint = () => new URL(`${n8n.baseUrl}/mcp/${trigger.parameters.path}`);

/**
 * n8n starts answering before it has registered the published workflow's webhooks (2.41 took a few
 * hundred milliseconds more): until then the MCP endpoint answers 404.
 */
async function untilRegistered(deadline = Date.now() + 60_000) {
	for (;;) {
		const response = await fetch(endpoint(), {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}',
		});
		await response.body?.cancel();
		if (response.status !== 404) return;
		if (Date.now() > deadline) throw new Error(`${endpoint()} still answers 404`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/** The workflow's executions, newest first, once none is still running. */
async function finishedExecutions(deadline = Date.now() + 30_000) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: WORKFLOW_ID }));
	for (;;) {
		const { body } = await n8n.rest('GET', `/rest/executions?filter=${filter}`);
		const records = body.data.results;
		if (records.every((record) => !['new', 'running'].includes(record.status))) return records;
		if (Date.now() > deadline)
			throw new Error(`executions still running: ${JSON.stringify(records)}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/**
 * The executions started after `earlier`, with their run data, once `done` holds for one of them;
 * `act` makes the call that ends the wait.
 */
async function executionsUntil(earlier, done, act, deadline = Date.now() + 30_000) {
	await act();
	for (;;) {
		const added = [];
		for (const record of await finishedExecutions()) {
			if (earlier.has(record.id)) continue;
			const { body } = await n8n.rest('GET', `/rest/executions/${record.id}`);
			added.push({ record, data: body.data.data });
		}
		if (added.some(({ data }) => done(data))) return added;
		if (Date.now() > deadline)
			throw new Error(`no execution of the call after ${[...earlier].join(', ')}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/** An MCP client connected over `transport`, sending `token` as a Bearer token (none when null). */
async function connect(transport = 'streamable', token = TOKEN) {
	const headers = token ? { Authorization: `Bearer ${token}` } : {};
	const client = new Client({ name: 'billing-e2e', version: '1.0.0' });
	const connection =
		transport === 'sse'
			? new SSEClientTransport(endpoint(), {
					requestInit: { headers },
					eventSourceInit: {
						fetch: (url, init) =>
							fetch(url, { ...init, headers: { ...init?.headers, ...headers } }),
					},
				})
			: new StreamableHTTPClientTransport(endpoint(), { requestInit: { headers } });
	await client.connect(connection);
	clients.push(client);
	return client;
}

/** A tool's result: its text parsed when it is JSON. */
function resultOf(result) {
	const text = result.content.map((part) => part.text).join('');
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { isError: Boolean(result.isError), text, json };
}

const operation = (resourceValue, operationValue) => {
	const resource = resources.find((candidate) => candidate.value === resourceValue);
	return toolDescription(
		resource,
		resource.operations.find((candidate) => candidate.value === operationValue),
		SHARED_FIELDS,
	);
};
const fromAiDescription = (nodeName, parameter) => {
	const value = workflow.nodes.find((node) => node.name === nodeName).parameters[parameter];
	return /`(.*)`/.exec(typeof value === 'string' ? value : value.value)[1];
};

describe.each(['streamable', 'sse'])('an MCP client over %s', (transport) => {
	test('lists the five tools with the descriptions and input schemas a model chooses and fills them by', async () => {
		const client = await connect(transport);
		const { tools } = await client.listTools();
		const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
		expect(Object.keys(byName).sort()).toEqual([
			'Customer_invoices',
			'Find_customers',
			'Get_sign_URL',
			'Get_subscription',
			'Record_usage',
		]);
		// the node's own descriptions (n8n's automatic one would be "Get a subscription in Subscription Billing")
		expect(byName.Get_subscription.description).toBe(operation('subscription', 'get'));
		expect(byName.Find_customers.description).toBe(operation('customer', 'search'));
		expect(byName.Get_sign_URL.description).toBe(operation('subscription', 'getSignUrl'));
		// a description the user wrote wins
		expect(byName.Record_usage.description).toBe(
			workflow.nodes.find((node) => node.name === 'Record usage').parameters.toolDescription,
		);
		expect(byName.Get_subscription.inputSchema).toMatchObject({
			type: 'object',
			properties: {
				subscription_id: {
					type: 'string',
					description: fromAiDescription('Get subscription', 'subscriptionId'),
				},
			},
			required: ['subscription_id'],
		});
		expect(byName.Record_usage.inputSchema.properties).toEqual({
			transaction_id: {
				type: 'string',
				description: fromAiDescription('Record usage', 'transactionId'),
			},
			subscription_id: {
				type: 'string',
				description: fromAiDescription('Record usage', 'subscriptionId'),
			},
			api_calls: { type: 'number', description: fromAiDescription('Record usage', 'value') },
		});
		expect(Object.keys(byName.Customer_invoices.inputSchema.properties).sort()).toEqual([
			'customer_id',
			'status',
		]);
		// the trigger's Instructions (n8n 2.41; 2.8 has no such parameter)
		expect(client.getInstructions()).toBe(since241 ? trigger.parameters.instructions : undefined);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('a read: Find customers, then Get subscription with an ID it returned', async () => {
		const client = await connect(transport);
		const found = resultOf(
			await client.callTool({ name: 'Find_customers', arguments: { customer_name: 'acme' } }),
		);
		expect(found.isError).toBe(false);
		const acme = found.json.find(
			(customer) => customer.customer_id === sandbox.fixtures.customerId,
		);
		expect(acme).toMatchObject({ name: sandbox.fixtures.customerName });
		expect(acme.active_subscription_ids).toContain(sandbox.fixtures.subscriptionId);
		const subscription = resultOf(
			await client.callTool({
				name: 'Get_subscription',
				arguments: { subscription_id: sandbox.fixtures.subscriptionId },
			}),
		);
		expect(subscription.json).toEqual([
			expect.objectContaining({
				subscription_id: sandbox.fixtures.subscriptionId,
				status: 'ACTIVE',
			}),
		]);
		expect(
			requestsOf(sandbox).map(({ method, path, body, status, apiKey }) => ({
				method,
				path,
				body,
				status,
				apiKey,
			})),
		).toEqual([
			{
				method: 'POST',
				path: '/customers/search',
				body: { name: 'acme' },
				status: 200,
				apiKey: sandbox.apiKey,
			},
			{
				method: 'GET',
				path: `/subscriptions/${sandbox.fixtures.subscriptionId}`,
				body: undefined,
				status: 200,
				apiKey: sandbox.apiKey,
			},
		]);
		expect(found.text + subscription.text).not.toContain(sandbox.apiKey);
	});
});

describe('tool calls over Streamable HTTP', () => {
	test("Customer invoices keeps the status asked for, from the customer's whole list", async () => {
		const client = await connect();
		const all = resultOf(
			await client.callTool({
				name: 'Customer_invoices',
				arguments: { customer_id: sandbox.fixtures.customerId, status: '' },
			}),
		);
		expect(all.isError).toBe(false);
		expect(all.json).toHaveLength(sandbox.fixtures.customerInvoiceCount);
		const status = all.json[0].status;
		const kept = resultOf(
			await client.callTool({
				name: 'Customer_invoices',
				arguments: { customer_id: sandbox.fixtures.customerId, status },
			}),
		);
		expect(kept.json.length).toBeGreaterThan(0);
		expect(kept.json).toEqual(all.json.filter((invoice) => invoice.status === status));
		expect(requestsOf(sandbox).map(({ method, path }) => `${method} ${path}`)).toEqual(
			Array(2).fill(`GET /customers/${sandbox.fixtures.customerId}/invoices`),
		);
	});

	test('a write is applied once: Record usage records the entry; the same transaction ID again is refused, nothing recorded twice', async () => {
		const client = await connect();
		const args = {
			transaction_id: 'mcp-e2e-usage-1',
			subscription_id: sandbox.fixtures.subscriptionId,
			api_calls: 120,
		};
		const entriesBefore = sandbox.state.usage.size;
		const recorded = resultOf(await client.callTool({ name: 'Record_usage', arguments: args }));
		expect(recorded.isError).toBe(false);
		expect(recorded.json).toEqual([
			expect.objectContaining({
				transaction_id: args.transaction_id,
				subscription_id: args.subscription_id,
				brick_id: sandbox.fixtures.usageBrickId,
				value: 120,
			}),
		]);
		const again = resultOf(await client.callTool({ name: 'Record_usage', arguments: args }));
		expect(again.isError).toBe(true);
		expect(sandbox.state.usage.size).toBe(entriesBefore + 1);
		const posts = requestsOf(sandbox).filter(
			(request) => request.method === 'POST' && request.path === '/usage',
		);
		expect(posts.map((request) => request.status)).toEqual([201, expect.any(Number)]);
		expect(posts[1].status).toBeGreaterThanOrEqual(400);
		expect(posts[0].body).toMatchObject({
			transaction_id: args.transaction_id,
			subscription_id: args.subscription_id,
			brick_id: sandbox.fixtures.usageBrickId,
			value: 120,
		});
		expect(again.text).not.toContain(sandbox.apiKey);
	});

	test('a name where the subscription ID belongs: an error naming the argument, what is wanted, which tool finds it; nothing sent', async () => {
		const client = await connect();
		const earlier = new Set((await finishedExecutions()).map((record) => record.id));
		const refused = resultOf(
			await client.callTool({
				name: 'Get_subscription',
				arguments: { subscription_id: 'Acme Corporation Growth' },
			}),
		);
		expect(refused.isError).toBe(true);
		expect(refused.text).toContain(
			'Subscription (tool argument "subscription_id"): "Acme Corporation Growth" is not an ID (an ID has only letters, digits and hyphens). Give the subscription_id from Customer → Search',
		);
		expect(refused.text).toContain(
			'Nothing was sent to the API. Correct the argument and call the tool again.',
		);
		expect(refused.text).not.toContain('item 0');
		// n8n 2.8's MCP Server Trigger appends the error's stack, with the install's paths; 1.x and 2.41 do not
		expect(/\n\s+at /.test(refused.text)).toBe(appendsStack);
		expect(sandbox.requests).toHaveLength(0);
		// the execution records: n8n 2.41 records the refused call as a successful execution whose tool
		// node holds the error; n8n 2.8 records none (its MCP server resolves the call only on success)
		const after = await executionsUntil(
			earlier,
			(data) => data.includes(sandbox.fixtures.subscriptionId),
			async () => {
				await client.callTool({
					name: 'Get_subscription',
					arguments: { subscription_id: sandbox.fixtures.subscriptionId },
				});
			},
		);
		const refusedRecords = after.filter(({ data }) => data.includes('Acme Corporation Growth'));
		if (since241) {
			expect(refusedRecords.map(({ record }) => record.status)).toEqual(['success']);
			expect(refusedRecords[0].data).toContain(
				'Subscription (tool argument \\"subscription_id\\"): \\"Acme Corporation Growth\\" is not an ID',
			);
		} else {
			expect(refusedRecords).toEqual([]);
		}
	});

	test("a well-formed subscription ID the API does not have: the API's code, message and error id, then the argument, that nothing was changed and which operation finds the ID", async () => {
		const client = await connect();
		const unknown = resultOf(
			await client.callTool({
				name: 'Get_subscription',
				arguments: { subscription_id: 'sub-does-not-exist' },
			}),
		);
		expect(unknown.isError).toBe(true);
		expect(unknown.text).toMatch(
			/ERR_NOT_FOUND: Subscription sub-does-not-exist not found\. HTTP 404 from GET \/api\/v2\/subscriptions\/sub-does-not-exist; error id [0-9a-f-]{36}\. /,
		);
		expect(unknown.text).toContain(
			'The API has no record with the ID "sub-does-not-exist" in Subscription (tool argument "subscription_id"), so nothing was changed. ' +
				"Call the tool again with the subscription_id from Customer → Search or Customer → Get (a customer's active_subscription_ids) or from an invoice.",
		);
		expect(unknown.text).not.toContain('item 0');
		expect(unknown.text).not.toContain(sandbox.apiKey);
		expect(
			sandbox.requests.map((request) => `${request.method} ${request.path} ${request.status}`),
		).toEqual(['GET /api/v2/subscriptions/sub-does-not-exist 404']);
	});

	test('a missing value: n8n refuses the call before the tool runs, naming the argument; nothing sent', async () => {
		const client = await connect();
		const refused = resultOf(
			await client.callTool({
				name: 'Record_usage',
				arguments: {
					transaction_id: 'mcp-e2e-usage-2',
					subscription_id: sandbox.fixtures.subscriptionId,
				},
			}),
		);
		expect(refused.isError).toBe(true);
		expect(refused.text).toContain('api_calls');
		expect(sandbox.requests).toHaveLength(0);
	});
});

test('without the token, or with a wrong one, the server lists no tools', async () => {
	// n8n's webhook authentication answers 403 "Authorization data is wrong!" before any MCP message is read
	await expect(connect('streamable', null)).rejects.toThrow('Authorization data is wrong!');
	await expect(connect('streamable', 'wrong-token')).rejects.toThrow(
		'Authorization data is wrong!',
	);
	await expect(connect('sse', null)).rejects.toThrow('Non-200 status code (403)');
	expect(sandbox.requests).toHaveLength(0);
});
