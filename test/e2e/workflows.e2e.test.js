'use strict';
// Every example workflow, run by the real n8n CLI (import:credentials, import:workflow,
// execute --id --rawOutput) against the sandbox: the output items and the requests the sandbox
// received. A wrong API key fails the run with a clear message and a non-zero exit code.
const fs = require('node:fs');
const path = require('node:path');
const {
	NODE_TYPE,
	EXAMPLE_CREDENTIAL_ID,
	loadExamples,
	example,
	credentialFor,
	startEnvironment,
	outputItems,
	outputJson,
	requestsOf,
	describeRun,
} = require('./helpers');

// more invoices than one page holds, so that Return All has to follow the pages
const BIG_CUSTOMER_INVOICES = 1234;
const WRONG_KEY_CREDENTIAL_ID = 'sbE2eWrongKey001';
const WRONG_KEY_WORKFLOW_ID = 'sbE2eWrongKey001';
const HTTP_REQUEST_WORKFLOW_ID = 'sbE2eHttpRequest1';

let env;
let sandbox;
let n8n;

beforeAll(async () => {
	env = await startEnvironment({
		name: 'e2e-workflows',
		seed: { bigCustomerInvoices: BIG_CUSTOMER_INVOICES },
	});
	({ sandbox, n8n } = env);
	await n8n.importCredentials([
		credentialFor(sandbox),
		credentialFor(sandbox, {
			id: WRONG_KEY_CREDENTIAL_ID,
			name: 'Wrong key',
			apiKey: 'sbx_wrong_key_0000',
		}),
	]);
	// all examples in one import, plus a copy of one of them that uses the wrong key
	const dir = path.join(n8n.dir, 'workflows');
	fs.mkdirSync(dir);
	for (const { file, workflow } of loadExamples())
		fs.writeFileSync(path.join(dir, file), JSON.stringify(workflow));
	const wrong = example('usage-correction.json');
	wrong.id = WRONG_KEY_WORKFLOW_ID;
	wrong.name = 'e2e: usage correction with a wrong API key';
	for (const node of wrong.nodes) {
		if (node.credentials)
			node.credentials.subscriptionBillingApi = { id: WRONG_KEY_CREDENTIAL_ID, name: 'Wrong key' };
	}
	fs.writeFileSync(path.join(dir, 'wrong-key.json'), JSON.stringify(wrong));
	fs.writeFileSync(
		path.join(dir, 'http-request.json'),
		JSON.stringify(httpRequestWorkflow(sandbox)),
	);
	await n8n.cliOk(['import:workflow', '--separate', `--input=${dir}`]);
});

afterAll(async () => {
	await env?.close();
});

beforeEach(() => {
	sandbox.reset();
});

/** n8n's HTTP Request node calling an endpoint with this package's credential as a predefined type. */
function httpRequestWorkflow(sb) {
	return {
		id: HTTP_REQUEST_WORKFLOW_ID,
		name: 'e2e: HTTP Request node with the Subscription Billing credential',
		nodes: [
			{
				id: 'e2e-http-1',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'e2e-http-2',
				name: 'Subscription Invoices',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [220, 0],
				parameters: {
					method: 'GET',
					url: `${sb.baseUrl}/subscriptions/${sb.fixtures.subscriptionId}/invoices`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'subscriptionBillingApi',
					options: {},
				},
				credentials: {
					subscriptionBillingApi: {
						id: EXAMPLE_CREDENTIAL_ID,
						name: 'Subscription Billing account',
					},
				},
			},
		],
		connections: { Start: { main: [[{ node: 'Subscription Invoices', type: 'main', index: 0 }]] } },
		settings: {},
	};
}

async function execute(workflowId) {
	const r = await n8n.execute(workflowId);
	return r;
}

async function executeOk(workflowId) {
	const r = await execute(workflowId);
	if (!r.succeeded) throw new Error(`workflow ${workflowId} failed: ${describeRun(r)}`);
	return r.run;
}

