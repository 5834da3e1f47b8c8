'use strict';
// The node in n8n's editor, in a real browser (Debian's Chromium driven by playwright-core):
// sign in, run an example workflow on the canvas, add the node from the nodes panel, check every
// resource's operation picker against the built node description (dist/), fill in one operation
// and execute it against the sandbox, and test the credential from its dialog.
//
// Screenshots go to test-output/e2e/; with E2E_SCREENSHOTS=docs they also replace docs/images/.
const {
	EXAMPLE_CREDENTIAL_ID,
	example,
	requestsOf,
	builtNodeDescription,
	expectedOperations,
} = require('./helpers');
const { byTestId, signIn, openNodeActions, screenshot: saveScreenshot } = require('./browser');
const { useEditorSession } = require('./editorSession');

// n8n's editor adds a "Custom API Call" option to the resource and operation pickers of a node
// whose credential the HTTP Request node can reuse (generic `authenticate`): not in the description
const EDITOR_ADDED_OPTIONS = ['Custom API Call'];

const session = useEditorSession({
	name: 'e2e-editor',
	lastStateShot: 'last-state',
	signedIn: false,
	workflows: () => [example('customer-onboarding.json')],
});
let sandbox, n8n, page;
// the editor's helpers (test/e2e/editorUi.js), bound to this file's page
let closeToasts, pushConnected, settled, stable, waitUntil, choose, fillById, optionNames;
beforeAll(() => {
	({ sandbox, n8n, page } = session);
	({ closeToasts, pushConnected, settled, stable, waitUntil, choose, fillById, optionNames } =
		session.ui);
});

const screenshot = (name, options) => saveScreenshot(page, name, options);

test('signs in with the owner account', async () => {
	await signIn(page, n8n);
	expect(new URL(page.url()).pathname).toMatch(/^\/home\//);
});

test('runs an example workflow from the canvas', async () => {
	const wf = example('customer-onboarding.json');
	sandbox.reset();
	await page.goto(`${n8n.baseUrl}/workflow/${wf.id}`);
	await page.locator(byTestId('canvas-node')).first().waitFor();
	const runButton = page.locator(byTestId('execute-workflow-button'));
	await waitUntil(
		() => runButton.isEnabled(),
		(enabled) => enabled,
		{ what: 'the run button to be enabled' },
	);
	await pushConnected();
	await runButton.click();
	// the run ends with the customer created in the sandbox and green nodes on the canvas
	const calls = () => requestsOf(sandbox).map((r) => `${r.method} ${r.path}`);
	await waitUntil(calls, (c) => c.length >= 2, { what: 'the workflow requests' });
	expect(calls()).toEqual(['POST /customers/search', 'POST /customers']);
	await page
		.locator('[data-test-id="canvas-node"] [data-test-id="canvas-node-status-success"]')
		.first()
		.waitFor();
	// the whole workflow in view, without the toast
	await page.click(byTestId('zoom-to-fit'));
	await closeToasts();
	await stable(
		() => page.locator('.vue-flow__viewport').getAttribute('style'),
		'the canvas to stop moving',
	);
	await settled();
	await screenshot('canvas');
});

test('the nodes panel offers the node with every action of the built description', async () => {
	await openNodeActions(page, n8n);
	await settled();
	await screenshot('node-panel');

	const listed = await page
		.locator(`${byTestId('item-iterator-item')} ${byTestId('node-creator-item-name')}`)
		.allTextContents();
	const expected = Object.values(expectedOperations()).flatMap((r) => r.actions);
	expect(listed.map((t) => t.trim()).sort()).toEqual([...expected].sort());
});

test("each resource's operation picker lists exactly the operations of the built description", async () => {
	const expected = expectedOperations();
	const first = Object.values(expected)[0];
	// adding an action opens the node's panel with that resource and operation
	await page.locator(byTestId('item-iterator-item'), { hasText: first.actions[0] }).first().click();
	await page.locator(byTestId('ndv')).waitFor();
	await page.locator(byTestId('parameter-input-resource')).waitFor();

	const resourceNames = await optionNames('resource');
	expect(resourceNames).toEqual([
		...Object.values(expected).map((r) => r.name),
		...EDITOR_ADDED_OPTIONS,
	]);
	const seen = {};
	for (const [value, resource] of Object.entries(expected)) {
		await choose('resource', resource.name);
		seen[value] = await optionNames('operation');
	}
	const wanted = Object.fromEntries(
		Object.entries(expected).map(([value, r]) => [
			value,
			[...r.operations, ...EDITOR_ADDED_OPTIONS],
		]),
	);
	expect(seen).toEqual(wanted);
});

test('one operation, filled in and executed, shows the API answer in the output table', async () => {
	const { fixtures } = sandbox;
	sandbox.reset();
	await choose('resource', 'Subscription');
	await choose('operation', 'Get');
	// the only credential of the type is picked by itself
	await expect(
		page.locator(`${byTestId('node-credentials-select')} input`).inputValue(),
	).resolves.toBe('Subscription Billing account');
	// the subscription is a resource locator: switch it from "From List" to "By ID"
	await fillById('subscriptionId', fixtures.subscriptionId);
	await pushConnected();
	await page.click(byTestId('node-execute-button'));
	const output = page.locator(byTestId('output-panel'));
	await waitUntil(
		() => requestsOf(sandbox).length,
		(n) => n > 0,
		{ what: 'the request of the executed node' },
	);
	// the output in the table view
	await output.locator(byTestId('node-run-status-success')).first().waitFor();
	const tableTab = output.locator(byTestId('radio-button-table'));
	if (await tableTab.count()) await tableTab.first().click();
	await output.locator('table').first().waitFor();
	await closeToasts();
	await screenshot('output-table');

	expect(requestsOf(sandbox).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
		`GET /subscriptions/${fixtures.subscriptionId} 200`,
	]);
	const text = await output.locator('table').first().innerText();
	const subscription = sandbox.state.subscriptions.get(fixtures.subscriptionId);
	expect(text).toMatch(/subscription_id/);
	expect(text).toContain(subscription.status);
	expect(await output.textContent()).toContain(fixtures.subscriptionId);
});

