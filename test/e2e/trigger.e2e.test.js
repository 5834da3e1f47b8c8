'use strict';
// The trigger in a running n8n: a published workflow with two Subscription Billing Triggers
// polling the sandbox every 2 seconds (one Poll Times entry per firing, each a cron with one fixed
// second: what every tested release accepts below a minute). Changes made in the sandbox arrive as executions with the
// right items; n8n stopped and started again emits what happened meanwhile, and nothing twice.
const path = require('node:path');
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
const WORKFLOW_ID = 'sbTriggerE2e0001';
const EXAMPLE_FILE = 'invoice-paid-message.json';
const ENDING_SOON_FILE = 'subscription-ending-soon.json';
const EVERY_2_SECONDS = pollEverySeconds(2);
/** A trigger whose first sweep would span polls (Requests Per Poll 10): n8n killed after it read every customer. */
const LEARNING_ID = 'sbTriggerLearn01';

let env;
let sandbox;
let n8n;
let learning;

function learningWorkflow(credential) {
	return {
		id: LEARNING_ID,
		name: 'Trigger learning, n8n killed',
		active: false,
		settings: { executionOrder: 'v1' },
		connections: {},
		nodes: [
			{
				id: '7d0c1f4e-0000-4000-8000-000000000011',
				name: 'Payment Failed',
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: EVERY_2_SECONDS,
					events: ['invoicePaymentFailed'],
					scope: 'all',
					requestsPerPoll: 10,
				},
				credentials: { subscriptionBillingApi: { id: credential.id, name: credential.name } },
			},
		],
	};
}

function workflow(credential) {
	const credentials = { subscriptionBillingApi: { id: credential.id, name: credential.name } };
	return {
		id: WORKFLOW_ID,
		name: 'Trigger end to end',
		active: false,
		settings: { executionOrder: 'v1' },
		connections: {},
		nodes: [
			{
				id: '7d0c1f4e-0000-4000-8000-000000000001',
				name: 'Invoice Paid',
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: EVERY_2_SECONDS, events: ['invoicePaid'], scope: 'all' },
				credentials,
			},
			{
				id: '7d0c1f4e-0000-4000-8000-000000000002',
				name: 'Status Changed',
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 300],
				parameters: {
					pollTimes: EVERY_2_SECONDS,
					events: ['subscriptionStatusChanged'],
					statuses: ['TERMINATING', 'PAUSED'],
				},
				credentials,
			},
			{
				id: '7d0c1f4e-0000-4000-8000-000000000003',
				name: 'Several Events',
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 600],
				parameters: {
					pollTimes: EVERY_2_SECONDS,
					events: [
						'customerUpdated',
						'subscriptionUpdated',
						'subscriptionPaused',
						'subscriptionResumed',
						'subscriptionEndingSoon',
						'invoicePaid',
					],
					endingSoonDays: 20,
				},
				credentials,
			},
		],
	};
}

/** Customer listings the sandbox has answered: each poll of either trigger starts with one. */
const listings = () =>
	sandbox.requests.filter(
		(r) =>
			r.method === 'GET' && r.path === '/api/v2/customers' && r.status === 200 && !r.query.offset,
	).length;

/**
 * Waits until the five triggers (three in the test workflow, two in the examples) have polled
 * `rounds` more times from now; the learning workflow's trigger lists customers at most once a
 * poll (when its sweep starts), so six listings a round never wait less.
 */
async function pollRounds(rounds) {
	const target = listings() + 6 * rounds;
	await waitFor(`${rounds} more poll rounds`, () => listings() >= target);
}

const executions = (workflowId = WORKFLOW_ID) =>
	waitFor(`the executions of workflow ${workflowId} as n8n serves them`, () =>
		readExecutions(n8n, workflowId),
	);

/**
 * The items of node `node` in workflow `workflowId`, once there are at least `atLeast` of them and
 * every trigger has polled twice more (so that a repeat would have arrived).
 */
async function settledItems(workflowId, node, atLeast) {
	const items = async () =>
		(await executions(workflowId)).filter((e) => e.node === node).flatMap((e) => e.items);
	await waitFor(`${atLeast} items of ${node}`, async () =>
		(await items()).length >= atLeast ? true : undefined,
	);
	await pollRounds(2);
	return await items();
}

const invoiceIds = (all) =>
	all
		.filter((e) => e.node === 'Invoice Paid')
		.flatMap((e) => e.items.map((item) => item.invoice.invoice_id))
		.sort();
