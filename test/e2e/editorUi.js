'use strict';
// What the browser tests do in n8n's editor, bound to one page: wait on conditions (never on the
// clock), close toasts, wait for the push connection and for animations, and pick options.
const { UI_TIMEOUT, byTestId } = require('./browser');

function editorUi(page) {
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

	return { closeToasts, pushConnected, settled, stable, waitUntil, openDropdown, dropdownClosed, choose, optionNames };
}

module.exports = { editorUi };
