'use strict';
// The trigger in n8n's editor (Chromium): the example workflow's Invoice Paid trigger shows its
// notices (first activation, cost of All Customers), and Fetch Test Event shows the most recent
// paid invoice without changing what the trigger remembers. Screenshot: docs/images/trigger-panel.png
// with E2E_SCREENSHOTS=docs.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, OWNER, example, credentialFor, startEnvironment } = require('./helpers');

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SHOTS = path.join(ROOT, 'test-output', 'e2e');
const byTestId = (id) => `[data-test-id="${id}"]`;

let env;
let sandbox;
let n8n;
let browser;
let page;

async function screenshot(name) {
	fs.mkdirSync(SHOTS, { recursive: true });
	const file = path.join(SHOTS, `${name}.png`);
	await page.screenshot({ path: file });
	if (process.env.E2E_SCREENSHOTS === 'docs') fs.copyFileSync(file, path.join(ROOT, 'docs', 'images', `${name}.png`));
}

beforeAll(async () => {
	env = await startEnvironment({ name: 'e2e-trigger-editor' });
	({ sandbox, n8n } = env);
	await n8n.importCredentials([credentialFor(sandbox)]);
	await n8n.importWorkflow(example('invoice-paid-message.json'));
	await n8n.start();
	await n8n.setupOwner();
	const { chromium } = require('playwright-core');
	browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
	page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
	page.setDefaultTimeout(30000);
});

afterAll(async () => {
	if (page) await page.screenshot({ path: path.join(SHOTS, 'trigger-last-state.png') }).catch(() => {});
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

	await page.goto(`${n8n.baseUrl}/signin`);
	await page.fill(`${byTestId('emailOrLdapLoginId')} input`, OWNER.email);
	await page.fill(`${byTestId('password')} input`, OWNER.password);
	await page.click(byTestId('form-submit-button'));
	await page.waitForURL(/\/home\//);
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
	await screenshot('trigger-panel');
});
