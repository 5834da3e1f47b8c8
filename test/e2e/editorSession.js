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
 * `workflows(sandbox)`: the workflows to import before n8n starts. The session's `sandbox`, `n8n`,
 * `page`, `ui` and `pageErrors` are there once beforeAll ran; afterAll keeps a screenshot of the
 * last state as `lastStateShot`.
 */
function useEditorSession({ name, workflows = () => [], lastStateShot }) {
	const session = { pageErrors: [] };
	beforeAll(async () => {
		session.env = await startEnvironment({ name });
		const { sandbox, n8n } = session.env;
		Object.assign(session, { sandbox, n8n });
		await n8n.importCredentials([credentialFor(sandbox)]);
		for (const workflow of workflows(sandbox)) await n8n.importWorkflow(workflow);
		await n8n.start();
		await n8n.setupOwner();
		const { browser, page } = await openBrowser();
		Object.assign(session, { browser, page, ui: editorUi(page) });
		page.setDefaultTimeout(PAGE_TIMEOUT);
		page.on('pageerror', (e) => isKnownN8nPageError(n8n.version, e) || session.pageErrors.push(e.message));
		page.on('dialog', (dialog) => dialog.accept().catch(() => {}));
		await signIn(page, n8n);
	});
	afterAll(async () => {
		if (session.page) await screenshot(session.page, lastStateShot, { docs: false }).catch(() => {});
		await session.browser?.close().catch(() => {});
		await session.env?.close();
	});
	return session;
}

module.exports = { useEditorSession };
