'use strict';
// What the browser tests do in n8n's editor, bound to one page: wait on conditions (never on the
// clock), close toasts, wait for the push connection and for animations, and pick options.
const { UI_TIMEOUT, byTestId } = require('./browser');

/** `text` as a regular expression that matches it literally (action names hold parentheses). */
const literally = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function editorUi(page) {
	/**
	 * Closes the toasts ("Node executed successfully" ...) so that they do not cover a screenshot. A
	 * toast can arrive while the others close (n8n 2.8 shows a failed run twice, in two toasts): each
	 * round closes the open ones (their close buttons clicked in the page, as a closing toast is
	 * still on screen but no longer takes a click), until none is on screen.
	 */
	async function closeToasts() {
		await waitUntil(
			() =>
				page.evaluate(() => {
					const open = [...document.querySelectorAll('.el-notification')].filter((toast) =>
						toast.checkVisibility({ visibilityProperty: true }),
					);
					for (const toast of open) toast.querySelector('.el-notification__closeBtn')?.click();
					return open.map(
						(toast) => toast.querySelector('.el-notification__title')?.innerText.trim() ?? '',
					);
				}),
			(open) => open.length === 0,
			{ what: 'the toasts to close' },
		);
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
		await page.evaluate(() =>
			Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => {}))),
		);
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
	 * Opens the select (n8n's el-select) inside `select` and returns its list: the one its combobox
	 * controls (aria-controls), not another dropdown still fading out (which also shows its options).
	 */
	async function openSelect(select, what) {
		const combobox = select.locator('[role="combobox"]').first();
		await combobox.click();
		await waitUntil(
			() => combobox.getAttribute('aria-expanded'),
			(expanded) => expanded === 'true',
			{ what: `the ${what} dropdown to open` },
		);
		const list = page.locator(`[id="${await combobox.getAttribute('aria-controls')}"]`);
		await list.locator('.el-select-dropdown__item').first().waitFor();
		return { combobox, list };
	}

	/** Opens the dropdown of the options parameter `parameterName` and returns its list. */
	async function openDropdown(parameterName) {
		return await openSelect(
			page.locator(byTestId(`parameter-input-${parameterName}`)),
			parameterName,
		);
	}

	/** Waits until the dropdown is closed and its list hidden. */
	async function dropdownClosed({ combobox, list }, parameterName) {
		await waitUntil(
			() => combobox.getAttribute('aria-expanded'),
			(expanded) => expanded !== 'true',
			{ what: `the ${parameterName} dropdown to close` },
		);
		await list.waitFor({ state: 'hidden' });
	}

	/** Picks `optionName` in the options parameter `parameterName` of the open node panel. */
	async function choose(parameterName, optionName) {
		const dropdown = await openDropdown(parameterName);
		await dropdown.list
			.locator('.el-select-dropdown__item .option-headline')
			.filter({ hasText: new RegExp(`^${literally(optionName)}$`) })
			.first()
			.click();
		await dropdownClosed(dropdown, parameterName);
		const input = page.locator(`${byTestId(`parameter-input-${parameterName}`)} input`).first();
		await waitUntil(
			() => input.inputValue(),
			(value) => value === optionName,
			{ what: `${parameterName} to show ${optionName}` },
		);
	}

	/**
	 * Switches the resource locator `parameterName` to By ID and types `value`. Its mode dropdown is
	 * found through its own combobox and waited closed, as a dropdown fading out after the previous
	 * field still shows a "By ID" to click.
	 */
	async function fillById(parameterName, value) {
		const locator = page.locator(byTestId(`resource-locator-${parameterName}`));
		const what = `${parameterName} mode`;
		const dropdown = await openSelect(locator.locator(byTestId('rlc-mode-selector')), what);
		await dropdown.list
			.locator('.el-select-dropdown__item')
			.filter({ hasText: /^\s*By ID\s*$/ })
			.first()
			.click();
		await dropdownClosed(dropdown, what);
		const id = locator
			.locator(
				`input${byTestId('rlc-input')}, ${byTestId('rlc-input')} input, ${byTestId('rlc-input')} textarea`,
			)
			.first();
		await id.click();
		await id.fill(value);
		await page.locator(byTestId('node-parameters')).click({ position: { x: 5, y: 5 } }); // blur
		await waitUntil(
			() => id.inputValue(),
			(shown) => shown === value,
			{ what: `${parameterName} to show ${value}` },
		);
	}

	/** The names (headlines, not descriptions) of the options the dropdown of `parameterName` lists. */
	async function optionNames(parameterName) {
		const dropdown = await openDropdown(parameterName);
		const names = (
			await dropdown.list.locator('.el-select-dropdown__item .option-headline').allTextContents()
		).map((t) => t.trim());
		await page.keyboard.press('Escape'); // closes the dropdown, not the node panel
		await dropdownClosed(dropdown, parameterName);
		return names;
	}

	/**
	 * Waits for the toast with which n8n refuses to run a workflow because the node `nodeName` has
	 * `issues` (n8n's own words, e.g. 'Parameter "Name" is required.'): a toast with one of the titles
	 * of ISSUES_REFUSALS. Returns it, `shown` ({ title, message }), and `expected`: what the refusal
	 * with that title says for those issues; the caller compares the two. The server answers the run,
	 * which a busy machine can make slow: `timeout`.
	 */
	async function issuesRefusal(nodeName, issues, { timeout = UI_TIMEOUT } = {}) {
		const shown = await waitUntil(
			() =>
				page.evaluate(() =>
					[...document.querySelectorAll('.el-notification')]
						.filter((toast) => toast.checkVisibility({ visibilityProperty: true }))
						.map((toast) => ({
							title: toast.querySelector('.el-notification__title')?.innerText.trim(),
							message: toast.querySelector('.el-notification__content')?.innerText.trim(),
						})),
				),
			(toasts) => toasts.some(isIssuesRefusal),
			{
				timeout,
				what: `a toast titled ${Object.keys(ISSUES_REFUSALS)
					.map((t) => `"${t}"`)
					.join(' or ')}`,
			},
		);
		const refusal = shown.find(isIssuesRefusal);
		return {
			shown: refusal,
			expected: { title: refusal.title, message: ISSUES_REFUSALS[refusal.title](nodeName, issues) },
		};
	}

	/** The name, parameters and parameter issues the editor holds for the node of type `type` (Pinia's stores). */
	function nodeOfType(type) {
		return page.evaluate((nodeType) => {
			const pinia = document.querySelector('#app').__vue_app__.config.globalProperties.$pinia;
			// the store that holds the open workflow's nodes: 'workflows' in n8n 2.8, another in later releases
			for (const store of pinia._s.values()) {
				for (const nodes of [store.workflow?.nodes, store.allNodes, store.nodes]) {
					const node = Array.isArray(nodes) ? nodes.find((n) => n?.type === nodeType) : undefined;
					if (node)
						return JSON.parse(
							JSON.stringify({
								name: node.name,
								parameters: node.parameters,
								issues: node.issues?.parameters ?? {},
							}),
						);
				}
			}
			return undefined;
		}, type);
	}

	/**
	 * Opens the panel of the canvas node `node` by double-clicking it, as a user does, once the canvas
	 * stopped moving (a cold editor fits the view after the nodes appear, and a double-click on a node
	 * still moving lands beside it). A double-click the editor took before it was ready is made again.
	 */
	async function openNode(node) {
		await node.waitFor();
		await stable(() => node.boundingBox(), 'the canvas to stop moving');
		const ndv = page.locator(byTestId('ndv'));
		await waitUntil(
			async () => {
				if (await ndv.isVisible()) return true;
				await node.dblclick();
				return await ndv.waitFor({ timeout: UI_TIMEOUT / 6 }).then(
					() => true,
					() => false,
				);
			},
			(open) => open,
			{ timeout: 2 * UI_TIMEOUT, what: "the node's panel to open" },
		);
		return ndv;
	}

	/** Adds the action `action` of the Subscription Billing node after the canvas node `after`, from the nodes panel, and waits for its panel. */
	async function addActionAfter(after, action) {
		await after.click();
		await page.click(byTestId('node-creator-plus-button'));
		await page.fill(byTestId('node-creator-search-bar'), 'Subscription Billing');
		await page
			.locator(byTestId('item-iterator-item'), { hasText: 'Subscription Billing' })
			.first()
			.click();
		await page
			.locator(byTestId('node-creator-item-name'), {
				hasText: new RegExp(`^\\s*${literally(action)}\\s*$`),
			})
			.first()
			.click();
		await page.locator(byTestId('ndv')).waitFor();
	}

	/** Switches the parameter `field` (a `.parameter-item` locator) to an expression and types `expression` into it, as a user does. */
	async function typeExpression(field, expression) {
		await field.hover();
		await field.locator(byTestId('radio-button-expression')).click();
		const editor = field
			.locator(`${byTestId('inline-expression-editor-input')} .cm-content`)
			.first();
		await editor.click();
		// keys typed before the editor has the focus go elsewhere
		await field.locator('.cm-focused').first().waitFor();
		// the editor may still be filling in the field's former value (`{{ 0 }}`) when the keys
		// arrive: type until a later look finds the expression alone
		await waitUntil(
			async () => {
				const text = await editor.textContent();
				if (text === expression) return text;
				await page.keyboard.press('ControlOrMeta+a');
				await page.keyboard.insertText(expression);
				return undefined;
			},
			(text) => text === expression,
			{ what: `the expression editor to hold ${expression}` },
		);
		await page.locator(byTestId('node-parameters')).click({ position: { x: 5, y: 5 } }); // blur
	}

	/** The open node panel's field holding `inner` (a test ID inside it). */
	const fieldWith = (inner) =>
		page
			.locator(`${byTestId('node-parameters')} .parameter-item`)
			.filter({ has: page.locator(byTestId(inner)) })
			.first();

	return {
		closeToasts,
		pushConnected,
		settled,
		stable,
		openNode,
		waitUntil,
		openDropdown,
		dropdownClosed,
		choose,
		fillById,
		optionNames,
		issuesRefusal,
		nodeOfType,
		addActionAfter,
		typeExpression,
		fieldWith,
	};
}

/**
 * How n8n's editor refuses to run a workflow whose node has issues (a required field left empty):
 * the server refuses (n8n-core's WorkflowHasIssuesError) and the editor shows its message in a toast.
 * By the toast's title, its message for the node `nodeName` with `issues`:
 * - n8n 2.8: "Problem running workflow", a message that names neither the node nor the
 *   field (a second toast, "Problem executing workflow", says it again);
 * - n8n 2.41: "Workflow execution cannot start", naming the node and each of its issues on a line
 *   of its own (n8n pull request #30944, "Include node and field details in WorkflowHasIssuesError").
 */
const ISSUES_REFUSALS = {
	'Problem running workflow': () =>
		'The workflow has issues and cannot be executed for that reason. Please fix them first.',
	'Workflow execution cannot start': (nodeName, issues) =>
		[`The '${nodeName}' node has issues:`, ...issues.map((issue) => `- ${issue}`)].join('\n'),
};
const isIssuesRefusal = (toast) => Object.hasOwn(ISSUES_REFUSALS, toast.title ?? '');

module.exports = { literally, editorUi };
