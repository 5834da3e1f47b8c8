'use strict';
// The package in n8n's queue mode: Postgres, Redis, a main and two workers of the pinned n8n, the
// package installed on each. Webhook executions spread over both workers write exactly once; a
// worker killed (SIGKILL) in the middle of 2,000 writes loses none and doubles none, whatever is
// done next: the editor's Retry of the failed execution, then the same input delivered again.
// The polling trigger runs on the main and its executions on the workers; restarting the main
// neither repeats nor loses an event.
// Run with `npm run test:queue` (or `bash scripts/queue-e2e.sh`, which installs what is missing).
const http = require('node:http');
const { QueueCluster } = require('../../scripts/lib/queue');
const { sleep } = require('../../scripts/lib/n8n');
const { startSandbox } = require('../sandbox');
const { credentialFor } = require('./helpers');
const { usageBatchWorkflow, triggerWorkflow } = require('./queue-workflows');

const CONCURRENT_CALLS = 300;
const BIG_EXECUTION_WRITES = 2000;
// Request Options → Batching: 20 writes every 200 ms, so the execution lasts long enough to be
// interrupted in the middle (about 20 s of writes)
const BATCHING = { batchSize: 20, batchInterval: 200 };
const KILL_AFTER_WRITES = 300;
const FINISHED = ['success', 'error', 'crashed', 'canceled'];

const MANY_CALLS = { id: 'sbQueueManyCall1', path: 'queue-usage-single' };
const BIG_RUN = { id: 'sbQueueBigRun001', path: 'queue-usage-batch' };
const NEW_CUSTOMERS = { id: 'sbQueueTrigger01', event: 'newCustomer' };

let sandbox;
let cluster;

beforeAll(
	async () => {
		sandbox = await startSandbox();
		cluster = await QueueCluster.create({ name: 'e2e-queue', workers: 2, concurrency: 10 });
		await cluster.main.importCredentials([credentialFor(sandbox)]);
		await cluster.importAndPublish(
			usageBatchWorkflow({ ...MANY_CALLS, fixtures: sandbox.fixtures }),
		);
		await cluster.importAndPublish(
			usageBatchWorkflow({
				...BIG_RUN,
				fixtures: sandbox.fixtures,
				batching: BATCHING,
				responseMode: 'lastNode',
			}),
		);
		await cluster.importAndPublish(triggerWorkflow(NEW_CUSTOMERS));
		await cluster.start();
		await cluster.main.setupOwner();
	},
	10 * 60 * 1000,
);

afterAll(async () => {
	await cluster?.dispose();
	await sandbox?.close();
});

/** Polls `check` (which returns a truthy value when done) until it holds; fails with `describe()` after the deadline. */
async function waitUntil(what, check, { timeoutMs = 5 * 60 * 1000, describe = () => '' } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value) return value;
		if (Date.now() > deadline)
			throw new Error(`timed out waiting for ${what}; ${await describe()}`);
		await sleep(250);
	}
}

/** POSTs JSON to a webhook of the main without a client-side timeout: { status, body }. */
function callWebhook(path, body) {
	const payload = JSON.stringify(body);
	return new Promise((resolve, reject) => {
		const req = http.request(
			`${cluster.main.baseUrl}/webhook/${path}`,
			{
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'content-length': Buffer.byteLength(payload),
				},
				agent: false,
			},
			(res) => {
				let text = '';
				res.on('data', (d) => (text += d));
				res.on('end', () => resolve({ status: res.statusCode, body: text }));
			},
		);
		req.on('error', reject);
		req.end(payload);
	});
}

const usageWrites = () =>
	sandbox.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/usage'));
const txOf = (request) => JSON.parse(request.rawBody).transaction_id;
/** Writes the sandbox applied (201, not a replay of an earlier one), per transaction id. */
function appliedPerTransaction(prefix) {
	const counts = new Map();
	for (const r of usageWrites()) {
		if (r.status !== 201 || r.replayed || !txOf(r).startsWith(prefix)) continue;
		counts.set(txOf(r), (counts.get(txOf(r)) ?? 0) + 1);
	}
	return counts;
}
const entriesWith = (prefix) =>
	[...sandbox.state.usage.keys()].filter((id) => id.startsWith(prefix));
const allFinished = (executions) => executions.every((e) => FINISHED.includes(e.status));

