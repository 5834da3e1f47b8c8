'use strict';
// The trigger's catch-up (issue 55) in a running n8n: Invoice Changes From → A Date and Time, the
// workflow published through n8n's REST API as the editor's Publish button does, polling the
// sandbox every 2 seconds. Records dated before and after the chosen moment at the customers the
// first sweep visits first and last: each change after it arrives once, in executions of the
// published workflow, nothing from before; a change made after the catch-up arrives once, and n8n
// stopped and started again repeats nothing. The dunning example set to catch up from the same
// moment writes one dunning message for this week's failed payment on a subscription's invoice.
const {
	PACKAGE_NAME,
	credentialFor,
	DURABLE_CURSORS,
	example,
	pollEverySeconds,
	readExecutions,
	startEnvironment,
	waitFor,
} = require('./helpers');

const TRIGGER_TYPE = `${PACKAGE_NAME}.subscriptionBillingTrigger`;
const WORKFLOW_ID = 'sbTriggerCatchUp1';
const DUNNING_FILE = 'invoice-payment-failed-dunning.json';
const DAY = 86_400_000;
const EVENTS = ['newInvoice', 'invoicePaymentFailed', 'invoicePaid', 'invoiceOverdue'];

let env;
let sandbox;
let n8n;
/** The moment both workflows catch up from (ISO, with its offset), and what each owes. */
let moment;
const owed = [];
let dunningFailure;

const ago = (ms) => new Date(Date.now() - ms).toISOString();

function workflow(credential) {
	return {
		id: WORKFLOW_ID,
		name: 'Catch up from a chosen moment',
		active: false,
		settings: { executionOrder: 'v1' },
		connections: {},
		nodes: [
			{
				id: '7d0c1f4e-0000-4000-8000-000000000055',
				name: 'Since Monday',
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: pollEverySeconds(2),
					events: EVENTS,
					scope: 'all',
					requestsPerPoll: 10,
					invoicesFrom: 'date',
					invoicesFromDate: moment,
				},
				credentials: { subscriptionBillingApi: { id: credential.id, name: credential.name } },
			},
		],
	};
}

/** At `customer_id`: one change of each event before the moment and one after; records what is owed. */
function datedChanges(customer_id) {
	const issue = (daysAgo, due_in_days = 30) =>
		sandbox.world.issueInvoice({
			customer_id,
			amount: 10,
			issued_at: ago(daysAgo * DAY),
			due_in_days,
		}).invoice_id;
	const before = { paid: issue(5), failed: issue(5) };
	sandbox.world.payInvoice({ invoice_id: before.paid, paid_at: ago(3 * DAY) });
	sandbox.world.failPayment({ invoice_id: before.failed, paid_at: ago(3 * DAY) });
	issue(40);
	issue(3);
	const after = { paid: issue(5), failed: issue(5), due: issue(32), issued: issue(1) };
	sandbox.world.payInvoice({ invoice_id: after.paid, paid_at: ago(DAY) });
	sandbox.world.failPayment({ invoice_id: after.failed, paid_at: ago(2 * DAY) });
	owed.push(
		`invoicePaid ${after.paid}`,
		`invoicePaymentFailed ${after.failed}`,
		`invoiceOverdue ${after.due}`,
		`newInvoice ${after.issued}`,
	);
}

/** Publishes the workflow as the editor's Publish button does; resolves with n8n's verdict ('published', as 2.41.1's publication service says it) once it has one. */
async function publish(workflowId) {
	const { body } = await n8n.rest('GET', `/rest/workflows/${workflowId}`);
	const answer = await n8n.rest('POST', `/rest/workflows/${workflowId}/activate`, {
		versionId: body.data.versionId,
	});
	expect(answer.status).toBe(200);
	const status = await n8n.rest('GET', `/rest/workflows/${workflowId}/publication-status`);
	// Without the publication service (2.8.4) the workflow is active once its activation returned.
	if (status.status === 404)
		return await waitFor('the workflow to be active', async () => {
			const { body: now } = await n8n.rest('GET', `/rest/workflows/${workflowId}`);
			return now?.data?.activeVersionId ? 'published' : undefined;
		});
	return await waitFor('the publication to settle', async () => {
		const now = await n8n.rest('GET', `/rest/workflows/${workflowId}/publication-status`);
		const settled = now.body?.data?.status;
		return settled && settled !== 'in_progress' && settled !== 'pending' ? settled : undefined;
	});
}

