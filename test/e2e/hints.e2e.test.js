'use strict';
// The output panel's hints in a real n8n: Customer → Get, which runs as a custom operation of the
// declarative node so that its hints are kept, run by the n8n CLI against a sandbox with more
// customers than one page holds. The run data n8n stores (what the editor's output panel shows)
// carries the hint for a customer on the second page, and none for one on the first; in the
// editor, the node's output panel shows it (screenshot output-hint.png).
const fs = require('node:fs');
const path = require('node:path');
const { NODE_TYPE, EXAMPLE_CREDENTIAL_ID, credentialFor, startEnvironment, nodeRun, outputJson, describeRun } = require('./helpers');
const { byTestId, openBrowser, signIn, screenshot } = require('./browser');
const { isKnownN8nPageError } = require('./knownN8nPageErrors');
const { editorUi } = require('./editorUi');

const CUSTOMERS = 1100; // two pages of 1000
const NODE = 'Customer by ID';

let env;
let sandbox;
let n8n;

/** Manual Trigger → Customer → Get of `customerId`. */
function workflow(id, customerId) {
	return {
		id,
		name: `e2e: Customer Get ${id}`,
		nodes: [
			{ id: `${id}-1`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: `${id}-2`,
				name: NODE,
				type: NODE_TYPE,
				typeVersion: 2,
				position: [220, 0],
				parameters: { resource: 'customer', operation: 'get', customerId: { __rl: true, mode: 'id', value: customerId } },
				credentials: { subscriptionBillingApi: { id: EXAMPLE_CREDENTIAL_ID, name: 'Subscription Billing account' } },
			},
		],
		connections: { Start: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
		settings: {},
	};
}

const customers = () => [...sandbox.state.customers.values()];
const FIRST_PAGE = 'sbE2eHintFirst01';
const SECOND_PAGE = 'sbE2eHintSecond1';

beforeAll(async () => {
	env = await startEnvironment({ name: 'e2e-hints', seed: { customers: CUSTOMERS } });
	({ sandbox, n8n } = env);
	await n8n.importCredentials([credentialFor(sandbox)]);
	const dir = path.join(n8n.dir, 'hint-workflows');
	fs.mkdirSync(dir);
	fs.writeFileSync(path.join(dir, 'first.json'), JSON.stringify(workflow(FIRST_PAGE, customers()[0].customer_id)));
	fs.writeFileSync(path.join(dir, 'second.json'), JSON.stringify(workflow(SECOND_PAGE, customers()[1050].customer_id)));
	await n8n.cliOk(['import:workflow', '--separate', `--input=${dir}`]);
});

let browser;
const pageErrors = [];

afterAll(async () => {
	await browser?.close().catch(() => {});
	await env?.close();
});

async function executeOk(workflowId) {
	const r = await n8n.execute(workflowId);
	if (r.code !== 0 || !r.run || r.error) throw new Error(`workflow ${workflowId} failed: ${describeRun(r)}`);
	return r.run;
}

test('a customer on the second page: the customer, and the hint in the run data with the pages read', async () => {
	sandbox.clearRequests();
	const run = await executeOk(SECOND_PAGE);
	expect(outputJson(run, NODE)).toEqual([expect.objectContaining({ customer_id: customers()[1050].customer_id })]);
	expect(sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v2/customers', 'GET /api/v2/customers']);
	expect(nodeRun(run, NODE).hints).toEqual([
		{ message: expect.stringMatching(/^Customer → Get read 2 pages of the customer list \(2 requests\) to find this customer/), type: 'info', location: 'outputPane' },
	]);
});

test('a customer on the first page: no hint', async () => {
	const run = await executeOk(FIRST_PAGE);
	expect(outputJson(run, NODE)).toEqual([expect.objectContaining({ customer_id: customers()[0].customer_id })]);
	expect(nodeRun(run, NODE).hints ?? []).toEqual([]);
});

test("in the editor, the node's output panel shows the hint after a run", async () => {
	await n8n.start();
	await n8n.setupOwner();
	let page;
	({ browser, page } = await openBrowser());
	const { closeToasts, pushConnected, settled } = editorUi(page);
	page.on('pageerror', (e) => isKnownN8nPageError(n8n.version, e) || pageErrors.push(e.message));
	await signIn(page, n8n);
	await page.goto(`${n8n.baseUrl}/workflow/${SECOND_PAGE}`);
	const node = page.locator(byTestId('canvas-node'), { hasText: NODE }).first();
	await node.waitFor();
	const box = await node.boundingBox();
	await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { clickCount: 2 });
	await page.locator(byTestId('ndv')).waitFor();
	await pushConnected();
	sandbox.clearRequests();
	await page.click(byTestId('node-execute-button'));
	const output = page.locator(byTestId('output-panel'));
	await output.locator(byTestId('node-run-status-success')).first().waitFor();
	await output.getByText(/Customer → Get read 2 pages of the customer list/).first().waitFor();
	expect(sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v2/customers', 'GET /api/v2/customers']);
	await closeToasts();
	await settled();
	await screenshot(page, 'output-hint');
	expect(pageErrors).toEqual([]);
});
