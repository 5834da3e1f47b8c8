'use strict';
// What a new user meets in n8n's editor (Chromium), beyond the editor test's tour: the nodes panel
// finds the node by what users want to do ("invoice", "usage", "customer" ...) and the trigger by the
// events they wait for ("invoice paid", "dunning" ...); Output settings of one kind of result do not
// follow a switch to another resource; the canvas subtitle shows the names the pickers show; the
// editor says what the API cannot do (Invoice Search needs a customer; Customer Get reads the list).
//
// Screenshots go to test-output/e2e/; with E2E_SCREENSHOTS=docs, node-search.png also replaces
// docs/images/node-search.png.
const { requestsOf } = require('./helpers');
const { byTestId, screenshot: saveScreenshot } = require('./browser');
const { useEditorSession } = require('./editorSession');

// what users search for, and the node each search must list
const ACTION_SEARCHES = [
	'invoice',
	'usage',
	'customer',
	'payment method',
	'plan',
	'subscription',
	'upgrade',
	'recast',
	'milestone',
];
const TRIGGER_SEARCHES = [
	'invoice paid',
	'payment failed',
	'dunning',
	'new customer',
	'subscription status',
	// the words users try first, in either order (n8n matches the letters in order within one alias)
	'failed payment',
	'payment failure',
	'failed invoice',
	'overdue invoice',
	'unpaid invoice',
	'card declined',
	'renewal',
	'upcoming renewal',
	'churn',
	'cancelled subscription',
	'subscription canceled',
	'expiring subscription',
	'subscription ending',
];
const PAIR_DESCRIPTION =
	'Manage customers, subscriptions, invoices, payment methods and usage of the Subscription Billing Service, and start workflows when they change';

const session = useEditorSession({
	name: 'e2e-nodes-panel',
	lastStateShot: 'nodes-panel-last-state',
});
let sandbox, n8n, page, ui;
beforeAll(() => ({ sandbox, n8n, page, ui } = session));

const screenshot = (name, options) => saveScreenshot(page, name, options);

/**
 * Whether the panel (open) lists `name` for what the user typed: the results are read until they
 * hold it, or until the search has had its time (what is listed then is kept in `misses`).
 */
async function finds(term, name, misses) {
	const search = page.locator(byTestId('node-creator-search-bar'));
	await search.fill(term);
	const names = page.locator(
		`${byTestId('item-iterator-item')} ${byTestId('node-creator-item-name')}`,
	);
	const listed = async () => (await names.allTextContents()).map((t) => t.trim());
	try {
		await ui.waitUntil(listed, (list) => list.includes(name), {
			timeout: 10000,
			what: `"${name}" among the results for "${term}"`,
		});
		return true;
	} catch {
		misses[term] = await listed();
		await screenshot(`search-miss-${term.replace(/\W+/g, '-')}`, { docs: false });
		return false;
	}
}

test('the trigger panel finds the trigger by the events users wait for', async () => {
	await page.goto(`${n8n.baseUrl}/workflow/new`);
	await page.locator(byTestId('canvas-add-button')).waitFor();
	await page.click(byTestId('canvas-add-button'));
	// n8n lists a trigger and the action node of the same app as one entry, "Subscription Billing",
	// searched by the action node's codex aliases only: the trigger's words are there too
	const found = {};
	const misses = {};
	for (const term of TRIGGER_SEARCHES)
		found[term] = await finds(term, 'Subscription Billing', misses);
	if (await finds('failed payment', 'Subscription Billing', misses)) {
		await ui.settled();
		await screenshot('trigger-search-failed-payment', { docs: false });
	}
	if (await finds('dunning', 'Subscription Billing', misses)) {
		await page
			.locator(byTestId('item-iterator-item'), { hasText: 'Subscription Billing' })
			.first()
			.click();
		await page.getByText('On invoice overdue').first().waitFor();
		// the entry's details show the trigger's description (n8n's merge of the two nodes): it says what both do
		await page.getByText(PAIR_DESCRIPTION).first().waitFor();
		expect(await page.getByText(/^Starts the workflow when/).count()).toBe(0);
		await ui.settled();
		await screenshot('trigger-search', { docs: false });
	}
	// the next tests start from a workflow with a Manual Trigger
	await page.goto(`${n8n.baseUrl}/workflow/new`);
	await page.locator(byTestId('canvas-add-button')).waitFor();
	await page.click(byTestId('canvas-add-button'));
	await page.locator(byTestId('node-creator-search-bar')).fill('Manual Trigger');
	await page.locator(byTestId('item-iterator-item'), { hasText: 'Manual Trigger' }).first().click();
	await page.locator(byTestId('canvas-node')).first().waitFor();
	await page.keyboard.press('Escape');
	expect({ found, misses }).toEqual({
		found: Object.fromEntries(TRIGGER_SEARCHES.map((term) => [term, true])),
		misses: {},
	});
});