test(`${CONCURRENT_CALLS} concurrent webhook calls: ${CONCURRENT_CALLS} successful executions spread over both workers, ${CONCURRENT_CALLS} writes`, async () => {
	const ids = Array.from(
		{ length: CONCURRENT_CALLS },
		(_, i) => `q-many-${String(i).padStart(3, '0')}`,
	);
	const answers = await Promise.all(
		ids.map((id, i) =>
			callWebhook(MANY_CALLS.path, { usage: [{ transaction_id: id, value: i + 1 }] }),
		),
	);
	expect(answers.filter((a) => a.status !== 200)).toEqual([]);

	const executions = await waitUntil(
		`${CONCURRENT_CALLS} finished executions`,
		async () => {
			const rows = await cluster.executions(MANY_CALLS.id);
			return rows.length === CONCURRENT_CALLS && allFinished(rows) && rows;
		},
		{
			describe: async () =>
				JSON.stringify(
					await cluster.sql(
						'select status, count(*) from execution_entity where "workflowId" = $1 group by status',
						[MANY_CALLS.id],
					),
				),
		},
	);
	expect(executions.map((e) => [e.mode, e.status])).toEqual(
		executions.map(() => ['webhook', 'success']),
	);

	// which worker ran which execution: each worker logs "Worker started execution <id>"
	const runBy = cluster.workers.map((w) =>
		cluster.executionsRunBy(w).filter((id) => executions.some((e) => e.id === id)),
	);
	process.stderr.write(
		`[queue] ${CONCURRENT_CALLS} executions: ${runBy.map((ids, i) => `worker ${i + 1} ran ${ids.length}`).join(', ')}\n`,
	);
	expect(runBy.every((ids) => ids.length > 0)).toBe(true);
	expect([...runBy.flat()].sort()).toEqual(executions.map((e) => e.id).sort());

	// the sandbox: each call's entry exactly once, with its value, and no write refused
	const applied = appliedPerTransaction('q-many-');
	expect([...applied.keys()].sort()).toEqual(ids);
	expect([...applied.values()].every((n) => n === 1)).toBe(true);
	expect(usageWrites().filter((r) => txOf(r).startsWith('q-many-') && r.status !== 201)).toEqual(
		[],
	);
	expect(entriesWith('q-many-').sort()).toEqual(ids);
	expect(ids.map((id) => sandbox.state.usage.get(id).value)).toEqual(ids.map((_, i) => i + 1));
	// every write carried the recommended custom key
	expect(
		usageWrites()
			.filter((r) => txOf(r).startsWith('q-many-'))
			.every((r) => r.headers['x-service-idempotent-operation-key'] === `usage-${txOf(r)}`),
	).toBe(true);
});

test(
	`a worker killed in the middle of ${BIG_EXECUTION_WRITES} writes: after the editor's Retry and the same input delivered again, every write applied exactly once`,
	async () => {
		const ids = Array.from(
			{ length: BIG_EXECUTION_WRITES },
			(_, i) => `q-big-${String(i).padStart(4, '0')}`,
		);
		const body = { usage: ids.map((id) => ({ transaction_id: id, value: 7 })) };
		const firstCall = callWebhook(BIG_RUN.path, body);

		// the worker that took the execution, killed once some writes (not all) were applied
		const execution = await waitUntil(
			'the execution to be enqueued',
			async () => (await cluster.executions(BIG_RUN.id))[0],
		);
		const victim = await waitUntil('a worker to start the execution', () =>
			cluster.workers.find((w) => cluster.executionsRunBy(w).includes(execution.id)),
		);
		await waitUntil(
			`${KILL_AFTER_WRITES} writes`,
			() => appliedPerTransaction('q-big-').size >= KILL_AFTER_WRITES,
			{
				describe: () => `${appliedPerTransaction('q-big-').size} applied`,
			},
		);
		await victim.kill();
		const sinceKill = sandbox.requests.length;
		const appliedAtKill = appliedPerTransaction('q-big-').size;
		process.stderr.write(
			`[queue] ${victim.name} killed (SIGKILL) after ${appliedAtKill} of ${BIG_EXECUTION_WRITES} writes\n`,
		);
		expect(appliedAtKill).toBeLessThan(BIG_EXECUTION_WRITES);

		// n8n notices the dead worker (its job lock expires; the other worker's stalled-job check fails
		// the job) and marks the execution failed; the caller, waiting for the last node, gets an error
		const failed = await waitUntil('the execution to be marked failed', async () => {
			const [row] = await cluster.sql('select status from execution_entity where id = $1', [
				execution.id,
			]);
			return FINISHED.includes(row.status) && row;
		});
		expect(failed.status).toBe('error');
		expect((await firstCall).status).toBe(500);

		// the editor's "Retry" (with the original workflow) of the failed execution
		const retry = await cluster.main.rest('POST', `/rest/executions/${execution.id}/retry`, {
			loadWorkflow: false,
		});
		expect(retry.status).toBe(200);
		const retried = await waitUntil('the retry to finish', async () => {
			const rows = await cluster.executions(BIG_RUN.id);
			const row = rows.find((e) => e.retryOf === execution.id);
			return row && FINISHED.includes(row.status) && row;
		});
		const appliedAfterRetry = appliedPerTransaction('q-big-');
		process.stderr.write(
			`[queue] the retry (execution ${retried.id}) ended "${retried.status}"; ${appliedAfterRetry.size} of ${BIG_EXECUTION_WRITES} entries applied\n`,
		);
		expect([...appliedAfterRetry.values()].every((n) => n === 1)).toBe(true);

		// the same input delivered again, as a sender does after an error answer
		const secondCall = await callWebhook(BIG_RUN.path, body);
		expect(secondCall.status).toBe(200);

		const applied = appliedPerTransaction('q-big-');
		expect(applied.size).toBe(BIG_EXECUTION_WRITES);
		expect([...applied.values()].every((n) => n === 1)).toBe(true);
		expect(entriesWith('q-big-').sort()).toEqual(ids);
		// nothing was refused as a duplicate: writes already applied were replayed by their key
		// (before the kill, requests in flight may have been cut off with the worker)
		const writes = usageWrites().filter((r) => r.n > sinceKill && txOf(r).startsWith('q-big-'));
		expect(writes.filter((r) => r.status !== 201).map((r) => [r.status, r.rawBody])).toEqual([]);
		expect(writes.filter((r) => r.replayed).length).toBeGreaterThanOrEqual(appliedAfterRetry.size);
		const last = (await cluster.executions(BIG_RUN.id)).at(-1);
		expect([last.mode, last.status]).toEqual(['webhook', 'success']);
	},
	15 * 60 * 1000,
);