/** Every item the workflow's trigger emitted so far, as `event invoice-id`. */
async function reported() {
	const executions = await waitFor('the executions as n8n serves them', () =>
		readExecutions(n8n, WORKFLOW_ID),
	);
	expect(new Set(executions.map((e) => e.mode))).toEqual(
		new Set(executions.length > 0 ? ['trigger'] : []),
	);
	return executions
		.filter((e) => e.node === 'Since Monday')
		.flatMap((e) => e.items)
		.map((item) => `${item.event} ${item.invoice.invoice_id}`)
		.sort();
}

/** How often the sandbox has listed `customerId`'s invoices: once per sweep of each trigger. */
const invoiceListings = (customerId) =>
	sandbox.requests.filter(
		(r) => r.status === 200 && r.path === `/api/v2/customers/${customerId}/invoices`,
	).length;

/** Waits until `customerId`'s invoices have been listed `times` more times from now (sweeps of either trigger). */
async function sweepsOver(customerId, times) {
	const target = invoiceListings(customerId) + times;
	await waitFor(`${times} more sweeps`, () => invoiceListings(customerId) >= target);
}

beforeAll(async () => {
	env = await startEnvironment({ name: 'e2e-trigger-catch-up', env: DURABLE_CURSORS });
	({ sandbox, n8n } = env);
	moment = ago(2.5 * DAY);
	const customers = [...sandbox.state.customers.keys()];
	datedChanges(customers[0]);
	datedChanges(customers.at(-1));
	// This week's failed payment on a subscription's invoice, for the dunning example.
	const invoice = sandbox.world.issueInvoice({
		customer_id: sandbox.fixtures.customerId,
		amount: 250,
		issued_at: ago(6 * DAY),
	});
	dunningFailure = invoice.invoice_id;
	sandbox.world.failPayment({
		invoice_id: dunningFailure,
		error: 'card_declined',
		paid_at: ago(DAY),
	});
	// after the moment too: the catch-up workflow (All Customers) owes it as well
	owed.push(`invoicePaymentFailed ${dunningFailure}`);
	const credential = credentialFor(sandbox, { id: 'sbCatchUpCred001' });
	await n8n.importCredentials([credential]);
	await n8n.importWorkflow(workflow(credential));
	const dunning = example(DUNNING_FILE);
	const trigger = dunning.nodes.find((node) => node.type === TRIGGER_TYPE);
	Object.assign(trigger.parameters, {
		pollTimes: pollEverySeconds(2),
		invoicesFrom: 'date',
		invoicesFromDate: moment,
	});
	dunning.nodes
		.filter((node) => node.credentials?.subscriptionBillingApi)
		.forEach((node) => {
			node.credentials.subscriptionBillingApi = { id: credential.id, name: credential.name };
		});
	await n8n.importWorkflow(dunning);
	await n8n.start();
	await n8n.setupOwner();
});

afterAll(async () => {
	await env?.close();
});

test('published through REST: the catch-up reports each change after the chosen moment once, at the customers visited first and last, nothing from before', async () => {
	expect(await publish(WORKFLOW_ID)).toBe('published');
	const last = [...sandbox.state.customers.keys()].at(-1);
	await waitFor('the catch-up', async () =>
		(await reported()).length >= owed.length ? true : undefined,
	);
	// Two more sweeps over the last customer: a repeat would have arrived.
	await sweepsOver(last, 2);
	expect(await reported()).toEqual([...owed].sort());
});

test('after the catch-up, a failed payment once; n8n stopped and started again repeats nothing', async () => {
	const last = [...sandbox.state.customers.keys()].at(-1);
	const open = sandbox.world.issueInvoice({ customer_id: last, amount: 12 }).invoice_id;
	sandbox.world.failPayment({ invoice_id: open, error: 'expired_card' });
	const expected = [...owed, `newInvoice ${open}`, `invoicePaymentFailed ${open}`].sort();
	await waitFor('the failed payment', async () =>
		(await reported()).length >= expected.length ? true : undefined,
	);
	await n8n.stop();
	await n8n.start();
	await n8n.setupOwner();
	await sweepsOver(last, 2);
	expect(await reported()).toEqual(expected);
});

test("the dunning example set to catch up from the same moment: one dunning message for this week's failed payment", async () => {
	const { id } = example(DUNNING_FILE);
	expect(await publish(id)).toBe('published');
	const messages = async () =>
		(await waitFor('the dunning executions', () => readExecutions(n8n, id)))
			.filter((e) => e.node === 'Dunning Message')
			.flatMap((e) => e.items);
	await waitFor('the dunning message', async () =>
		(await messages()).some((message) => message.invoice_id === dunningFailure) ? true : undefined,
	);
	// Two more sweeps of each trigger: a repeat would have arrived.
	await sweepsOver(sandbox.fixtures.customerId, 4);
	expect(
		(await messages()).filter((message) => message.invoice_id === dunningFailure),
	).toHaveLength(1);
});