describe('the example workflows', () => {
	const examples = loadExamples();

	test('are importable n8n workflows that start with a Manual Trigger and use the example credential', () => {
		expect(examples.map((e) => e.file)).toEqual(
			expect.arrayContaining([
				'customer-onboarding.json',
				'invoice-export.json',
				'usage-correction.json',
				'send-sign-url.json',
				'default-payment-method.json',
			]),
		);
		for (const { file, workflow } of examples) {
			expect({ file, id: typeof workflow.id, name: typeof workflow.name }).toEqual({
				file,
				id: 'string',
				name: 'string',
			});
			// a workflow started by the package's trigger (run in trigger.e2e.test.js) or by the MCP Server
			// Trigger (mcpClient.e2e.test.js) has it instead of a Manual Trigger
			const triggers = workflow.nodes.filter(
				(n) => n.type === `${NODE_TYPE}Trigger` || n.type === '@n8n/n8n-nodes-langchain.mcpTrigger',
			);
			expect(workflow.nodes.filter((n) => n.type === 'n8n-nodes-base.manualTrigger')).toHaveLength(
				triggers.length > 0 ? 0 : 1,
			);
			const billing = workflow.nodes.filter((n) =>
				[NODE_TYPE, `${NODE_TYPE}Trigger`, `${NODE_TYPE}Tool`].includes(n.type),
			);
			expect(billing.length).toBeGreaterThan(0);
			for (const node of billing)
				expect(node.credentials).toEqual({
					subscriptionBillingApi: { id: EXAMPLE_CREDENTIAL_ID, name: expect.any(String) },
				});
			// every connection points at an existing node
			const names = new Set(workflow.nodes.map((n) => n.name));
			for (const [from, outputs] of Object.entries(workflow.connections)) {
				expect(names.has(from)).toBe(true);
				for (const link of Object.values(outputs).flat(2)) expect(names.has(link.node)).toBe(true);
			}
		}
	});

	test('use ids that exist in the seeded sandbox', () => {
		const { state } = sandbox;
		const known = new Set([
			...state.customers.keys(),
			...state.subscriptions.keys(),
			...state.usage.keys(),
			...state.paymentMethods.keys(),
			...state.bricks.keys(),
		]);
		const ids = [];
		const collect = (value) => {
			if (typeof value === 'string') {
				for (const m of value.matchAll(
					/\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|txn_\w+|pm_\w+)\b/g,
				))
					ids.push(m[1]);
			} else if (value && typeof value === 'object') {
				for (const [k, v] of Object.entries(value)) if (k !== 'id') collect(v); // not the ids of Set fields
			}
		};
		for (const { workflow } of examples) {
			for (const node of workflow.nodes)
				if (node.type !== 'n8n-nodes-base.if') collect(node.parameters);
		}
		expect(ids.length).toBeGreaterThan(0);
		expect(ids.filter((id) => !known.has(id))).toEqual([]);
	});
});

describe('customer onboarding', () => {
	const wf = example('customer-onboarding.json');
	const crm = Object.fromEntries(
		wf.nodes
			.find((n) => n.name === 'Customer from CRM')
			.parameters.assignments.assignments.map((a) => [a.name, a.value]),
	);

	test('one Create or Update node: creates the customer when the external ID is unknown, updates it on the next run', async () => {
		const before = sandbox.state.customers.size;
		const first = await executeOk(wf.id);
		const created = outputJson(first, 'Create or Update Customer');
		expect(created).toEqual([
			expect.objectContaining({
				customer_id: expect.any(String),
				name: crm.name,
				legal_name: crm.legalName,
				external_id: crm.externalId,
				country: crm.country,
				action: 'created',
			}),
		]);
		expect(sandbox.state.customers.size).toBe(before + 1);
		expect(requestsOf(sandbox).map((r) => `${r.method} ${r.path}`)).toEqual([
			'POST /customers/search',
			'POST /customers',
		]);
		const [search, create] = requestsOf(sandbox);
		expect(search.body).toEqual({ external_id: crm.externalId });
		expect(create.body).toEqual({
			name: crm.name,
			legal_name: crm.legalName,
			external_id: crm.externalId,
			address: { city: crm.city, country: crm.country },
		});
		expect(create.status).toBe(201);

		// second run: the customer exists now, so it is updated and not created again
		sandbox.clearRequests();
		const second = await executeOk(wf.id);
		const updated = outputJson(second, 'Create or Update Customer');
		expect(updated).toEqual([{ ...created[0], action: 'updated' }]);
		expect(requestsOf(sandbox).map((r) => `${r.method} ${r.path}`)).toEqual([
			'POST /customers/search',
			`PATCH /customers/${created[0].customer_id}`,
		]);
		expect(requestsOf(sandbox)[1].body).toEqual({
			name: crm.name,
			legal_name: crm.legalName,
			address: { city: crm.city, country: crm.country },
		});
		expect(sandbox.state.customers.size).toBe(before + 1);
	});
});

