'use strict';
// A run over several items with one invalid, built in the editor the way a user builds it: a
// Manual Trigger whose output is pinned to three items, Milestone Complete added fresh from the
// nodes panel after it, its fields filled in and Quantity mapped from the items by an expression.
// Executing the node sends nothing for any item, and the output panel names the invalid item.
// Screenshot: test-output/e2e/all-or-nothing.png.
const { credentialFor, startEnvironment, requestsOf, actionOf, NODE_TYPE } = require('./helpers');
const { UI_TIMEOUT, byTestId, openBrowser, signIn, screenshot } = require('./browser');
const { isKnownN8nPageError } = require('./knownN8nPageErrors');
const { editorUi, literally } = require('./editorUi');

const TRIGGER = 'When clicking ‘Execute workflow’';
const PAGE_TIMEOUT = UI_TIMEOUT * 4;

let env;
let sandbox;
let n8n;
let browser;
let page;
let ui;
const pageErrors = [];

/** A workflow holding only a Manual Trigger whose output is pinned to one item per quantity. */
function pinnedTrigger(quantities) {
	return {
		id: 'allOrNothing0001',
		name: 'Three milestone completions',
		active: false,
		nodes: [{ id: 'a0a0a0a0-0000-4000-8000-000000000001', name: TRIGGER, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }],
		connections: {},
		pinData: { [TRIGGER]: quantities.map((q) => ({ json: { q } })) },
		settings: { executionOrder: 'v1' },
	};
}

/** Makes the number field `name` an expression and types `expression` into it, as a user does. */
async function fillExpression(name, expression) {
	const parameter = page.locator(byTestId(`parameter-input-${name}`)).first();
	const field = page.locator(`${byTestId('node-parameters')} .parameter-item`).filter({ has: parameter }).first();
	await field.hover();
	await field.locator(byTestId('radio-button-expression')).click();
	const editor = field.locator(`${byTestId('inline-expression-editor-input')} .cm-content`).first();
	await editor.click();
	await page.keyboard.press('ControlOrMeta+a');
	await page.keyboard.insertText(expression);
	await page.locator(byTestId('node-parameters')).click({ position: { x: 5, y: 5 } }); // blur
}

beforeAll(async () => {
	env = await startEnvironment({ name: 'e2e-all-or-nothing' });
	({ sandbox, n8n } = env);
	await n8n.importCredentials([credentialFor(sandbox)]);
	await n8n.importWorkflow(pinnedTrigger([1, 1.5, 1]));
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
	if (page) await screenshot(page, 'all-or-nothing-last-state', { docs: false }).catch(() => {});
	await browser?.close().catch(() => {});
	await env?.close();
});

test('three pinned items, the second with Quantity 1.5: executing Milestone Complete sends nothing and names item 1', async () => {
	const { subscriptionId, milestoneId } = sandbox.fixtures;
	await page.goto(`${n8n.baseUrl}/workflow/allOrNothing0001`);
	const trigger = page.locator(byTestId('canvas-node')).first();
	await trigger.waitFor();
	await trigger.click();
	await page.click(byTestId('node-creator-plus-button'));
	await page.fill(byTestId('node-creator-search-bar'), 'Subscription Billing');
	await page.locator(byTestId('item-iterator-item'), { hasText: 'Subscription Billing' }).first().click();
	await page.locator(byTestId('node-creator-item-name'), { hasText: new RegExp(`^\\s*${literally(actionOf('subscriptionMilestone', 'complete'))}\\s*$`) }).first().click();
	await page.locator(byTestId('ndv')).waitFor();

	await ui.fillById('subscriptionId', subscriptionId);
	await ui.fillById('milestoneId', milestoneId);
	await ui.choose('billOn', 'Immediately');
	await fillExpression('quantity', '{{ $json.q }}');
	const node = await ui.waitUntil(() => ui.nodeOfType(NODE_TYPE), (n) => n?.parameters.quantity === '={{ $json.q }}', { what: 'Quantity to hold the expression' });
	expect(node.parameters).toMatchObject({ resource: 'subscriptionMilestone', operation: 'complete', billOn: 'IMMEDIATELY' });

	sandbox.clearRequests();
	await ui.pushConnected();
	await page.click(byTestId('node-execute-button'));
	const output = page.locator(byTestId('output-panel'));
	await output.getByText('Quantity in item 1: "1.5" is not a whole number').first().waitFor();
	await output.getByText('Nothing was sent to the API for any of the 3 items').first().waitFor();
	await ui.closeToasts();
	await ui.settled();
	await screenshot(page, 'all-or-nothing', { docs: false });
	expect(requestsOf(sandbox)).toEqual([]);
});

test('the page raised no script errors', () => {
	expect(pageErrors).toEqual([]);
});
