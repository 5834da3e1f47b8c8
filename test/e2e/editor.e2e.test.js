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
	credentialFor,
	startEnvironment,
	requestsOf,
	builtNodeDescription,
	expectedOperations,
} = require('./helpers');
const { UI_TIMEOUT, byTestId, openBrowser, signIn, openNodeActions, screenshot: saveScreenshot } = require('./browser');
const { isKnownN8nPageError } = require('./knownN8nPageErrors');

// n8n's editor adds a "Custom API Call" option to the resource and operation pickers of a node
// whose credential the HTTP Request node can reuse (generic `authenticate`): not in the description
const EDITOR_ADDED_OPTIONS = ['Custom API Call'];

let env;
let sandbox;
let n8n;
let browser;
let page;
const pageErrors = [];

const screenshot = (name, options) => saveScreenshot(page, name, options);

/** Closes the toasts ("Node executed successfully" ...) so that they do not cover a screenshot. */
async function closeToasts() {
	for (const close of await page.locator('.el-notification__closeBtn:visible').all()) await close.click().catch(() => {});
	await waitUntil(() => page.locator('.el-notification:visible').count(), (n) => n === 0, { what: 'the toasts to close' });
}

/**
 * Waits until the editor's push connection to the server is open: the editor refuses to run a
 * workflow before ("No active connection to server"), which a cold machine can take a while to reach.
 * Read from the editor's own store (Pinia's "push" store, `isConnected`).
 */
async function pushConnected() {
	await waitUntil(
		() =>
			page.evaluate(() => {
				const app = document.querySelector('#app')?.__vue_app__;
				const store = app?.config.globalProperties.$pinia?._s.get('push');
				return store ? store.isConnected === true : 'no push store';
			}),
		(connected) => connected === true,
		{ what: "the editor's push connection" },
	);
}

/** Waits until the page has no running animation or transition (before a screenshot). */
async function settled() {
	await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => {}))));
}

/** Waits until `fn()` gives the same value twice in a row, e.g. a canvas that stopped moving. */
async function stable(fn, what) {
	let previous = Symbol('none');
	return await waitUntil(
		async () => {
			const current = JSON.stringify(await fn());
			const same = current === previous;
			previous = current;
			return same;
		},
		(same) => same,
		{ what },
	);
}

/** Waits until `fn()` returns something `accept` likes; returns it (or throws with the last value). */
async function waitUntil(fn, accept, { timeout = UI_TIMEOUT, what = 'condition' } = {}) {
	const deadline = Date.now() + timeout;
	let last;
	while (Date.now() < deadline) {
		last = await fn();
		if (accept(last)) return last;
		await new Promise((r) => setTimeout(r, 250));
	}
	throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
}


/**
 * Opens the dropdown of the options parameter `parameterName` and returns its list: the one the
 * select's combobox controls (aria-controls), not any other dropdown still fading out.
 */
async function openDropdown(parameterName) {
	const combobox = page.locator(`${byTestId(`parameter-input-${parameterName}`)} [role="combobox"]`).first();
	await combobox.click();
	await waitUntil(() => combobox.getAttribute('aria-expanded'), (expanded) => expanded === 'true', { what: `the ${parameterName} dropdown to open` });
	const list = page.locator(`[id="${await combobox.getAttribute('aria-controls')}"]`);
	await list.locator('.el-select-dropdown__item .option-headline').first().waitFor();
	return { combobox, list };
}

/** Waits until the dropdown is closed and its list hidden. */
async function dropdownClosed({ combobox, list }, parameterName) {
	await waitUntil(() => combobox.getAttribute('aria-expanded'), (expanded) => expanded !== 'true', { what: `the ${parameterName} dropdown to close` });
	await list.waitFor({ state: 'hidden' });
}

/** Picks `optionName` in the options parameter `parameterName` of the open node panel. */
async function choose(parameterName, optionName) {
	const dropdown = await openDropdown(parameterName);
	await dropdown.list.locator('.el-select-dropdown__item .option-headline').filter({ hasText: new RegExp(`^${optionName}$`) }).first().click();
	await dropdownClosed(dropdown, parameterName);
	const input = page.locator(`${byTestId(`parameter-input-${parameterName}`)} input`).first();
	await waitUntil(() => input.inputValue(), (value) => value === optionName, { what: `${parameterName} to show ${optionName}` });
}

/** The names (headlines, not descriptions) of the options the dropdown of `parameterName` lists. */
async function optionNames(parameterName) {
	const dropdown = await openDropdown(parameterName);
	const names = (await dropdown.list.locator('.el-select-dropdown__item .option-headline').allTextContents()).map((t) => t.trim());
	await page.keyboard.press('Escape'); // closes the dropdown, not the node panel
	await dropdownClosed(dropdown, parameterName);
	return names;
}

beforeAll(async () => {
	env = await startEnvironment({ name: 'e2e-editor' });
	({ sandbox, n8n } = env);
	await n8n.importCredentials([credentialFor(sandbox)]);
	await n8n.importWorkflow(example('customer-onboarding.json'));
	await n8n.start();
	await n8n.setupOwner();

	({ browser, page } = await openBrowser());
	page.on('pageerror', (e) => isKnownN8nPageError(n8n.version, e) || pageErrors.push(e.message));
});

afterAll(async () => {
	// the page as the tests left it: where a failing test stopped
	if (page) await screenshot('last-state', { docs: false }).catch(() => {});
	await browser?.close().catch(() => {});
	await env?.close();
});

test('signs in with the owner account', async () => {
	await signIn(page, n8n);
});