describe('invoice export', () => {
	test("follows every page of the customer's invoices and turns them into a CSV file", async () => {
		const wf = example('invoice-export.json');
		const customerId = wf.nodes.find((n) => n.type === NODE_TYPE).parameters.customerId.value;
		expect(customerId).toBe(sandbox.fixtures.bigCustomerId);
		const run = await executeOk(wf.id);

		const invoices = outputJson(run, 'Get All Invoices of Customer');
		expect(invoices).toHaveLength(BIG_CUSTOMER_INVOICES);
		expect(new Set(invoices.map((i) => i.invoice_id)).size).toBe(BIG_CUSTOMER_INVOICES);
		expect(invoices.every((i) => i.customer_id === customerId)).toBe(true);
		const issued = invoices.map((i) => i.issued_at);
		expect(issued).toEqual([...issued].sort()); // ordering=issued_at: oldest first

		const rows = outputJson(run, 'Reporting Columns');
		expect(rows).toHaveLength(BIG_CUSTOMER_INVOICES);
		expect(Object.keys(rows[0]).sort()).toEqual([
			'currency',
			'due_at',
			'grand_total',
			'invoice_number',
			'issued_at',
			'remaining_amount',
			'status',
		]);
		expect(rows[0]).toMatchObject({
			invoice_number: invoices[0].invoice_number,
			grand_total: invoices[0].grand_total,
		});

		const [file] = outputItems(run, 'Invoices CSV');
		expect(file.binary.data).toMatchObject({ fileName: 'invoices.csv', mimeType: 'text/csv' });

		const requests = requestsOf(sandbox);
		const pageSize = Number(requests[0].query.limit);
		expect(pageSize).toBeGreaterThan(0);
		expect(requests).toHaveLength(Math.ceil(BIG_CUSTOMER_INVOICES / pageSize));
		for (const r of requests) {
			expect(`${r.method} ${r.path}`).toBe(`GET /customers/${customerId}/invoices`);
			expect(r.query.ordering).toBe('issued_at');
			expect(r.status).toBe(200);
		}
		expect(requests.map((r) => Number(r.query.offset ?? 0))).toEqual(
			requests.map((_, i) => i * pageSize),
		);
	});
});

describe('usage correction', () => {
	test('updates one usage entry and deletes a wrong one', async () => {
		const wf = example('usage-correction.json');
		const update = wf.nodes.find((n) => n.name === 'Correct Usage Value').parameters;
		const del = wf.nodes.find((n) => n.name === 'Delete Wrong Entry').parameters;
		expect(sandbox.state.usage.has(del.transactionId)).toBe(true);
		const run = await executeOk(wf.id);

		expect(outputJson(run, 'Correct Usage Value')).toEqual([
			expect.objectContaining({ message: expect.stringMatching(/updated/i) }),
		]);
		expect(outputJson(run, 'Delete Wrong Entry')).toEqual([
			expect.objectContaining({ deleted: true, transaction_id: del.transactionId }),
		]);
		expect(sandbox.state.usage.get(update.transactionId).value).toBe(update.value);
		expect(sandbox.state.usage.has(del.transactionId)).toBe(false);

		const requests = requestsOf(sandbox);
		expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'PATCH /usage 200',
			'DELETE /usage 200',
		]);
		expect(requests[0].body).toEqual({ transaction_id: update.transactionId, value: update.value });
		expect(requests[1].body).toEqual({ transaction_id: del.transactionId });
		// writes carry an idempotency key
		const raw = sandbox.requests.map((r) => r.headers['x-service-idempotent-operation-key']);
		expect(raw.every((k) => typeof k === 'string' && k.length > 0)).toBe(true);
	});
});

