'use strict';
// The dunning example (examples/invoice-payment-failed-dunning.json) in a running n8n: published,
// polling the sandbox every 2 seconds; a failed payment on a subscription's invoice arrives once and
// becomes a message to the subscription's accounts payable contacts (read with Subscription Get).
// Needs the invoice family's Invoice Payment Failed and the sandbox's failed payments
// (world/invoiceTimeline.js); until both are in the build, the suite says so and does not run.
const path = require('node:path');
const { World } = require('../sandbox/world');
const {
	PACKAGE_NAME,
	credentialFor,
	example,
	pollEverySeconds,
	startEnvironment,
} = require('./helpers');

const FILE = 'invoice-payment-failed-dunning.json';
const TRIGGER_TYPE = `${PACKAGE_NAME}.subscriptionBillingTrigger`;
const HAS_FAILED_PAYMENTS = typeof World.prototype.failPayment === 'function';

let env;
let sandbox;
let n8n;
let flatted;

async function waitFor(what, check, timeoutMs = 90_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined && value !== false) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** The output items of `node` in every finished execution of the workflow. */
async function outputsOf(workflowId, node) {
	const list = await n8n.rest(
		'GET',
		`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`,
	);
	const items = [];
	for (const summary of list.body.data.results) {
		if (summary.status === 'error') throw new Error(`execution ${summary.id} failed`);
		if (summary.status !== 'success') continue;
		const one = await n8n.rest('GET', `/rest/executions/${summary.id}`);
		const data =
			typeof one.body.data.data === 'string'
				? flatted.parse(one.body.data.data)
				: one.body.data.data;
		for (const run of data.resultData.runData[node] ?? [])
			items.push(...run.data.main[0].map((item) => item.json));
	}
	return items;
}

(HAS_FAILED_PAYMENTS ? describe : describe.skip)(
	'dunning example (needs Invoice Payment Failed)',
	() => {
		beforeAll(async () => {
			env = await startEnvironment({ name: 'e2e-dunning' });
			({ sandbox, n8n } = env);
			flatted = require(path.join(n8n.install.dir, 'node_modules', 'flatted'));
			await n8n.importCredentials([credentialFor(sandbox)]);
			const workflow = example(FILE);
			workflow.nodes.find((node) => node.type === TRIGGER_TYPE).parameters.pollTimes =
				pollEverySeconds(2);
			await n8n.importWorkflow(workflow);
			await n8n.activateWorkflow(workflow.id);
			await n8n.start();
			await n8n.setupOwner();
		});

		afterAll(async () => {
			await env?.close();
		});

		test('a failed payment becomes one dunning message to the accounts payable contacts', async () => {
			const { id } = example(FILE);
			await waitFor(
				'the first polls',
				() =>
					sandbox.requests.filter((r) => r.path === '/api/v2/customers' && r.status === 200)
						.length >= 2,
			);
			const subscription = sandbox.state.subscriptions.get(sandbox.fixtures.subscriptionId);
			expect(subscription.accounts_payable_emails.length).toBeGreaterThan(0);
			const invoice = sandbox.world.issueInvoice({
				customer_id: sandbox.fixtures.customerId,
				amount: 250,
			});
			expect(sandbox.state.invoicesById.get(invoice.invoice_id).subscription_id).toBe(
				subscription.subscription_id,
			);
			sandbox.world.failPayment({ invoice_id: invoice.invoice_id, error: 'card_declined' });
			const messages = await waitFor('the dunning message', async () => {
				const found = await outputsOf(id, 'Dunning Message');
				return found.length > 0 ? found : undefined;
			});
			await waitFor(
				'two more polls',
				() =>
					sandbox.requests.filter((r) => r.path === '/api/v2/customers' && r.status === 200)
						.length >= 4,
			);
			expect(await outputsOf(id, 'Dunning Message')).toHaveLength(1);
			const number = sandbox.state.invoicesById.get(invoice.invoice_id).invoice_number;
			expect(messages[0]).toEqual({
				to: subscription.accounts_payable_emails.join(', '),
				recipients: 'accounts payable contacts',
				subject: `Payment failed for invoice ${number}`,
				text: expect.stringMatching(
					new RegExp(`collect 250 USD for invoice ${number} failed \\(card_declined, attempt 1\\)`),
				),
				invoice_id: invoice.invoice_id,
			});
		});

		test('an invoice whose subscription has no accounts payable emails: the point of contact, or an item that says there is nobody to write to', async () => {
			const { id } = example(FILE);
			const bare = [...sandbox.state.invoicesById.values()].find((invoice) => {
				const subscription = sandbox.state.subscriptions.get(invoice.subscription_id);
				return (
					invoice.paidMs === null &&
					invoice.remaining > 0 &&
					subscription &&
					subscription.accounts_payable_emails.length === 0
				);
			});
			const subscription = sandbox.state.subscriptions.get(bare.subscription_id);
			const before = (await outputsOf(id, 'Dunning Message')).length;
			sandbox.world.failPayment({ invoice_id: bare.invoice_id, error: 'expired_card' });
			const messages = await waitFor('the second dunning message', async () => {
				const found = await outputsOf(id, 'Dunning Message');
				return found.length > before ? found : undefined;
			});
			const message = messages.find((entry) => entry.invoice_id === bare.invoice_id);
			const contact = subscription.point_of_contact?.email;
			expect(message).toMatchObject(
				contact
					? {
							to: contact,
							recipients: 'point of contact: the subscription has no accounts payable emails',
						}
					: {
							to: '',
							recipients: expect.stringMatching(
								/^none: the subscription has no accounts payable emails and no point of contact/,
							),
						},
			);
		});
	},
);