test('the nodes panel finds Subscription Billing by what users want to do', async () => {
	await page.click(byTestId('node-creator-plus-button'));
	const found = {};
	const misses = {};
	for (const term of ACTION_SEARCHES)
		found[term] = await finds(term, 'Subscription Billing', misses);
	expect({ found, misses }).toEqual({
		found: Object.fromEntries(ACTION_SEARCHES.map((term) => [term, true])),
		misses: {},
	});
	await finds('invoice', 'Subscription Billing', misses);
	await ui.settled();
	await screenshot('node-search');
});

test("a customer list's Selected Fields do not follow a switch to Subscription → Get", async () => {
	await page.locator(byTestId('node-creator-search-bar')).fill('customer');
	await page
		.locator(byTestId('item-iterator-item'), { hasText: 'Subscription Billing' })
		.first()
		.click();
	await page
		.locator(byTestId('item-iterator-item'), { hasText: 'Get many customers' })
		.first()
		.click();
	const ndv = page.locator(byTestId('ndv'));
	await ndv.waitFor();
	await ui.choose('customerOutput', 'Selected Fields');
	const fields = page
		.locator(
			`${byTestId('parameter-input-customerFields')} input, ${byTestId('parameter-input-customerFields')} textarea`,
		)
		.first();
	await fields.click();
	await fields.fill('customer_id, name, address.city');
	await page.locator(byTestId('node-parameters')).click({ position: { x: 5, y: 5 } }); // blur
	await ui.settled();
	await screenshot('output-selected-customers', { docs: false });

	await ui.choose('resource', 'Subscription');
	await ui.choose('operation', 'Get');
	// Output starts at Simplified for the subscription, and no Fields are shown
	const output = page.locator(`${byTestId('parameter-input-subscriptionOutput')} input`).first();
	await ui.waitUntil(
		() => output.inputValue(),
		(value) => value === 'Simplified',
		{ what: 'Output to show Simplified' },
	);
	await expect(page.locator(byTestId('parameter-input-subscriptionFields')).count()).resolves.toBe(
		0,
	);
	await expect(page.locator(byTestId('parameter-input-customerFields')).count()).resolves.toBe(0);
	await ui.settled();
	await screenshot('output-after-switch', { docs: false });

	// back to customers: their settings did not wait there either
	await ui.choose('resource', 'Customer');
	await ui.choose('operation', 'Get Many');
	const customerOutput = page
		.locator(`${byTestId('parameter-input-customerOutput')} input`)
		.first();
	await ui.waitUntil(
		() => customerOutput.inputValue(),
		(value) => value === 'Simplified',
		{ what: 'Output to show Simplified' },
	);
});

test('the editor says what the API cannot do: Invoice Search needs a customer, Customer Get reads the list', async () => {
	await ui.choose('resource', 'Invoice');
	await ui.choose('operation', 'Search');
	const invoiceSearchNotice = page
		.getByText(/The API searches one customer's invoices at a time: a customer is required/)
		.first();
	await invoiceSearchNotice.waitFor();
	expect(await invoiceSearchNotice.isVisible()).toBe(true);
	await ui.settled();
	await screenshot('invoice-search-notice', { docs: false });
	await ui.choose('resource', 'Customer');
	await ui.choose('operation', 'Get');
	const customerGetNotice = page
		.getByText(/The API has no get by ID for customers: this reads the customer list/)
		.first();
	await customerGetNotice.waitFor();
	expect(await customerGetNotice.isVisible()).toBe(true);
	await ui.settled();
	await screenshot('customer-get-notice', { docs: false });
});

test('the canvas subtitle shows the operation and resource as the pickers name them', async () => {
	await ui.choose('resource', 'Subscription Recast');
	await ui.choose('operation', 'Get Many');
	const close = page
		.locator(`${byTestId('ndv-close-button')}, ${byTestId('back-to-canvas')}`)
		.first();
	await close.click();
	await page.locator(byTestId('ndv')).waitFor({ state: 'hidden' });
	await page.click(byTestId('zoom-to-fit'));
	await ui.stable(
		() => page.locator('.vue-flow__viewport').getAttribute('style'),
		'the canvas to stop moving',
	);
	const node = page
		.locator(byTestId('canvas-node'), { hasText: 'Get Many: Subscription Recast' })
		.first();
	await node.waitFor();
	await expect(node.innerText()).resolves.not.toMatch(/getMany|subscriptionRecast/);
	await ui.settled();
	await screenshot('canvas-subtitle', { docs: false });
	expect(requestsOf(sandbox).filter((r) => r.method !== 'GET')).toEqual([]);
});

test('the page raised no script errors', () => {
	expect(session.pageErrors).toEqual([]);
});