const statusChanges = (all) =>
	all
		.filter((e) => e.node === 'Status Changed')
		.flatMap((e) =>
			e.items.map(
				(item) => `${item.subscription.subscription_id} ${item.previous_status}->${item.status}`,
			),
		)
		.sort();

beforeAll(async () => {
	env = await startEnvironment({ name: 'e2e-trigger', env: DURABLE_CURSORS });
	({ sandbox, n8n } = env);
	const credential = credentialFor(sandbox, { id: 'sbTriggerCred001' });
	await n8n.importCredentials([credential]);
	await n8n.importWorkflow(workflow(credential));
	await n8n.activateWorkflow(WORKFLOW_ID);
	// the example the demo publishes, polling every 2 seconds instead of every minute
	const demo = example(EXAMPLE_FILE);
	demo.nodes.find((node) => node.type === TRIGGER_TYPE).parameters.pollTimes = EVERY_2_SECONDS;
	await n8n.importCredentials([credentialFor(sandbox)]);
	await n8n.importWorkflow(demo);
	await n8n.activateWorkflow(demo.id);
	const endingSoon = example(ENDING_SOON_FILE);
	endingSoon.nodes.find((node) => node.type === TRIGGER_TYPE).parameters.pollTimes =
		EVERY_2_SECONDS;
	await n8n.importWorkflow(endingSoon);
	await n8n.activateWorkflow(endingSoon.id);
	await n8n.importWorkflow(learningWorkflow(credential));
	await n8n.activateWorkflow(LEARNING_ID);
	// An open invoice at the customer the sweep visits last.
	learning = { customerId: [...sandbox.state.customers.keys()].at(-1) };
	learning.invoiceId = sandbox.world.issueInvoice({
		customer_id: learning.customerId,
		amount: 64,
	}).invoice_id;
	await n8n.start();
	await n8n.setupOwner();
});

afterAll(async () => {
	await env?.close();
});

test('activated: the first polls remember where things stand and start no execution', async () => {
	await pollRounds(2);
	expect(await executions()).toEqual([]);
	expect(await executions(example(ENDING_SOON_FILE).id)).toEqual([]);
	const invoiceListings = sandbox.requests.filter((r) =>
		/^\/api\/v2\/customers\/[^/]+\/invoices$/.test(r.path),
	);
	expect(invoiceListings.length).toBeGreaterThanOrEqual(sandbox.fixtures.customerCount);
	for (const request of sandbox.requests) expect(request.status).toBe(200);
});

test('n8n killed after the trigger read every customer (what spanned its first polls): a failed payment made before, at the customer visited last, once', async () => {
	const read = (r) =>
		r.path === `/api/v2/customers/${learning.customerId}/invoices` && r.status === 200;
	await waitFor('the trigger reading the last customer', () => sandbox.requests.some(read));
	await pollRounds(1);
	const failed = sandbox.world.failPayment({
		invoice_id: learning.invoiceId,
		error: 'card_declined',
	});
	await n8n.kill();
	await n8n.start();
	await n8n.setupOwner();
	const reported = async () =>
		(await executions(LEARNING_ID))
			.flatMap((e) => e.items)
			.map((item) => `${item.event} ${item.invoice.invoice_id} ${item.payment.payment_id}`);
	await waitFor('the failed payment', async () =>
		(await reported()).length > 0 ? true : undefined,
	);
	await pollRounds(2);
	expect(await reported()).toEqual([
		`invoicePaymentFailed ${learning.invoiceId} ${failed.payment_id}`,
	]);
});

