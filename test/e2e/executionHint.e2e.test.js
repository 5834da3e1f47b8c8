'use strict';
// The output panel's hint after Customer → Get ran for many items, in the real editor: a Manual
// Trigger pinned to ten customer IDs, Customer → Get added fresh from the nodes panel after it with
// its Customer mapped by an expression. Executing it reads the list once per item, and the output
// panel says so and what reads it once. With nine items the hint stays away.
// Screenshot: test-output/e2e/execution-hint.png.
const { credentialFor, startEnvironment, requestsOf, actionOf, NODE_TYPE } = require('./helpers');
const { UI_TIMEOUT, byTestId, openBrowser, signIn, screenshot } = require('./browser');
const { isKnownN8nPageError } = require('./knownN8nPageErrors');
const { editorUi, literally } = require('./editorUi');

const TRIGGER = 'When clicking ‘Execute workflow’';
const PAGE_TIMEOUT = UI_TIMEOUT * 4;
const HINT = 'Customer → Get ran for 10 or more items';

let env;
let sandbox;
let n8n;
let browser;
let page;
let ui;
const pageErrors = [];

/** A workflow holding only a Manual Trigger whose output is pinned to one item per customer ID. */
function pinnedTrigger(id, customerIds) {
	return {
		id,
		name: `Look up ${customerIds.length} customers`,
		active: false,
		nodes: [{ id: `a0a0a0a0-0000-4000-8000-0000000000${customerIds.length}`, name: TRIGGER, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }],
		connections: {},
		pinData: { [TRIGGER]: customerIds.map((customerId) => ({ json: { customerId } })) },
		settings: { executionOrder: 'v1' },
	};
}

/** Switches the resource locator `name` to an expression and types `expression` into it, as a user does. */
async function mapByExpression(name, expression) {
	const field = page.locator(`${byTestId('node-parameters')} .parameter-item`).filter({ has: page.locator(byTestId(`resource-locator-${name}`)) }).first();
	await field.hover();
	await field.locator(byTestId('radio-button-expression')).click();
	const editor = field.locator(`${byTestId('inline-expression-editor-input')} .cm-content`).first();
	await editor.click();
	await page.keyboard.press('ControlOrMeta+a');
	await page.keyboard.insertText(expression);
	await page.locator(byTestId('node-parameters')).click({ position: { x: 5, y: 5 } }); // blur
}

/** Opens the workflow, adds Customer → Get after the trigger from the nodes panel and maps Customer to each item's ID. */
async function customerGetAfterTrigger(workflowId) {
	await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`);
	const trigger = page.locator(byTestId('canvas-node')).first();
	await trigger.waitFor();
	await trigger.click();
	await page.click(byTestId('node-creator-plus-button'));
	await page.fill(byTestId('node-creator-search-bar'), 'Subscription Billing');
	await page.locator(byTestId('item-iterator-item'), { hasText: 'Subscription Billing' }).first().click();
	await page.locator(byTestId('node-creator-item-name'), { hasText: new RegExp(`^\\s*${literally(actionOf('customer', 'get'))}\\s*$`) }).first().click();
	await page.locator(byTestId('ndv')).waitFor();
	await ui.fillById('customerId', sandbox.fixtures.customerId);
	await mapByExpression('customerId', '{{ $json.customerId }}');
	const node = await ui.waitUntil(() => ui.nodeOfType(NODE_TYPE), (n) => String(n?.parameters.customerId?.value).startsWith('={{'), { what: 'Customer to hold the expression' });
	expect(node.parameters).toMatchObject({ resource: 'customer', operation: 'get', customerId: { mode: 'id', value: '={{ $json.customerId }}' } });
}

/** Executes the open node and waits for its `items` output items. */
async function execute(items) {
	sandbox.clearRequests();
	await ui.pushConnected();
	await page.click(byTestId('node-execute-button'));
	const output = page.locator(byTestId('output-panel'));
	await output.getByText(`${items} items`).first().waitFor();
	return output;
}

beforeAll(async () => {
	env = await startEnvironment({ name: 'e2e-execution-hint' });
	({ sandbox, n8n } = env);
	const customerIds = [...sandbox.state.customers.keys()];
	await n8n.importCredentials([credentialFor(sandbox)]);
	await n8n.importWorkflow(pinnedTrigger('executionHint010', customerIds.slice(0, 10)));
	await n8n.importWorkflow(pinnedTrigger('executionHint009', customerIds.slice(0, 9)));
	await n8n.start();
	await n8n.setupOwner();
	({ browser, page } = await openBrowser());
	ui = editorUi(page);
	page.setDefaultTimeout(PAGE_TIMEOUT);
	page.on('pageerror', (e) => isKnownN8nPageError(n8n.version, e) || pageErrors.push(e.message));
	page.on('dialog', (dialog) => dialog.accept().catch(() => {}));
	await signIn(page, n8n);
});

afterAll(async () => {
	if (page) await screenshot(page, 'execution-hint-last-state', { docs: false }).catch(() => {});
	await browser?.close().catch(() => {});
	await env?.close();
});

test('ten items: each reads the customer list, and the output panel says what reads it once', async () => {
	await customerGetAfterTrigger('executionHint010');
	const output = await execute(10);
	await output.getByText(HINT).first().waitFor();
	await output.getByText('Customer → Get Many (Return All)').first().waitFor();
	await ui.closeToasts();
	await ui.settled();
	await screenshot(page, 'execution-hint', { docs: false });
	const reads = requestsOf(sandbox).filter((request) => request.method === 'GET' && request.path === '/customers');
	expect(reads).toHaveLength(10);
});

test('nine items: no hint', async () => {
	await customerGetAfterTrigger('executionHint009');
	const output = await execute(9);
	expect(await output.getByText(HINT).count()).toBe(0);
	expect(requestsOf(sandbox).filter((request) => request.method === 'GET' && request.path === '/customers')).toHaveLength(9);
});

test('the page raised no script errors', () => {
	expect(pageErrors).toEqual([]);
});