test('the credential dialog tests the credential: success with the right key, a clear failure with a wrong one', async () => {
	sandbox.reset();
	await page.click(byTestId('credential-edit-button'));
	const dialog = page.locator(byTestId('editCredential-modal'));
	await dialog.waitFor();
	// opening a saved credential tests it; Retry tests it again
	await dialog.locator(byTestId('credentials-config-container-test-success')).waitFor();
	sandbox.clearRequests();
	await dialog.getByRole('button', { name: 'Retry' }).click();
	await waitUntil(
		() => requestsOf(sandbox).length,
		(n) => n > 0,
		{ what: 'the credential test request' },
	);
	await dialog.locator(byTestId('credentials-config-container-test-success')).waitFor();
	await expect(
		dialog.locator(byTestId('credentials-config-container-test-success')).innerText(),
	).resolves.toMatch(/tested successfully/i);
	expect(
		requestsOf(sandbox).map(
			(r) => `${r.method} ${r.path} ${r.status} ${r.apiKey === sandbox.apiKey}`,
		),
	).toEqual(['GET /customers 200 true']);
	await dialog.getByRole('button', { name: 'Retry' }).waitFor();
	await closeToasts();
	await settled();
	await screenshot('credential-dialog');

	// a wrong key: saving tests it and the dialog says why the connection failed
	sandbox.clearRequests();
	const key = dialog.locator(`${byTestId('parameter-input-apiKey')} input`);
	await key.click();
	await key.fill('sbx_wrong_key_from_the_editor');
	await dialog.getByRole('button', { name: 'Save' }).click();
	const failure = dialog.getByText(/Couldn.t connect with these settings/);
	await failure.waitFor();
	await dialog.getByText('More details').click();
	// the credential's own message, not n8n's generic "Authorization failed"
	const cause = dialog.getByText(
		/The API key was not accepted \(ERR_UNAUTHORIZED\): check the API Key, and that it belongs to the environment chosen in Environment/,
	);
	await cause.first().waitFor();
	await expect(dialog.getByText(/Authorization failed/).count()).resolves.toBe(0);
	const requests = requestsOf(sandbox);
	expect(requests.length).toBeGreaterThan(0);
	expect(
		requests.every((r) => r.status === 401 && r.apiKey === 'sbx_wrong_key_from_the_editor'),
	).toBe(true);
	await closeToasts();
	await settled();
	await screenshot('credential-dialog-wrong-key');

	// an http address on another host: the notice under the field says https is required, as it is typed
	const notice = dialog.getByText(/This base URL must use https/);
	await expect(notice.count()).resolves.toBe(0);
	const baseUrl = dialog.locator(`${byTestId('parameter-input-productionBaseUrl')} input`);
	await baseUrl.click();
	await baseUrl.fill('http://billing.example.com/api/v2');
	await notice.first().waitFor();
	// saving tests it: the dialog says the scheme is the problem, not that the host cannot be reached
	sandbox.clearRequests();
	await dialog.getByRole('button', { name: 'Save' }).click();
	await dialog.getByText(/Couldn.t connect with these settings/).waitFor();
	const details = dialog.getByText('More details');
	if (await details.count()) await details.first().click();
	await dialog
		.getByText(
			/The Production Base URL must use https: http:\/\/billing\.example\.com is plain http on another machine/,
		)
		.first()
		.waitFor();
	await expect(dialog.getByText(/connection cannot be established/).count()).resolves.toBe(0);
	expect(requestsOf(sandbox)).toEqual([]);
	// the test's message at the top of the dialog, the notice under the field below it
	await dialog.getByText(/Couldn.t connect with these settings/).scrollIntoViewIfNeeded();
	await closeToasts();
	await settled();
	await screenshot('credential-dialog-http');
	await baseUrl.fill(`${sandbox.baseUrl}`);
	await notice.first().waitFor({ state: 'hidden' });
});

test('the page raised no script errors', () => {
	expect(session.pageErrors).toEqual([]);
});

test('the built description is the one the editor loaded', async () => {
	const types = await n8n.rest('GET', '/types/nodes.json');
	const served = types.body.find((t) => t.name.endsWith('.subscriptionBilling'));
	const built = builtNodeDescription();
	expect(served.properties.map((p) => p.name)).toEqual(
		expect.arrayContaining(built.properties.map((p) => p.name)),
	);
	expect(expectedOperations(served)).toEqual(expectedOperations(built));
	expect(EXAMPLE_CREDENTIAL_ID).toBeTruthy();
});
