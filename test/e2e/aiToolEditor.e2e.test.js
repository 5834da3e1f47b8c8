'use strict';
// The node as an AI tool in n8n's editor (Chromium), added the way users add it: from the AI
// Agent's Tool handle, through the nodes panel. n8n names it "<action> in Subscription Billing";
// its Execute step runs the tool alone (through n8n's Tool Executor). With a parameter the model
// defines ($fromAI), the editor first asks for its value and then asks the server for the tool by a
// name it derives from the node's name, which must be the name the server gave the tool: with
// actions holding other characters than letters, digits, spaces and hyphens the step ran nothing
// ("No output data" on n8n 2.8.4, "Node was not executed" on 2.41.1).
// Screenshots: test-output/e2e/ai-tool-*.png.
const { NODE_TYPE, requestsOf, agentWorkflowStart } = require('./helpers');
const { byTestId, screenshot } = require('./browser');
const { PAGE_TIMEOUT, useEditorSession } = require('./editorSession');
const { toolDescription } = require('../../dist/nodes/SubscriptionBilling/editor');
const { SHARED_FIELDS } = require('../../dist/nodes/SubscriptionBilling/resources/sharedFields');
const { resources } = require('../../dist/nodes/SubscriptionBilling/SubscriptionBilling.node');

/** The node's own tool Description of an operation. */
function descriptionOf(resourceValue, operationValue) {
	const resource = resources.find((candidate) => candidate.value === resourceValue);
	return toolDescription(
		resource,
		resource.operations.find((operation) => operation.value === operationValue),
		SHARED_FIELDS,
	);
}

const TOOL_TYPE = `${NODE_TYPE}Tool`;
const WORKFLOW_ID = 'sbE2eAgentTool01';
const session = useEditorSession({
	name: 'e2e-ai-tool-editor',
	lastStateShot: 'ai-tool-last-state',
	workflows: (sandbox, n8n) => [
		{
			id: WORKFLOW_ID,
			name: 'e2e: an AI Agent to add the tool to',
			...agentWorkflowStart(n8n, 'What is the status of my subscription?'),
			settings: { executionOrder: 'v1' },
		},
	],
});
let sandbox, n8n, page, ui;
beforeAll(() => ({ sandbox, n8n, page, ui } = session));

/** The output panel once it shows `text` (a value of the tool's result). */
async function outputShows(text) {
	await page.locator(byTestId('output-panel')).getByText(text, { exact: false }).first().waitFor();
}

/**
 * Opens the nodes panel from the AI Agent's Tool handle and waits for its list of tools (typed into
 * before, n8n 2.41 searched another list). n8n 2.41 opens its "Other AI Nodes" view and moves on to
 * the tools by itself, which it did not always do on a busy machine: there a user picks Tools.
 */
async function openToolsPanel() {
	await page
		.locator(
			`${byTestId('canvas-node-input-handle')}[data-connection-type="ai_tool"] ${byTestId('canvas-handle-plus')}`,
		)
		.click();
	const tools = page.locator(byTestId('item-iterator-item'), { hasText: 'Code Tool' }).first();
	const toolsCategory = page
		.locator(byTestId('item-iterator-item'), {
			hasText: 'Utility components providing various functionalities',
		})
		.first();
	const view = async () =>
		(await tools.isVisible()) ? 'tools' : (await toolsCategory.isVisible()) ? 'categories' : null;
	await ui.waitUntil(view, (shown) => shown !== null, {
		timeout: PAGE_TIMEOUT,
		what: 'the list of tools or of AI node categories',
	});
	await ui.settled(); // the tools' view slides in over the categories
	if ((await view()) === 'categories') await toolsCategory.click();
	await tools.waitFor();
}

/** Runs the open tool from its panel. */
async function executeStep() {
	sandbox.clearRequests();
	await page.click(byTestId('node-execute-button'));
}