describe("send a subscription's sign URL", () => {
	test('gets the sign URL with the redirect URL and puts it into the email', async () => {
		const wf = example('send-sign-url.json');
		const params = wf.nodes.find((n) => n.type === NODE_TYPE).parameters;
		const subscriptionId = params.subscriptionId.value;
		expect(subscriptionId).toBe(sandbox.fixtures.openOrderSubscriptionId);
		const run = await executeOk(wf.id);

		const [signed] = outputJson(run, 'Get Sign URL');
		const url = new URL(signed.url);
		expect(url.origin).toBe(new URL(sandbox.baseUrl).origin);
		expect(url.pathname).toContain(subscriptionId);
		expect(url.searchParams.get('redirect_url')).toBe(params.redirectUrl);
		const [email] = outputJson(run, 'Email to Signer');
		expect(email.text).toContain(signed.url);
		expect(email.to).toMatch(/@/);

		const requests = requestsOf(sandbox);
		expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			`POST /subscriptions/${subscriptionId}/sign 200`,
		]);
		expect(requests[0].body).toEqual({ redirect_url: params.redirectUrl });
	});
});

describe('default payment method', () => {
	test("makes the card the default payment method of the subscription's customer", async () => {
		const wf = example('default-payment-method.json');
		const input = Object.fromEntries(
			wf.nodes
				.find((n) => n.name === 'Card from Checkout')
				.parameters.assignments.assignments.map((a) => [a.name, a.value]),
		);
		const subscription = sandbox.state.subscriptions.get(input.subscriptionId);
		const customer = sandbox.state.customers.get(subscription.customer_id);
		expect(customer.default_payment_method_id).not.toBe(input.paymentMethodId);
		expect(sandbox.state.paymentMethods.get(input.paymentMethodId).type).toBe('card');
		const run = await executeOk(wf.id);

		expect(outputJson(run, 'Make Card the Default')).toEqual([
			expect.objectContaining({
				subscription_id: input.subscriptionId,
				default_payment_method_id: input.paymentMethodId,
			}),
		]);
		expect(customer.default_payment_method_id).toBe(input.paymentMethodId);
		const requests = requestsOf(sandbox);
		expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			`PUT /subscriptions/${input.subscriptionId}/payment-methods/default 200`,
		]);
		expect(requests[0].body).toEqual({ payment_method_id: input.paymentMethodId });
	});
});

describe('a wrong API key', () => {
	test('fails the execution with a clear message and a non-zero exit code, and writes nothing', async () => {
		const usageBefore = JSON.stringify([...sandbox.state.usage.values()]);
		const r = await execute(WRONG_KEY_WORKFLOW_ID);
		expect(r.code).not.toBe(0);
		expect(r.error).toBeTruthy();
		expect(r.error.node?.name ?? r.run?.data?.resultData?.lastNodeExecuted).toBe(
			'Correct Usage Value',
		);
		// the API's own code and message, not a generic failure, and no key in it
		expect(r.error.message).toMatch(/unauthori[sz]ed|api key|401/i);
		expect(JSON.stringify(r.error)).not.toContain('sbx_wrong_key_0000');
		expect(`${r.stdout}\n${r.stderr}`).toContain(r.error.message);
		// the HTTP status survives: n8n-core recognises the error as a NodeApiError of its own n8n-workflow
		expect(r.error.httpCode).toBe('401');
		expect(r.error.description).toMatch(/HTTP 401/);

		const requests = requestsOf(sandbox);
		expect(requests.length).toBeGreaterThan(0);
		for (const req of requests) {
			expect(req.status).toBe(401);
			expect(req.apiKey).toBe('sbx_wrong_key_0000');
		}
		expect(requests.some((req) => req.method === 'DELETE')).toBe(false);
		expect(JSON.stringify([...sandbox.state.usage.values()])).toBe(usageBefore);
	});
});

describe("n8n's HTTP Request node", () => {
	test('uses the Subscription Billing credential as a predefined credential type', async () => {
		const run = await executeOk(HTTP_REQUEST_WORKFLOW_ID);
		const [page] = outputJson(run, 'Subscription Invoices');
		expect(Array.isArray(page.results)).toBe(true);
		expect(page.results.length).toBeGreaterThan(0);
		for (const invoice of page.results)
			expect(invoice.subscription_id).toBe(sandbox.fixtures.subscriptionId);
		const requests = requestsOf(sandbox);
		expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			`GET /subscriptions/${sandbox.fixtures.subscriptionId}/invoices 200`,
		]);
		expect(requests[0].apiKey).toBe(sandbox.apiKey);
	});
});