test(
	'the trigger in queue mode: events polled on the main run as executions on the workers; the main restarted, nothing emitted twice, nothing missed',
	async () => {
		const customerPolls = () =>
			sandbox.requests.filter(
				(r) => r.method === 'GET' && r.path.endsWith('/customers') && r.status === 200,
			).length;
		/** Customer ids emitted so far, one entry per emission, with the execution that carried each. */
		async function emitted() {
			const out = [];
			for (const e of await cluster.executions(NEW_CUSTOMERS.id)) {
				for (const item of (await cluster.executionOutput(e.id, 'Received')) ?? [])
					out.push({ customerId: item.customer.customer_id, execution: e });
			}
			return out;
		}
		const created = [];
		const createCustomers = (label, n) => {
			for (let i = 0; i < n; i++)
				created.push(sandbox.world.createCustomer({ name: `Queue ${label} ${i + 1}` }).customer_id);
		};
		const allEmitted = async () => {
			const list = await emitted();
			return created.every((id) => list.some((x) => x.customerId === id)) && list;
		};

		// the trigger took its starting point when the main activated it: customers from now on
		await waitUntil('a first poll', () => customerPolls() > 0);
		createCustomers('before restart', 3);
		await waitUntil('the first customers to be emitted', allEmitted, {
			describe: async () => JSON.stringify(await emitted()),
		});

		// a restart of the main (its polls stop and start again with it), customers created meanwhile
		const stopped = cluster.main.stop();
		createCustomers('during restart', 2);
		await stopped;
		createCustomers('while stopped', 2);
		await cluster.main.start();
		createCustomers('after restart', 2);
		await waitUntil('every customer to be emitted', allEmitted, {
			describe: async () => JSON.stringify(await emitted()),
		});
		// two more complete polls: anything emitted twice would be by now
		const pollsSoFar = customerPolls();
		await waitUntil('two more polls', () => customerPolls() >= pollsSoFar + 2);
		const finished = await waitUntil('the trigger executions to finish', async () => {
			const rows = await cluster.executions(NEW_CUSTOMERS.id);
			return allFinished(rows) && rows;
		});

		const list = await emitted();
		expect(list.map((x) => x.customerId).sort()).toEqual([...created].sort());
		expect(finished.map((e) => [e.mode, e.status])).toEqual(
			finished.map(() => ['trigger', 'success']),
		);
		const onWorkers = new Set(cluster.workers.flatMap((w) => cluster.executionsRunBy(w)));
		expect(finished.filter((e) => !onWorkers.has(e.id))).toEqual([]);
		process.stderr.write(
			`[queue] ${created.length} customers emitted once each in ${finished.length} trigger executions, all on workers, across a restart of the main\n`,
		);
	},
	15 * 60 * 1000,
);