test('changes in the sandbox arrive as executions with the right items, once; n8n restarted misses nothing and repeats nothing', async () => {
	const [oldOpen] = sandbox.state.invoicesByCustomer
		.get(sandbox.fixtures.customerId)
		.filter((i) => i.paidMs === null && i.remaining > 0);
	const fresh = sandbox.world.issueInvoice({
		customer_id: sandbox.fixtures.bigCustomerId,
		amount: 120,
	});
	sandbox.world.payInvoice({ invoice_id: oldOpen.invoice_id });
	sandbox.world.payInvoice({ invoice_id: fresh.invoice_id });
	sandbox.world.setSubscriptionStatus({
		subscription_id: sandbox.fixtures.subscriptionId,
		status: 'TERMINATING',
	});
	sandbox.world.setSubscriptionStatus({
		subscription_id: sandbox.fixtures.openOrderSubscriptionId,
		status: 'ACTIVE',
	});

	const expectedInvoices = [oldOpen.invoice_id, fresh.invoice_id].sort();
	const expectedChanges = [`${sandbox.fixtures.subscriptionId} ACTIVE->TERMINATING`];
	let all = await waitFor('the executions of the first changes', async () => {
		const found = await executions();
		return invoiceIds(found).length >= 2 && statusChanges(found).length >= 1 ? found : undefined;
	});
	await pollRounds(2);
	all = await executions();
	expect(invoiceIds(all)).toEqual(expectedInvoices);
	expect(statusChanges(all)).toEqual(expectedChanges);
	expect(new Set(all.map((e) => e.mode))).toEqual(new Set(['trigger']));
	const paid = all.find((e) => e.node === 'Invoice Paid').items[0];
	expect(paid).toMatchObject({
		event: 'invoicePaid',
		detected_at: expect.stringMatching(/Z$/),
		invoice: { status: 'PAID', remaining_amount: 0 },
	});

	// the example workflow prepared one message per paid invoice (its trigger polls on its own)
	const messages = await settledItems(
		example(EXAMPLE_FILE).id,
		'Message for the Team',
		expectedInvoices.length,
	);
	expect(messages.map((m) => m.invoice_id).sort()).toEqual(expectedInvoices);
	const freshNumber = sandbox.state.invoicesById.get(fresh.invoice_id).invoice_number;
	expect(messages.find((m) => m.invoice_id === fresh.invoice_id)).toEqual({
		channel: '#billing',
		invoice_id: fresh.invoice_id,
		text: expect.stringMatching(
			new RegExp(
				`^Invoice ${freshNumber} from Globex Industries is paid: 120 USD on \\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z\\.$`,
			),
		),
	});

	await n8n.stop();
	const whileDown = sandbox.world.issueInvoice({
		customer_id: sandbox.fixtures.customerId,
		amount: 33,
	});
	sandbox.world.payInvoice({ invoice_id: whileDown.invoice_id });
	sandbox.world.setSubscriptionStatus({
		subscription_id: sandbox.fixtures.noPhasesSubscriptionId,
		status: 'PAUSED',
	});
	await n8n.start();
	await n8n.setupOwner();

	await waitFor('the executions of the changes made while n8n was stopped', async () => {
		const found = await executions();
		return invoiceIds(found).length >= 3 && statusChanges(found).length >= 2 ? found : undefined;
	});
	await pollRounds(2);
	all = await executions();
	expect(invoiceIds(all)).toEqual([...expectedInvoices, whileDown.invoice_id].sort());
	expect(statusChanges(all)).toEqual(
		[...expectedChanges, `${sandbox.fixtures.noPhasesSubscriptionId} ACTIVE->PAUSED`].sort(),
	);
});

