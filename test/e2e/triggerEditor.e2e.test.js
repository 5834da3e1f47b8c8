'use strict';
// The trigger in n8n's editor (Chromium): the example workflow's Invoice Paid trigger shows its
// notices (first activation, cost of All Customers), and Fetch Test Event shows the most recent paid
// invoice without changing what the trigger remembers. Added fresh from the nodes panel, it asks for
// Events, watches All Customers by default, says why Fetch Test Event is unavailable while One
// Customer has no customer, fetches one item per chosen event, and its canvas subtitle names the events; with Renewal Due chosen it shows Days Before Renewal (30) and Subscription
// Reads Per Poll (1000) as the editor stores them, and what a pass costs. A dunning trigger found by
// "failed payment" shows, after Fetch Test Event, event, customer_id and the IDs as the first columns
// of every item, and for Payment Failed with nothing to show the keys its items will have.
// Screenshot: docs/images/trigger-panel.png with E2E_SCREENSHOTS=docs.
const { EXAMPLE_CREDENTIAL_ID, NODE_TYPE, PACKAGE_NAME, example } = require('./helpers');
const { byTestId, screenshot } = require('./browser');
const { useEditorSession } = require('./editorSession');

const credentials = {
	subscriptionBillingApi: { id: EXAMPLE_CREDENTIAL_ID, name: 'Subscription Billing account' },
};
/** The dunning workflow of issue 53: Invoice Payment Failed over All Customers, then Customer → Get of its customer_id. */
const RARE_FAILURE = {
	id: 'sbRareFailure001',
	name: 'Dunning where failed payments are rare',
	active: false,
	nodes: [
		{
			id: 'a5b1c6c2-0d3e-4f51-9a61-7b2c3d4e5f01',
			name: 'Payment Failed',
			type: `${PACKAGE_NAME}.subscriptionBillingTrigger`,
			typeVersion: 1,
			position: [0, 0],
			parameters: { events: ['invoicePaymentFailed'], scope: 'all' },
			credentials,
		},
		{
			id: 'a5b1c6c2-0d3e-4f51-9a61-7b2c3d4e5f02',
			name: 'Get Customer',
			type: NODE_TYPE,
			typeVersion: 1,
			position: [280, 0],
			parameters: {
				resource: 'customer',
				operation: 'get',
				customerId: { __rl: true, mode: 'id', value: '={{ $json.customer_id }}' },
			},
			credentials,
		},
	],
	connections: {
		'Payment Failed': { main: [[{ node: 'Get Customer', type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
};

const session = useEditorSession({
	name: 'e2e-trigger-editor',
	lastStateShot: 'trigger-last-state',
	workflows: () => [example('invoice-paid-message.json'), RARE_FAILURE],
});
let sandbox, n8n, page;
// the editor's helpers (test/e2e/editorUi.js), bound to the page open now
let ui;
beforeAll(() => ({ sandbox, n8n, page, ui } = session));

test('the trigger panel explains first activation and cost; Fetch Test Event shows the most recent paid invoice', async () => {
	const wf = example('invoice-paid-message.json');
	// All Customers: the test event is the most recent match of the customer listed last that has one
	const lastCustomer = [...sandbox.state.customers.keys()].at(-1);
	const newest = sandbox.world.issueInvoice({ customer_id: lastCustomer, amount: 77 });
	sandbox.world.payInvoice({ invoice_id: newest.invoice_id });
	const number = sandbox.state.invoicesById.get(newest.invoice_id).invoice_number;

	await page.goto(`${n8n.baseUrl}/workflow/${wf.id}`);
	const ndv = await ui.openNode(
		page.locator(byTestId('canvas-node'), { hasText: 'Invoice Paid' }).first(),
	);
	await ndv
		.getByText('Each change is emitted once, from the moment the workflow is published')
		.first()
		.waitFor();
	await ndv
		.getByText('about 11 minutes at 10,000 customers polling every minute')
		.first()
		.waitFor();
	await ndv.getByText('one request per customer').first().waitFor();

	sandbox.clearRequests();
	await ndv
		.getByRole('button', { name: /Fetch Test Event/i })
		.first()
		.click();
	const output = page.locator(byTestId('output-panel'));
	await output.getByText('1 item').first().waitFor();
	await output.getByText('JSON', { exact: true }).first().click();
	await output.getByText(number).first().waitFor();
	await page.mouse.move(5, 790);
	expect(
		sandbox.requests
			.filter((r) => r.path.startsWith('/api/v2/'))
			.every((r) => r.method === 'GET' && r.status === 200),
	).toBe(true);
	await shotReady();
	await screenshot(page, 'trigger-panel-example', { docs: false });
});

/** Before a screenshot: the toasts closed and nothing moving. */
async function shotReady() {
	await ui.closeToasts();
	await ui.settled();
}

/** Picks `names` in the multi-select `parameterName` of the open node panel. */
async function pickAll(ndv, parameterName, names) {
	const dropdown = await ui.openDropdown(parameterName);
	for (const name of names) {
		await dropdown.list
			.locator('.el-select-dropdown__item', { hasText: new RegExp(`^\\s*${name}`) })
			.first()
			.click();
	}
	await page.keyboard.press('Escape');
	await ui.dropdownClosed(dropdown, parameterName);
	const select = ndv.locator(`${byTestId(`parameter-input-${parameterName}`)}`).first();
	for (const name of names) await select.getByText(name, { exact: true }).first().waitFor();
}

/**
 * A new workflow in a fresh tab of the signed-in session (nothing left over from an earlier panel),
 * the nodes panel open and searched.
 */
async function searchInNewWorkflow(search) {
	({ page, ui } = await session.newTab());
	await page.goto(`${n8n.baseUrl}/workflow/new`);
	await page.locator(byTestId('canvas-add-button')).waitFor();
	await page.click(byTestId('canvas-add-button'));
	await page.fill(byTestId('node-creator-search-bar'), search);
}

test('added fresh from the nodes panel: Events, All Customers by default, a word on why Fetch Test Event waits, one item per event, a subtitle in words', async () => {
	sandbox.world.updateSubscription({
		subscription_id: sandbox.fixtures.noPhasesSubscriptionId,
		ends_in_days: 9,
	});
	await searchInNewWorkflow('Subscription Billing Trigger');
	// the trigger panel lists the package by its name, and inside it every event as a trigger
	await page
		.locator(byTestId('item-iterator-item'), { hasText: 'Subscription Billing' })
		.first()
		.click();
	await page
		.locator(byTestId('item-iterator-item'), { hasText: 'On subscription ending soon' })
		.first()
		.waitFor();
	const triggers = (await page.locator(byTestId('item-iterator-item')).allTextContents()).join(
		'\n',
	);
	for (const name of [
		'On customer updated',
		'On invoice payment failed',
		'On subscription renewal due',
		'On subscription resumed',
	])
		expect(triggers).toContain(name);
	await screenshot(page, 'trigger-nodes-panel', { docs: false });
	await page
		.locator(byTestId('item-iterator-item'), { hasText: 'On invoice paid' })
		.first()
		.click();
	const ndv = page.locator(byTestId('ndv'));
	await ndv.waitFor();
	await ndv.locator(byTestId('parameter-input-events')).first().waitFor();
	await ndv
		.getByText('Each change is emitted once, from the moment the workflow is published')
		.first()
		.waitFor();

	// added with the event picked in the panel; a second one is picked in Events
	await ndv
		.locator(byTestId('parameter-input-events'))
		.getByText('Invoice Paid', { exact: true })
		.first()
		.waitFor();
	await pickAll(ndv, 'events', ['Subscription Ending Soon']);
	// All Customers is the default, with its cost; Days Before End appears with its default
	await ndv.getByText('one request per customer').first().waitFor();
	await ndv.locator(byTestId('parameter-input-endingSoonDays')).first().waitFor();
	expect(
		await ndv
			.locator(`${byTestId('parameter-input-endingSoonDays')} input`)
			.first()
			.inputValue(),
	).toBe('30');

	// One Customer without a customer: the panel says why Fetch Test Event is unavailable
	await ui.choose('scope', 'One Customer');
	await ndv.getByText('until then n8n cannot run Fetch Test Event').first().waitFor();
	await screenshot(page, 'trigger-panel-one-customer', { docs: false });
	await ui.choose('scope', 'All Customers');
	await ndv.getByText('one request per customer').first().waitFor();
	expect(await ndv.getByText('until then n8n cannot run Fetch Test Event').count()).toBe(0);

	// The credential: the only one there is, picked by n8n; Fetch Test Event gives one item per event
	sandbox.clearRequests();
	await ndv
		.getByRole('button', { name: /Fetch Test Event/i })
		.first()
		.click();
	const output = page.locator(byTestId('output-panel'));
	await output.getByText('2 items').first().waitFor();
	await output.getByText('JSON', { exact: true }).first().click();
	await output.getByText('subscriptionEndingSoon').first().waitFor();
	await page.mouse.move(5, 790);
	expect(
		sandbox.requests
			.filter((r) => r.path.startsWith('/api/v2/'))
			.every((r) => r.method === 'GET' && r.status === 200),
	).toBe(true);
	await shotReady();
	await screenshot(page, 'trigger-panel');

	// On the canvas, the subtitle names the events as the panel does
	await page.keyboard.press('Escape');
	// closed, not closing: n8n 1.x fades the panel out, and a panel still on screen takes the
	// double-click below (and would pass for the one it opens)
	await ndv.waitFor({ state: 'hidden' });
	const node = page.locator(byTestId('canvas-node')).first();
	await node.getByText('Invoice Paid, Subscription Ending Soon').first().waitFor();
	await screenshot(page, 'trigger-canvas', { docs: false });

	// Only Changes To says under the box what none chosen means (n8n's multi-select shows its own "Select")
	await ui.openNode(node);
	await pickAll(ndv, 'events', ['Subscription Status Changed']);
	const statuses = ndv.locator(byTestId('parameter-input-statuses')).first();
	await statuses.waitFor();
	await ndv.getByText('None chosen: every status change is emitted').first().waitFor();
	await screenshot(page, 'trigger-statuses', { docs: false });

	// Renewal Due: its days, what it costs, and the bound on the subscriptions a poll reads
	await pickAll(ndv, 'events', ['Subscription Renewal Due']);
	await ndv.locator(byTestId('parameter-input-subscriptionReadsPerPoll')).first().waitFor();
	expect(
		await ndv
			.locator(`${byTestId('parameter-input-subscriptionReadsPerPoll')} input`)
			.first()
			.inputValue(),
	).toBe('1000');
	expect(
		await ndv
			.locator(`${byTestId('parameter-input-renewalDueDays')} input`)
			.first()
			.inputValue(),
	).toBe('30');
	await ndv.getByText('within one pass over the running subscriptions').first().waitFor();
	await ndv
		.locator(byTestId('parameter-input-subscriptionReadsPerPoll'))
		.first()
		.scrollIntoViewIfNeeded();
	await shotReady();
	await screenshot(page, 'trigger-renewal-due', { docs: false });
});

test('a dunning trigger: Fetch Test Event shows event, customer_id and the IDs at the top level of every item, and says what an event with nothing to show will look like', async () => {
	await searchInNewWorkflow('failed payment');
	await page
		.locator(byTestId('item-iterator-item'), { hasText: 'Subscription Billing' })
		.first()
		.click();
	await page
		.locator(byTestId('item-iterator-item'), { hasText: 'On invoice payment failed' })
		.first()
		.click();
	const ndv = page.locator(byTestId('ndv'));
	await ndv.waitFor();
	await ndv
		.locator(byTestId('parameter-input-events'))
		.getByText('Invoice Payment Failed', { exact: true })
		.first()
		.waitFor();
	await pickAll(ndv, 'events', [
		'Invoice Overdue',
		'Subscription Updated',
		'Subscription Status Changed',
	]);

	// the sandbox has overdue invoices and no failed payment
	sandbox.clearRequests();
	await ndv
		.getByRole('button', { name: /Fetch Test Event/i })
		.first()
		.click();
	const output = page.locator(byTestId('output-panel'));
	await output.getByText('4 items').first().waitFor();
	await output.getByText('Table', { exact: true }).first().click();
	const headers = async () =>
		(await output.locator('table thead th').allTextContents())
			.map((text) => text.trim())
			.filter(Boolean);
	const columns = await ui.waitUntil(headers, (list) => list.includes('no_example'), {
		what: 'the table of the fetched items',
	});
	// the columns are the items' top-level keys, in order of first appearance
	expect(columns.slice(0, 3)).toEqual(['event', 'customer_id', 'subscription_id']);
	expect(columns).toEqual(
		expect.arrayContaining(['invoice_id', 'invoice', 'subscription', 'no_example']),
	);
	// a row's cells stand under the header cells, in the same order
	const allHeaders = (await output.locator('table thead th').allTextContents()).map((text) =>
		text.trim(),
	);
	const cellsOf = async (column) => {
		const rows = await output.locator('table tbody tr').all();
		return await Promise.all(
			rows.map(async (row) =>
				(await row.locator('td').nth(allHeaders.indexOf(column)).innerText()).trim(),
			),
		);
	};
	const customers = await cellsOf('customer_id');
	const events = await cellsOf('event');
	expect(events).toEqual([
		'subscriptionUpdated',
		'subscriptionStatusChanged',
		'invoiceOverdue',
		'invoicePaymentFailed',
	]);
	for (const id of customers.slice(0, 3)) expect(sandbox.state.customers.has(id)).toBe(true);
	await page.mouse.move(5, 790);
	await shotReady();
	await screenshot(page, 'trigger-fetch-test-event-keys', { docs: false });

	// the item for Payment Failed says, in the editor, what its items will look like and what to wait for
	const [told] = (await cellsOf('no_example')).slice(3);
	expect(told).toMatch(
		/to see one here, wait until a payment attempt on an invoice fails, then fetch again/,
	);
	expect(told).toMatch(
		/with the keys event, customer_id, subscription_id, invoice_id, detected_at, error, attempt_count, payment, invoice/,
	);
	expect(told).not.toMatch(/README/);
	await output
		.locator('table tbody tr')
		.nth(3)
		.locator('td')
		.nth(allHeaders.indexOf('no_example'))
		.scrollIntoViewIfNeeded();
	await page.mouse.move(5, 790);
	await shotReady();
	await screenshot(page, 'trigger-fetch-test-event-no-example', { docs: false });
	expect(
		sandbox.requests
			.filter((r) => r.path.startsWith('/api/v2/'))
			.every((r) => r.method === 'GET' && r.status === 200),
	).toBe(true);
});

test('10,000 customers, one failed payment at #6,742: the next step names the no-example item as the cause; One Customer, Fetch Test Event and a pin test it on the real failure', async () => {
	while (sandbox.state.customers.size < 10_000)
		sandbox.world.createCustomer({ name: `Customer ${sandbox.state.customers.size}` });
	const failing = [...sandbox.state.customers.keys()][6_742];
	const { name } = sandbox.state.customers.get(failing);
	const invoice = sandbox.world.issueInvoice({ customer_id: failing, amount: 40 });
	sandbox.world.failPayment({ invoice_id: invoice.invoice_id });
	({ page, ui } = await session.newTab());
	await page.goto(`${n8n.baseUrl}/workflow/${RARE_FAILURE.id}`);
	const nodeNamed = (text) => page.locator(byTestId('canvas-node'), { hasText: text }).first();
	const output = page.locator(byTestId('output-panel'));
	const listReads = () =>
		sandbox.requests.filter((r) => r.path === '/api/v2/customers').map((r) => r.rawQuery);

	// Executing Get Customer runs the trigger's Fetch Test Event first: the failure is not among the
	// customers it looks at, and the step says that its item is the cause
	sandbox.clearRequests();
	await ui.openNode(nodeNamed('Get Customer'));
	await ui.pushConnected();
	await page.click(byTestId('node-execute-button'));
	await output.getByText("is not an event but the trigger's note").first().waitFor();
	await output.getByText('Invoice Payment Failed: no example to show').first().waitFor();
	// the customer list as Fetch Test Event reads it, and no Customer → Get
	expect(listReads()).toEqual(['limit=1', 'offset=9000&limit=1000']);
	await shotReady();
	await screenshot(page, 'trigger-rare-event-step-error', { docs: false });
	await page.keyboard.press('Escape');
	const ndv = page.locator(byTestId('ndv'));
	await ndv.waitFor({ state: 'hidden' });

	// The way the no_example item gives: One Customer with that customer, fetch, pin, All Customers again
	await ui.openNode(nodeNamed('Payment Failed'));
	await ui.choose('scope', 'One Customer');
	await ui.fillById('customerId', failing);
	await ndv
		.getByRole('button', { name: /Fetch Test Event/i })
		.first()
		.click();
	await output.getByText('1 item').first().waitFor();
	await output.getByText('JSON', { exact: true }).first().click();
	await output.getByText(invoice.invoice_id).first().waitFor();
	await output.locator(byTestId('ndv-pin-data')).first().click();
	await ui.choose('scope', 'All Customers');
	await ui.waitUntil(
		() => ui.nodeOfType(`${PACKAGE_NAME}.subscriptionBillingTrigger`),
		(node) => node?.parameters.scope === 'all',
		{ what: 'Invoices Of back to All Customers' },
	);
	await page
		.locator(`${byTestId('ndv-close-button')}, ${byTestId('back-to-canvas')}`)
		.first()
		.click();
	await ndv.waitFor({ state: 'hidden' });

	// Get Customer now runs on the pinned failure
	sandbox.clearRequests();
	await ui.openNode(nodeNamed('Get Customer'));
	await page.click(byTestId('node-execute-button'));
	// (the JSON view shows the name in quotes)
	await output.getByText(`"${name}"`).first().waitFor();
	expect(listReads().length).toBeGreaterThan(0);
	expect(sandbox.requests.filter((r) => r.path.includes('/invoices'))).toEqual([]);
	await shotReady();
	await screenshot(page, 'trigger-rare-event-pinned', { docs: false });
});
