'use strict';
// The output panel's hint after Customer → Get ran for many items, in the real editor: a Manual
// Trigger pinned to ten customer IDs, Customer → Get added fresh from the nodes panel after it with
// its Customer mapped by an expression. Executing it reads the list once per item, and the output
// panel says so and what reads it once. With nine items the hint stays away. With Selected Fields
// naming an unknown field, nothing is sent and the output panel says so once, naming Fields; n8n
// shows the hint after that run too (its condition cannot see the run: docs/api-assumptions.md).
// Screenshots: test-output/e2e/execution-hint.png, execution-hint-setting.png.
const { requestsOf, actionOf, pinnedManualTrigger, NODE_TYPE } = require('./helpers');
const { byTestId, screenshot } = require('./browser');
const { useEditorSession } = require('./editorSession');

const HINT = 'Customer → Get on 10 or more items';

/** One workflow per count: its Manual Trigger pinned to that many of the sandbox's customer IDs. */
const lookUp = (count) => `executionHint0${String(count).padStart(2, '0')}`;
const SETTING = 'executionHintFld';
const session = useEditorSession({
	name: 'e2e-execution-hint',
	lastStateShot: 'execution-hint-last-state',
	acceptDialogs: true,
	workflows: (sandbox) => [
		...[10, 9].map((count) =>
			pinnedManualTrigger({
				id: lookUp(count),
				name: `Look up ${count} customers`,
				items: [...sandbox.state.customers.keys()]
					.slice(0, count)
					.map((customerId) => ({ customerId })),
			}),
		),
		pinnedManualTrigger({
			id: SETTING,
			name: 'Look up 10 customers, selected fields',
			items: [...sandbox.state.customers.keys()].slice(0, 10).map((customerId) => ({ customerId })),
		}),
	],
});

/** Opens the workflow, adds Customer → Get after its trigger from the nodes panel and maps Customer to each item's ID. */
async function customerGetAfterTrigger(workflowId) {
	const { page, ui, n8n, sandbox } = session;
	await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`);
	const trigger = page.locator(byTestId('canvas-node')).first();
	await trigger.waitFor();
	await ui.addActionAfter(trigger, actionOf('customer', 'get'));
	await ui.fillById('customerId', sandbox.fixtures.customerId);
	await ui.typeExpression(ui.fieldWith('resource-locator-customerId'), '{{ $json.customerId }}');
	const node = await ui.waitUntil(
		() => ui.nodeOfType(NODE_TYPE),
		(n) => String(n?.parameters.customerId?.value).startsWith('={{'),
		{ what: 'Customer to hold the expression' },
	);
	expect(node.parameters).toMatchObject({
		resource: 'customer',
		operation: 'get',
		customerId: { mode: 'id', value: '={{ $json.customerId }}' },
	});
}

/** Executes the open node and waits for its `items` output items; the customer list reads it sent. */
async function execute(items) {
	const { page, ui, sandbox } = session;
	sandbox.clearRequests();
	await ui.pushConnected();
	await page.click(byTestId('node-execute-button'));
	const output = page.locator(byTestId('output-panel'));
	await output.getByText(`${items} items`).first().waitFor();
	const listReads = requestsOf(sandbox).filter(
		(request) => request.method === 'GET' && request.path === '/customers',
	);
	return { output, listReads };
}

test('ten items: each reads the customer list, and the output panel says what reads it once', async () => {
	await customerGetAfterTrigger(lookUp(10));
	const { output, listReads } = await execute(10);
	await output.getByText(HINT).first().waitFor();
	await output.getByText('Customer → Get Many (Return All)').first().waitFor();
	await session.ui.closeToasts();
	await session.ui.settled();
	await screenshot(session.page, 'execution-hint', { docs: false });
	expect(listReads).toHaveLength(10);
});

test('nine items: no hint', async () => {
	await customerGetAfterTrigger(lookUp(9));
	const { output, listReads } = await execute(9);
	expect(await output.getByText(HINT).count()).toBe(0);
	expect(listReads).toHaveLength(9);
});

test('ten items, Selected Fields naming an unknown field: nothing is sent, and the output panel says it once, naming Fields and no item', async () => {
	const { page, ui, sandbox } = session;
	await customerGetAfterTrigger(SETTING);
	await ui.choose('customerOutput', 'Selected Fields');
	const fields = page
		.locator(
			`${byTestId('parameter-input-customerFields')} input, ${byTestId('parameter-input-customerFields')} textarea`,
		)
		.first();
	await fields.click();
	await fields.fill('name, nmae');
	await page.locator(byTestId('node-parameters')).click({ position: { x: 5, y: 5 } }); // blur
	await ui.waitUntil(
		() => ui.nodeOfType(NODE_TYPE),
		(n) => n?.parameters.customerFields === 'name, nmae',
		{ what: 'Fields to hold the names' },
	);
	sandbox.clearRequests();
	await ui.pushConnected();
	await page.click(byTestId('node-execute-button'));
	const output = page.locator(byTestId('output-panel'));
	await output.getByText('Nothing was sent to the API for any of the 10 items').first().waitFor();
	await output.getByText(HINT).first().waitFor();
	await ui.closeToasts();
	await ui.settled();
	await screenshot(page, 'execution-hint-setting', { docs: false });
	// the node's message names no item; the "[item 0]" after the title is n8n's own (docs/api-assumptions.md)
	const shown = await output.innerText();
	const said = shown.split('"nmae" is not a field of a customer').length - 1;
	expect({ said, perItem: /in item \d/.test(shown) }).toEqual({ said: 1, perItem: false });
	expect(shown).toContain('Fields: "nmae" is not a field of a customer');
	expect(requestsOf(sandbox)).toEqual([]);
});

test('the page raised no script errors', () => {
	expect(session.pageErrors).toEqual([]);
});