test('several events in one trigger, each item naming its event, once; the Ending Soon example prepares the reminder', async () => {
	const { fixtures } = sandbox;
	const subscriptions = [...sandbox.state.subscriptions.values()];
	// subscriptions the tests before have not changed
	const touched = [
		fixtures.noPhasesSubscriptionId,
		fixtures.subscriptionId,
		fixtures.openOrderSubscriptionId,
	];
	const running = subscriptions.filter(
		(s) => s.status === 'ACTIVE' && !touched.includes(s.subscription_id),
	);
	const [toPause, toEnd] = running;
	const pausedId = fixtures.pausedSubscriptionId;
	expect(sandbox.state.subscriptions.get(pausedId).status).toBe('PAUSED');
	sandbox.world.updateCustomer({
		customer_id: fixtures.bigCustomerId,
		legal_name: 'Globex Industries Holdings',
	});
	sandbox.world.pauseSubscription({ subscription_id: toPause.subscription_id });
	sandbox.world.resumeSubscription({ subscription_id: pausedId });
	sandbox.world.updateSubscription({ subscription_id: toEnd.subscription_id, ends_in_days: 12 });
	const endsAt = sandbox.state.subscriptions.get(toEnd.subscription_id).ends_at;

	const ours = new Set([
		fixtures.bigCustomerId,
		toPause.subscription_id,
		pausedId,
		toEnd.subscription_id,
	]);
	const several = (all) =>
		all
			.filter((e) => e.node === 'Several Events')
			.flatMap((e) => e.items)
			.filter(
				(item) =>
					item.event !== 'invoicePaid' &&
					ours.has(item.customer?.customer_id ?? item.subscription.subscription_id),
			);
	const expected = [
		`customerUpdated ${fixtures.bigCustomerId}`,
		`subscriptionEndingSoon ${toEnd.subscription_id}`,
		`subscriptionPaused ${toPause.subscription_id}`,
		`subscriptionResumed ${pausedId}`,
		`subscriptionUpdated ${pausedId}`,
		`subscriptionUpdated ${toEnd.subscription_id}`,
		`subscriptionUpdated ${toPause.subscription_id}`,
	];
	const label = (item) =>
		`${item.event} ${item.customer?.customer_id ?? item.subscription.subscription_id}`;
	await waitFor('the executions of the changes to customers and subscriptions', async () => {
		const found = several(await executions());
		return found.length >= expected.length ? found : undefined;
	});
	await pollRounds(2);
	const items = several(await executions());
	expect(items.map(label).sort()).toEqual([...expected].sort());
	expect(items.find((item) => item.event === 'customerUpdated')).toMatchObject({
		changed_fields: ['legal_name'],
		changes: { legal_name: { current: 'Globex Industries Holdings' } },
	});
	expect(items.find((item) => item.event === 'subscriptionEndingSoon')).toMatchObject({
		ends_at: endsAt,
		days_left: 12,
		subscription: { status: 'ACTIVE' },
	});
	expect(items.find((item) => item.event === 'subscriptionResumed')).toMatchObject({
		previous_status: 'PAUSED',
		status: 'ACTIVE',
	});

	// The example: one reminder for the subscription that now ends in 12 days, from its Subscription Get
	const reminders = await settledItems(
		example(ENDING_SOON_FILE).id,
		'Reminder for the Account Owner',
		1,
	);
	expect(reminders).toEqual([
		{
			to: expect.stringContaining('@'),
			subject: `${toEnd.name} ends in 12 days`,
			text: expect.stringContaining(
				`subscription ${toEnd.name} ends on ${endsAt}. Renews automatically: ${toEnd.auto_renews ? 'yes, on ' : 'no'}`,
			),
			subscription_id: toEnd.subscription_id,
		},
	]);
	const gets = sandbox.requests.filter(
		(r) => r.method === 'GET' && r.path === `/api/v2/subscriptions/${toEnd.subscription_id}`,
	);
	expect(gets.length).toBeGreaterThanOrEqual(1);
});

// only where n8n runs with durable cursors (N8N_E2E_DURABLE_CURSORS=1)
if (DURABLE_CURSORS)
	test("durable cursors: each trigger's state is kept in n8n's poller_state table", () => {
		const { execFileSync } = require('node:child_process');
		const database = path.join(n8n.userFolder, '.n8n', 'database.sqlite');
		const query =
			'import json, sqlite3, sys; rows = sqlite3.connect(sys.argv[1]).execute("SELECT nodeId, cursor FROM poller_state WHERE workflowId = ?", (sys.argv[2],)).fetchall(); print(json.dumps(rows))';
		const rows = JSON.parse(
			execFileSync('python3', ['-c', query, database, WORKFLOW_ID], { encoding: 'utf8' }),
		);
		const cursors = Object.fromEntries(
			rows.map(([nodeId, cursor]) => [nodeId, JSON.parse(cursor)]),
		);
		expect(Object.keys(cursors).sort()).toEqual([
			'7d0c1f4e-0000-4000-8000-000000000001',
			'7d0c1f4e-0000-4000-8000-000000000002',
			'7d0c1f4e-0000-4000-8000-000000000003',
		]);
		expect(cursors['7d0c1f4e-0000-4000-8000-000000000001']).toMatchObject({
			trigger: {
				format: 2,
				invoices: {
					sweep: expect.any(Object),
					customers: { columns: ['known', 'watched'], rows: expect.any(String) },
				},
			},
		});
		expect(cursors['7d0c1f4e-0000-4000-8000-000000000002']).toMatchObject({
			trigger: {
				format: 2,
				customerList: {
					subscriptions: { columns: ['status'], kinds: ['d'], rows: expect.any(String) },
				},
			},
		});
		expect(cursors['7d0c1f4e-0000-4000-8000-000000000003']).toMatchObject({
			trigger: {
				format: 2,
				customerList: expect.any(Object),
				invoices: {
					sweep: expect.any(Object),
					customers: { columns: ['known', 'watched'], rows: expect.any(String) },
				},
			},
		});
	});