test('a tool added fresh from the panel to the AI Agent is named by its action, starts on a read, and Execute step shows its output', async () => {
	await page.goto(`${n8n.baseUrl}/workflow/${WORKFLOW_ID}`);
	await page.locator(byTestId('canvas-node')).first().waitFor();
	await ui.pushConnected();
	await openToolsPanel();
	await page.fill(byTestId('node-creator-search-bar'), 'Subscription Billing');
	await page
		.locator(byTestId('item-iterator-item'), { hasText: 'Subscription Billing Tool' })
		.first()
		.click();
	await page.locator(byTestId('ndv')).waitFor();

	const fresh = await ui.nodeOfType(TOOL_TYPE);
	expect(fresh.name).toBe('Get many customers in Subscription Billing');
	expect(fresh.parameters).toMatchObject({
		resource: 'customer',
		operation: 'getMany',
		returnAll: false,
		limit: 50,
		toolDescription: descriptionOf('customer', 'getMany'),
	});
	// the node has a Description of its own, so n8n adds no "Tool Description: Set Automatically" choice
	expect(fresh.parameters).not.toHaveProperty('descriptionType');
	await page.locator(byTestId('parameter-input-toolDescription')).first().waitFor();

	await executeStep();
	await outputShows(sandbox.fixtures.customerName);
	expect(
		requestsOf(sandbox).map((r) => ({
			method: r.method,
			path: r.path,
			query: r.query,
			apiKey: r.apiKey,
		})),
	).toEqual([
		{ method: 'GET', path: '/customers', query: { limit: '50' }, apiKey: sandbox.apiKey },
	]);
	await ui.closeToasts();
	await ui.settled();
	await screenshot(page, 'ai-tool-fresh', { docs: false });
});

test('with the Subscription defined by the model, Execute step asks for it and shows the subscription', async () => {
	await ui.choose('resource', 'Subscription');
	await ui.choose('operation', 'Get');
	// n8n renames a node that still has the name it gave it
	await ui.waitUntil(
		async () => (await ui.nodeOfType(TOOL_TYPE)).name,
		(name) => name === 'Get a subscription in Subscription Billing',
		{ what: 'the tool to be renamed' },
	);
	// the Description follows the operation while the user has not written one
	await ui.waitUntil(
		async () => (await ui.nodeOfType(TOOL_TYPE)).parameters.toolDescription,
		(text) => text === descriptionOf('subscription', 'get'),
		{
			what: "the Description to become Subscription → Get's",
		},
	);
	await ui.settled();
	await screenshot(page, 'ai-tool-description', { docs: false });
	await page
		.locator(
			`${byTestId('resource-locator-subscriptionId')} ${byTestId('from-ai-override-button')}`,
		)
		.first()
		.click();
	await ui.waitUntil(
		async () => (await ui.nodeOfType(TOOL_TYPE)).parameters.subscriptionId?.value ?? '',
		(value) => value.includes('$fromAI('),
		{ what: 'Subscription to be defined by the model' },
	);

	await executeStep();
	const modal = page.locator(byTestId('fromAiParameters-modal'));
	const input = modal.locator(`${byTestId('from-ai-parameters-modal-inputs')} input`).first();
	await input.fill(sandbox.fixtures.subscriptionId);
	await ui.settled();
	await screenshot(page, 'ai-tool-from-ai', { docs: false });
	await modal.getByRole('button', { name: /Execute step/i }).click();

	// fields only a subscription has (the customers shown before list its ID too)
	await outputShows('billing_frequency');
	await outputShows(sandbox.fixtures.subscriptionId);
	await outputShows('ACTIVE');
	expect(
		requestsOf(sandbox).map((r) => ({ method: r.method, path: r.path, apiKey: r.apiKey })),
	).toEqual([
		{
			method: 'GET',
			path: `/subscriptions/${sandbox.fixtures.subscriptionId}`,
			apiKey: sandbox.apiKey,
		},
	]);
	await ui.closeToasts();
	await ui.settled();
	await screenshot(page, 'ai-tool-from-ai-output', { docs: false });
});

test('a name where the Subscription ID belongs: the output panel names the tool argument and where the ID is found; nothing sent', async () => {
	await executeStep();
	const modal = page.locator(byTestId('fromAiParameters-modal'));
	await modal
		.locator(`${byTestId('from-ai-parameters-modal-inputs')} input`)
		.first()
		.fill('Acme Corporation Growth');
	await modal.getByRole('button', { name: /Execute step/i }).click();
	// the ✨ button keys the argument by the field's name
	await outputShows(
		'Subscription (tool argument "Subscription"): "Acme Corporation Growth" is not an ID',
	);
	await outputShows('Give the subscription_id from Customer → Search');
	expect(requestsOf(sandbox)).toEqual([]);
	await ui.closeToasts();
	await ui.settled();
	await screenshot(page, 'ai-tool-wrong-id', { docs: false });
});

test('the page raised no script errors', () => {
	expect(session.pageErrors).toEqual([]);
});
