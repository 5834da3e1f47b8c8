'use strict';
// Every write operation added fresh from the nodes panel, the way a user adds it, then run with its
// required fields untouched: what the editor stored must never be sent as if the user had given it.
// - Untouched: n8n refuses to run (its toast as the release words it: n8n 2.41 names the node and
//   each missing field, 2.8 neither) and marks each field it knows is missing; the sandbox receives nothing.
// - With those marked fields filled in (what a user must do before n8n runs it at all), a required
//   field n8n does not mark (a number box left empty, bricks with no row, an update with no field)
//   is refused by the node: the output panel names the field and the item, the sandbox receives nothing.
// Screenshots: test-output/e2e/fresh-write-<resource>-<operation>[-marked].png.
const { requestsOf, builtNodeDescription, actionOf, NODE_TYPE } = require('./helpers');
const { byTestId, openNodeActions, screenshot } = require('./browser');
const { literally } = require('./editorUi');
const { addDays } = require('../sandbox/dates');
const { PAGE_TIMEOUT, useEditorSession } = require('./editorSession');

/**
 * The write operations; `marked`: the fields n8n marks as missing on a fresh node (parameter name →
 * label); `unmarked`: the required field n8n lets through untouched, which the node must refuse.
 */
const FRESH_WRITES = [
	{ resource: 'customer', operation: 'create', marked: { name: 'Name' } },
	{
		resource: 'customer',
		operation: 'upsert',
		marked: { name: 'Name', externalId: 'External ID' },
	},
	{
		resource: 'customer',
		operation: 'update',
		marked: { customerId: 'Customer' },
		unmarked: 'Update Fields',
	},
	{
		resource: 'paymentMethod',
		operation: 'setDefault',
		marked: { subscriptionId: 'Subscription', paymentMethodId: 'Payment Method ID' },
	},
	{ resource: 'paymentMethod', operation: 'setUp', marked: { subscriptionId: 'Subscription' } },
	{
		resource: 'subscriptionMilestone',
		operation: 'complete',
		marked: { subscriptionId: 'Subscription', milestoneId: 'Milestone ID', billOn: 'Bill On' },
		unmarked: 'Quantity',
	},
	{
		resource: 'subscriptionRecast',
		operation: 'create',
		marked: {
			subscriptionId: 'Subscription',
			startsAt: 'Starts At',
			billingFrequency: 'Billing Frequency',
		},
		unmarked: 'Bricks',
	},
	{
		resource: 'subscriptionRecast',
		operation: 'delete',
		marked: { subscriptionId: 'Subscription', orderId: 'Order ID' },
	},
	{
		resource: 'subscriptionRecast',
		operation: 'start',
		marked: { subscriptionId: 'Subscription', orderId: 'Order ID' },
	},
	{
		resource: 'subscriptionUpgrade',
		operation: 'create',
		marked: { subscriptionId: 'Subscription', startsAt: 'Starts At' },
		unmarked: 'Bricks',
	},
	{
		resource: 'subscriptionUpgrade',
		operation: 'start',
		marked: { subscriptionId: 'Subscription', orderId: 'Order ID' },
	},
	{
		resource: 'usage',
		operation: 'create',
		marked: { transactionId: 'Transaction ID', subscriptionId: 'Subscription', brickId: 'Brick' },
		unmarked: 'Value',
	},
	{ resource: 'usage', operation: 'delete', marked: { transactionId: 'Transaction ID' } },
	{
		resource: 'usage',
		operation: 'update',
		marked: { transactionId: 'Transaction ID' },
		unmarked: 'Value',
	},
];

// leaving an unsaved workflow: the browser's "leave this page?" is answered yes
const session = useEditorSession({
	name: 'e2e-fresh-writes',
	lastStateShot: 'fresh-writes-last-state',
	acceptDialogs: true,
});
let sandbox, n8n, page;
// the editor's helpers (test/e2e/editorUi.js), bound to this file's page
let closeToasts, issuesRefusal, fillById, choose, nodeOfType;
beforeAll(() => {
	({ sandbox, n8n, page } = session);
	({ closeToasts, issuesRefusal, fillById, choose, nodeOfType } = session.ui);
});

const description = builtNodeDescription();

const editorNode = () => nodeOfType(NODE_TYPE);

/** A new workflow with a Manual Trigger, then the action added from the nodes panel; its panel opens. */
async function addFresh(action) {
	await openNodeActions(page, n8n);
	await page
		.locator(byTestId('node-creator-item-name'), {
			hasText: new RegExp(`^\\s*${literally(action)}\\s*$`),
		})
		.first()
		.click();
	await page.locator(byTestId('ndv')).waitFor();
	await page.locator(byTestId('parameter-input-operation')).waitFor();
}

