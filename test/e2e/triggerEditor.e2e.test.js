'use strict';
// The trigger in n8n's editor (Chromium): the example workflow's Invoice Paid trigger shows its
// notices (first activation, cost of All Customers), and Fetch Test Event shows the most recent
// paid invoice without changing what the trigger remembers. Screenshot: docs/images/trigger-panel.png
// with E2E_SCREENSHOTS=docs.
const { example, credentialFor, startEnvironment } = require('./helpers');
const { byTestId, openBrowser, signIn, screenshot } = require('./browser');

let env;
let sandbox;
let n8n;
let browser;
let page;

beforeAll(async () => {
	env = await startEnvironment({ name: 'e2e-trigger-editor' });
	({ sandbox, n8n } = env);
	await n8n.importCredentials([credentialFor(sandbox)]);
	await n8n.importWorkflow(example('invoice-paid-message.json'));
	await n8n.start();
	await n8n.setupOwner();
	({ browser, page } = await openBrowser());
});

afterAll(async () => {
	if (page) await screenshot(page, 'trigger-last-state', { docs: false }).catch(() => {});
	await browser?.close().catch(() => {});
	await env?.close();
});

test('the trigger panel explains first activation and cost; Fetch Test Event shows the most recent paid invoice', async () => {
	const wf = example('invoice-paid-message.json');
	// All Customers: the test event is the most recent match of the customer listed last that has one
	const lastCustomer = [...sandbox.state.customers.keys()].at(-1);
	const newest = sandbox.world.issueInvoice({ customer_id: lastCustomer, amount: 77 });
	sandbox.world.payInvoice({ invoice_id: newest.invoice_id });
	const number = sandbox.state.invoicesById.get(newest.invoice_id).invoice_number;

	await signIn(page, n8n);
	await page.goto(`${n8n.baseUrl}/workflow/${wf.id}`);
	const node = page.locator(byTestId('canvas-node'), { hasText: 'Invoice Paid' }).first();
	await node.waitFor();
	const box = await node.boundingBox();
	await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { clickCount: 2 });
	const ndv = page.locator(byTestId('ndv'));
	await ndv.waitFor();
	await ndv.getByText('emits nothing from the past').first().waitFor();
	await ndv.getByText('one request per customer').first().waitFor();

	sandbox.clearRequests();
	await ndv.getByRole('button', { name: /Fetch Test Event/i }).first().click();
	const output = page.locator(byTestId('output-panel'));
	await output.getByText('1 item').first().waitFor();
	await output.getByText('JSON', { exact: true }).first().click();
	await output.getByText(number).first().waitFor();
	await page.mouse.move(5, 790);
	for (const close of await page.locator('.el-notification__closeBtn:visible').all()) await close.click().catch(() => {});
	expect(sandbox.requests.filter((r) => r.path.startsWith('/api/v2/')).every((r) => r.method === 'GET' && r.status === 200)).toBe(true);
	await page.waitForTimeout(500);
	await screenshot(page, 'trigger-panel');
});
