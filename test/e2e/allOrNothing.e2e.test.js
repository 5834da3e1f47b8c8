'use strict';
// A run over several items with one invalid, built in the editor the way a user builds it: a
// Manual Trigger whose output is pinned to three items, Milestone Complete added fresh from the
// nodes panel after it, its fields filled in and Quantity mapped from the items by an expression.
// Executing the node sends nothing for any item, and the output panel names the invalid item.
// Screenshot: test-output/e2e/all-or-nothing.png.
const { requestsOf, actionOf, pinnedManualTrigger, NODE_TYPE } = require('./helpers');
const { byTestId, screenshot } = require('./browser');
const { useEditorSession } = require('./editorSession');

const session = useEditorSession({
	name: 'e2e-all-or-nothing',
	lastStateShot: 'all-or-nothing-last-state',
	acceptDialogs: true,
	workflows: () => [
		pinnedManualTrigger({
			id: 'allOrNothing0001',
			name: 'Three milestone completions',
			items: [1, 1.5, 1].map((q) => ({ q })),
		}),
	],
});

test('three pinned items, the second with Quantity 1.5: executing Milestone Complete sends nothing and names item 1', async () => {
	const { page, ui, n8n, sandbox } = session;
	const { subscriptionId, milestoneId } = sandbox.fixtures;
	await page.goto(`${n8n.baseUrl}/workflow/allOrNothing0001`);
	const trigger = page.locator(byTestId('canvas-node')).first();
	await trigger.waitFor();
	await ui.addActionAfter(trigger, actionOf('subscriptionMilestone', 'complete'));

	await ui.fillById('subscriptionId', subscriptionId);
	await ui.fillById('milestoneId', milestoneId);
	await ui.choose('billOn', 'Immediately');
	await ui.typeExpression(ui.fieldWith('parameter-input-quantity'), '{{ $json.q }}');
	const node = await ui.waitUntil(
		() => ui.nodeOfType(NODE_TYPE),
		(n) => n?.parameters.quantity === '={{ $json.q }}',
		{ what: 'Quantity to hold the expression' },
	);
	expect(node.parameters).toMatchObject({
		resource: 'subscriptionMilestone',
		operation: 'complete',
		billOn: 'IMMEDIATELY',
	});

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
	expect(session.pageErrors).toEqual([]);
});
