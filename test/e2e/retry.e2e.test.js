'use strict';
// Idempotency keys in a real n8n: a second execution of a write is applied again (new key), and
// n8n's "Retry execution" of a failed execution (POST /rest/executions/:id/retry, as the
// executions list does) sends the failed attempt's key, so what that attempt applied is not
// applied twice.
const {
	NODE_TYPE,
	EXAMPLE_CREDENTIAL_ID,
	credentialFor,
	startEnvironment,
	describeRun,
} = require('./helpers');

const WORKFLOW_ID = 'sbE2eRetryMilestone';
const KEY_HEADER = 'x-service-idempotent-operation-key';

let env;
let sandbox;
let n8n;

function milestoneWorkflow() {
	const { subscriptionId, milestoneId } = sandbox.fixtures;
	return {
		id: WORKFLOW_ID,
		name: 'e2e: complete a milestone',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'c1d7a3a0-6f0e-4f4e-9d55-1f1d3b7e0a01',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'c1d7a3a0-6f0e-4f4e-9d55-1f1d3b7e0a02',
				name: 'Complete Milestone',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [220, 0],
				parameters: {
					resource: 'subscriptionMilestone',
					operation: 'complete',
					subscriptionId: { __rl: true, mode: 'id', value: subscriptionId },
					milestoneId,
					quantity: 1,
					billOn: 'IMMEDIATELY',
					faultHandling: { maxRetries: 0 },
				},
				credentials: {
					subscriptionBillingApi: {
						id: EXAMPLE_CREDENTIAL_ID,
						name: 'Subscription Billing account',
					},
				},
			},
		],
		connections: { Start: { main: [[{ node: 'Complete Milestone', type: 'main', index: 0 }]] } },
	};
}

const completed = () =>
	sandbox.state.milestones.get(sandbox.fixtures.milestoneId).quantity_completed;
const seen = () =>
	sandbox.requests.map((r) => ({
		key: r.headers[KEY_HEADER],
		fault: r.fault ?? null,
		status: r.status,
		replayed: Boolean(r.replayed),
	}));

beforeAll(async () => {
	env = await startEnvironment({ name: 'e2e-retry' });
	({ sandbox, n8n } = env);
	await n8n.importCredentials([credentialFor(sandbox)]);
	await n8n.importWorkflow(milestoneWorkflow());
});

afterAll(async () => {
	await env?.close();
});

test('a failed execution retried from the executions list resends its key; a new execution is a new write', async () => {
	const before = completed();

	// 1. The API applies the write but its answer is cut off; the node does not retry (Max Retries 0).
	sandbox.setFaults({ on: [1], kinds: ['truncate'] });
	const failed = await n8n.execute(WORKFLOW_ID);
	sandbox.setFaults(null);
	expect(failed.code).not.toBe(0);
	expect(failed.stdout + failed.stderr).toContain('ERR_');
	expect(completed()).toBe(before + 1);

	// 2. The workflow run again: a new execution, a new key, applied again.
	const again = await n8n.execute(WORKFLOW_ID);
	if (!again.succeeded) throw new Error(describeRun(again));
	expect(completed()).toBe(before + 2);
	const [first, second] = seen();
	expect(first).toEqual({
		key: expect.stringMatching(/^n8n-[0-9a-f]{32}$/),
		fault: 'truncate',
		status: 200,
		replayed: false,
	});
	expect(second).toEqual({
		key: expect.stringMatching(/^n8n-/),
		fault: null,
		status: 200,
		replayed: false,
	});
	expect(second.key).not.toBe(first.key);

	// 3. Retry of the failed execution, through the server as the editor's executions list does it.
	await n8n.start();
	await n8n.setupOwner();
	const list = await n8n.rest(
		'GET',
		`/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: WORKFLOW_ID }))}`,
	);
	expect(list.status).toBe(200);
	const failedExecution = list.body.data.results.find((execution) => execution.status === 'error');
	expect(failedExecution).toBeDefined();
	const retry = await n8n.rest('POST', `/rest/executions/${failedExecution.id}/retry`, {
		loadWorkflow: false,
	});
	expect(retry.status).toBe(200);
	expect(retry.body.data).toMatchObject({
		mode: 'retry',
		retryOf: failedExecution.id,
		status: 'success',
	});
	expect(retry.body.data.id).not.toBe(failedExecution.id);

	const third = seen()[2];
	expect(seen()).toHaveLength(3);
	expect(third).toEqual({ key: first.key, fault: null, status: 200, replayed: true });
	expect(completed()).toBe(before + 2);
});
