'use strict';
// What the browser tests share: Debian's Chromium driven by playwright-core, signing in to n8n's
// editor as the owner, and screenshots (test-output/e2e/; with E2E_SCREENSHOTS=docs also docs/images/).
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, OWNER } = require('./helpers');

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
const SHOTS = path.join(ROOT, 'test-output', 'e2e');
const DOC_IMAGES = path.join(ROOT, 'docs', 'images');
const UI_TIMEOUT = 30000;

const byTestId = (id) => `[data-test-id="${id}"]`;

/** Chromium with one page at the editor's size, waiting up to UI_TIMEOUT for what it looks for. */
async function openBrowser() {
	if (!fs.existsSync(CHROMIUM)) {
		throw new Error(
			`${CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium (scripts/ci-e2e.sh does it)`,
		);
	}
	const { chromium } = require('playwright-core');
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_FLAGS,
	});
	const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
	page.setDefaultTimeout(UI_TIMEOUT);
	return { browser, page };
}

/** Signs in as the owner from the sign-in page and waits for the home page. */
async function signIn(page, n8n) {
	await page.goto(`${n8n.baseUrl}/signin`);
	await page.fill(`${byTestId('emailOrLdapLoginId')} input`, OWNER.email);
	await page.fill(`${byTestId('password')} input`, OWNER.password);
	await page.click(byTestId('form-submit-button'));
	await page.waitForURL(/\/home\//);
}

/**
 * A new workflow with a Manual Trigger, then the nodes panel opened on the Subscription Billing
 * node, listing its actions: the way a user adds the node.
 */
async function openNodeActions(page, n8n) {
	await page.goto(`${n8n.baseUrl}/workflow/new`);
	await page.click(byTestId('canvas-add-button'));
	await page.fill(byTestId('node-creator-search-bar'), 'Manual Trigger');
	await page.locator(byTestId('item-iterator-item'), { hasText: 'Manual Trigger' }).first().click();
	await page.locator(byTestId('canvas-node')).first().waitFor();
	await page.keyboard.press('Escape');
	await page.click(byTestId('node-creator-plus-button'));
	await page.fill(byTestId('node-creator-search-bar'), 'Subscription Billing');
	await page
		.locator(byTestId('item-iterator-item'), { hasText: 'Subscription Billing' })
		.first()
		.click();
	await page.locator(byTestId('node-creator-category-item')).first().waitFor();
}

/** Saves the page as test-output/e2e/<name>.png; with E2E_SCREENSHOTS=docs (and `docs`) also in docs/images/. */
async function screenshot(page, name, { docs = true } = {}) {
	fs.mkdirSync(SHOTS, { recursive: true });
	const file = path.join(SHOTS, `${name}.png`);
	await page.screenshot({ path: file });
	if (docs && process.env.E2E_SCREENSHOTS === 'docs') {
		fs.mkdirSync(DOC_IMAGES, { recursive: true });
		fs.copyFileSync(file, path.join(DOC_IMAGES, `${name}.png`));
	}
	return file;
}

module.exports = { UI_TIMEOUT, byTestId, openBrowser, signIn, openNodeActions, screenshot };
