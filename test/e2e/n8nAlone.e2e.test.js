'use strict';
// n8n's editor on its own, with no community package installed: signing in from the sign-in page
// raises exactly the script errors that the editor test tolerates for this release (none on 2.x).
// This proves those errors are n8n's own, and fails once a release stops raising them (then they
// come out of knownN8nPageErrors.js).
const fs = require('node:fs');
const path = require('node:path');
const { N8n, PACKAGE_NAME } = require('../../scripts/lib/n8n');
const { openBrowser, signIn } = require('./browser');
const { isKnownN8nPageError, knownN8nPageErrorsFor } = require('./knownN8nPageErrors');

let n8n;
let browser;
let page;
const pageErrors = [];

beforeAll(async () => {
	n8n = await N8n.create({ name: 'e2e-n8n-alone' });
	await n8n.start();
	await n8n.setupOwner();
	({ browser, page } = await openBrowser());
	page.on('pageerror', (e) => pageErrors.push(e));
});

afterAll(async () => {
	await browser?.close().catch(() => {});
	await n8n?.dispose();
});

test('no community package is installed or served', async () => {
	expect(
		fs.existsSync(path.join(n8n.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME)),
	).toBe(false);
	const types = await n8n.rest('GET', '/types/nodes.json');
	expect(types.status).toBe(200);
	expect(types.body.filter((t) => t.name.startsWith(`${PACKAGE_NAME}.`))).toEqual([]);
});

test('signing in from the sign-in page raises exactly the known script errors of this release', async () => {
	await signIn(page, n8n);
	// the signed-in features (where the error is raised) are set up before the home page renders
	await page.locator('main').first().waitFor();
	const expected = knownN8nPageErrorsFor(n8n.version).map((k) => k.message);
	expect(pageErrors.map((e) => e.message)).toEqual(expected);
	expect(pageErrors.every((e) => isKnownN8nPageError(n8n.version, e))).toBe(true);
});