test('runs an example workflow from the canvas', async () => {
	const wf = example('customer-onboarding.json');
	sandbox.reset();
	await page.goto(`${n8n.baseUrl}/workflow/${wf.id}`);
	await page.locator(byTestId('canvas-node')).first().waitFor();
	const runButton = page.locator(byTestId('execute-workflow-button'));
	await waitUntil(() => runButton.isEnabled(), (enabled) => enabled, { what: 'the run button to be enabled' });
	await pushConnected();
	await runButton.click();
	// the run ends with the customer created in the sandbox and green nodes on the canvas
	const calls = () => requestsOf(sandbox).map((r) => `${r.method} ${r.path}`);
	await waitUntil(calls, (c) => c.length >= 2, { what: 'the workflow requests' });
	expect(calls()).toEqual(['POST /customers/search', 'POST /customers']);
	await page.locator('[data-test-id="canvas-node"] [data-test-id="canvas-node-status-success"]').first().waitFor();
	// the whole workflow in view, without the toast
	await page.click(byTestId('zoom-to-fit'));
	await closeToasts();
	await stable(() => page.locator('.vue-flow__viewport').getAttribute('style'), 'the canvas to stop moving');
	await settled();
	await screenshot('canvas');
});

test('the nodes panel offers the node with every action of the built description', async () => {
	await openNodeActions(page, n8n);
	await settled();
	await screenshot('node-panel');

	const listed = await page.locator(`${byTestId('item-iterator-item')} ${byTestId('node-creator-item-name')}`).allTextContents();
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
	expect(resourceNames).toEqual([...Object.values(expected).map((r) => r.name), ...EDITOR_ADDED_OPTIONS]);
	const seen = {};
	for (const [value, resource] of Object.entries(expected)) {
		await choose('resource', resource.name);
		seen[value] = await optionNames('operation');
	}
	const wanted = Object.fromEntries(
		Object.entries(expected).map(([value, r]) => [value, [...r.operations, ...EDITOR_ADDED_OPTIONS]]),
	);
	expect(seen).toEqual(wanted);
});

test('one operation, filled in and executed, shows the API answer in the output table', async () => {
	const { fixtures } = sandbox;
	sandbox.reset();
	await choose('resource', 'Subscription');
	await choose('operation', 'Get');
	// the only credential of the type is picked by itself
	await expect(page.locator(`${byTestId('node-credentials-select')} input`).inputValue()).resolves.toBe('Subscription Billing account');
	// the subscription is a resource locator: switch it from "From List" to "By ID"
	const locator = page.locator(byTestId('resource-locator-subscriptionId'));
	await locator.locator(byTestId('rlc-mode-selector')).click();
	await page.locator('.el-select-dropdown__item:visible', { hasText: 'By ID' }).first().click();
	const id = locator.locator(`input${byTestId('rlc-input')}, ${byTestId('rlc-input')} input, ${byTestId('rlc-input')} textarea`).first();
	await id.click();
	await id.fill(fixtures.subscriptionId);
	await page.locator(byTestId('node-parameters')).click({ position: { x: 5, y: 5 } }); // blur
	await pushConnected();
	await page.click(byTestId('node-execute-button'));
	const output = page.locator(byTestId('output-panel'));
	await waitUntil(() => requestsOf(sandbox).length, (n) => n > 0, { what: 'the request of the executed node' });
	// the output in the table view
	await output.locator(byTestId('node-run-status-success')).first().waitFor();
	const tableTab = output.locator(byTestId('radio-button-table'));
	if (await tableTab.count()) await tableTab.first().click();
	await output.locator('table').first().waitFor();
	await closeToasts();
	await screenshot('output-table');

	expect(requestsOf(sandbox).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`GET /subscriptions/${fixtures.subscriptionId} 200`]);
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
	await waitUntil(() => requestsOf(sandbox).length, (n) => n > 0, { what: 'the credential test request' });
	await dialog.locator(byTestId('credentials-config-container-test-success')).waitFor();
	await expect(dialog.locator(byTestId('credentials-config-container-test-success')).innerText()).resolves.toMatch(/tested successfully/i);
	expect(requestsOf(sandbox).map((r) => `${r.method} ${r.path} ${r.status} ${r.apiKey === sandbox.apiKey}`)).toEqual(['GET /customers 200 true']);
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
	const cause = dialog.getByText(/The API key was not accepted \(ERR_UNAUTHORIZED\): check the API Key, and that it belongs to the environment chosen in Environment/);
	await cause.first().waitFor();
	await expect(dialog.getByText(/Authorization failed/).count()).resolves.toBe(0);
	const requests = requestsOf(sandbox);
	expect(requests.length).toBeGreaterThan(0);
	expect(requests.every((r) => r.status === 401 && r.apiKey === 'sbx_wrong_key_from_the_editor')).toBe(true);
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
	await dialog.getByText(/The Production Base URL must use https: http:\/\/billing\.example\.com is plain http on another machine/).first().waitFor();
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
	expect(pageErrors).toEqual([]);
});

test('the built description is the one the editor loaded', async () => {
	const types = await n8n.rest('GET', '/types/nodes.json');
	const served = types.body.find((t) => t.name.endsWith('.subscriptionBilling'));
	const built = builtNodeDescription();
	expect(served.properties.map((p) => p.name)).toEqual(expect.arrayContaining(built.properties.map((p) => p.name)));
	expect(expectedOperations(served)).toEqual(expectedOperations(built));
	expect(EXAMPLE_CREDENTIAL_ID).toBeTruthy();
});
