'use strict';
// One n8n with this package, the sandbox, the credential and the given workflows, and a Chromium
// page signed in to its editor: the browser tests of one file share them (jest's beforeAll and
// afterAll). The page's script errors are collected; n8n's own known ones are left out.
const { beforeAll, afterAll } = require('@jest/globals');
const { credentialFor, startEnvironment } = require('./helpers');
const { UI_TIMEOUT, openBrowser, signIn, screenshot } = require('./browser');
const { isKnownN8nPageError } = require('./knownN8nPageErrors');
const { editorUi } = require('./editorUi');

/** A machine shared with other work can take longer than usual to load the editor and to answer a run. */
const PAGE_TIMEOUT = UI_TIMEOUT * 4;

/**
 * `workflows(sandbox, n8n)`: the workflows to import before n8n starts. The session's `sandbox`,
 * `n8n`, `browser`, `page`, `ui` and `pageErrors` are there once beforeAll ran, the page signed in
 * unless `signedIn` is false (a test signs in). `newTab()` replaces the page (and `ui`) by a fresh
 * tab of the same signed-in session and returns the session. With `acceptDialogs`, the browser's
 * questions ("leave this page?" on leaving an unsaved workflow) are answered yes; otherwise
 * Playwright dismisses them (on n8n 2.41.1 accepting them lost the AI Agent's tools list in the
 * nodes panel). afterAll keeps a screenshot of the last state as `lastStateShot`.
 */
function useEditorSession({
	name,
	workflows = () => [],
	lastStateShot,
	signedIn = true,
	acceptDialogs = false,
}) {
	const session = { pageErrors: [] };
	const usePage = (page) => {
		Object.assign(session, { page, ui: editorUi(page) });
		page.setDefaultTimeout(PAGE_TIMEOUT);
		page.on(
			'pageerror',
			(e) => isKnownN8nPageError(session.n8n.version, e) || session.pageErrors.push(e.message),
		);
		if (acceptDialogs) page.on('dialog', (dialog) => dialog.accept().catch(() => {}));
	};
	session.newTab = async () => {
		const storageState = await session.page.context().storageState();
		const viewport = session.page.viewportSize();
		await session.page.close();
		usePage(await (await session.browser.newContext({ storageState, viewport })).newPage());
		return session;
	};
	beforeAll(async () => {
		session.env = await startEnvironment({ name });
		const { sandbox, n8n } = session.env;
		Object.assign(session, { sandbox, n8n });
		await n8n.importCredentials([credentialFor(sandbox)]);
		for (const workflow of workflows(sandbox, n8n)) await n8n.importWorkflow(workflow);
		await n8n.start();
		await n8n.setupOwner();
		const { browser, page } = await openBrowser();
		session.browser = browser;
		usePage(page);
		if (signedIn) await signIn(page, n8n);
	});
	afterAll(async () => {
		if (session.page)
			await screenshot(session.page, lastStateShot, { docs: false }).catch(() => {});
		await session.browser?.close().catch(() => {});
		await session.env?.close();
	});
	return session;
}

module.exports = { PAGE_TIMEOUT, useEditorSession };