/** Types `value` into the text field `name`. */
async function fillText(name, value) {
	const input = page.locator(`${byTestId(`parameter-input-${name}`)} input`).first();
	await input.click();
	await input.fill(value);
	await page.locator(byTestId('node-parameters')).click({ position: { x: 5, y: 5 } }); // blur
}

/** Fills the marked field `name` of `resource` as a user would. */
async function fillMarked(resource, name) {
	const f = sandbox.fixtures;
	const fill = {
		customerId: () => fillById('customerId', f.customerId),
		subscriptionId: () => fillById('subscriptionId', f.subscriptionId),
		brickId: () => fillById('brickId', f.usageBrickId),
		milestoneId: () => fillById('milestoneId', f.milestoneId),
		transactionId: () =>
			fillText('transactionId', resource === 'usage' ? f.usageTransactionId : 'txn-e2e'),
		// within the subscription's term on any day: the sandbox's world moves with the clock
		startsAt: () => fillText('startsAt', addDays(f.today, 16)),
		billOn: () => choose('billOn', 'Next Invoice'),
		billingFrequency: () => choose('billingFrequency', 'Monthly'),
	}[name];
	if (!fill) throw new Error(`no way to fill ${name}`);
	await fill();
}

/** Runs the node from its panel. */
async function executeStep() {
	sandbox.clearRequests();
	await page.click(byTestId('node-execute-button'));
}

test('every write operation of the built description is here', () => {
	const writes = FRESH_WRITES.map((w) => `${w.resource}.${w.operation}`);
	expect(new Set(writes).size).toBe(writes.length);
	expect(writes.length).toBe(14);
});

describe.each(FRESH_WRITES)(
	'$resource → $operation added fresh from the nodes panel',
	({ resource, operation, marked, unmarked }) => {
		test('run untouched: n8n refuses, the panel marks each missing field, the sandbox receives nothing', async () => {
			await addFresh(actionOf(resource, operation, description));
			const fresh = await editorNode();
			expect(fresh.parameters).toMatchObject({ resource, operation });
			expect(
				Object.fromEntries(
					Object.entries(fresh.issues).map(([name, issues]) => [name, issues.join(' ')]),
				),
			).toEqual(
				Object.fromEntries(
					Object.entries(marked).map(([name, label]) => [
						name,
						`Parameter "${label}" is required.`,
					]),
				),
			);
			// a number box of a fresh node holds nothing (not n8n's 0)
			for (const p of description.properties.filter(
				(p) => p.type === 'number' && p.required && p.name in fresh.parameters,
			)) {
				expect([p.name, fresh.parameters[p.name]]).toEqual([p.name, null]);
			}

			await executeStep();
			const issues = Object.values(marked).map((label) => `Parameter "${label}" is required.`);
			const refusal = await issuesRefusal(fresh.name, issues, { timeout: PAGE_TIMEOUT });
			expect(refusal.shown).toEqual(refusal.expected);
			// after the attempt, each marked field shows n8n's warning sign beside it
			const signs = page.locator(`${byTestId('ndv')} ${byTestId('parameter-issues')}`);
			await signs.nth(Object.keys(marked).length - 1).waitFor();
			expect(await signs.count()).toBe(Object.keys(marked).length);
			await screenshot(page, `fresh-write-${resource}-${operation}`, { docs: false });
			expect(requestsOf(sandbox)).toEqual([]);
			await closeToasts();
		});

		if (!unmarked) return;

		test(`with the marked fields filled in, the untouched ${unmarked} is refused by the node, naming it and the item; nothing is sent`, async () => {
			for (const name of Object.keys(marked)) await fillMarked(resource, name);
			const filled = await editorNode();
			expect(filled.issues).toEqual({});

			await executeStep();
			const output = page.locator(byTestId('output-panel'));
			const message = output.getByText(new RegExp(`^${unmarked} in item 0: `)).first();
			await message.waitFor();
			await output.getByText('Nothing was sent to the API for this item').first().waitFor();
			await closeToasts();
			await screenshot(page, `fresh-write-${resource}-${operation}-marked`, { docs: false });
			expect(requestsOf(sandbox)).toEqual([]);
		});
	},
);

test('the page raised no script errors', () => {
	expect(session.pageErrors).toEqual([]);
});
