'use strict';
// Port choice in queue mode cannot flake: every service's port is taken by something else exactly
// between the choice and the start (the onPortsChosen hook), by a decoy that answers like the
// service where it can (Redis's PONG, an HTTP 200 on n8n's and the worker's health port).
// Postgres, Redis, the main and a worker must each end up on new ports, and a webhook execution
// must run on the worker through them.
// Run with `npm run test:queue` (or `bash scripts/queue-e2e.sh`, which installs what is missing).
const http = require('node:http');
const net = require('node:net');
const { QueueCluster } = require('../../scripts/lib/queue');
const { startSandbox } = require('../sandbox');
const { credentialFor } = require('./helpers');
const { usageBatchWorkflow } = require('./queue-workflows');

const WEBHOOK = { id: 'sbQueuePortsRun1', path: 'queue-ports-usage' };

const decoys = [];
const chosen = [];

/** Something else on `port` of 127.0.0.1, answering like `kind` would. */
async function takePort(port, kind) {
	const server =
		kind === 'http'
			? http.createServer((req, res) =>
					res
						.writeHead(200, { 'content-type': 'application/json' })
						.end('{"status":"ok","decoy":true}'),
				)
			: net.createServer((socket) =>
					socket.on('data', () => socket.write(kind === 'redis' ? '+PONG\r\n' : '')),
				);
	await new Promise((resolve, reject) =>
		server.once('error', reject).listen(port, '127.0.0.1', resolve),
	);
	decoys.push(server);
}

async function onPortsChosen(service, ports, attempt) {
	chosen.push({ service, ports, attempt });
	if (attempt !== 1) return;
	if (service === 'postgres') await takePort(ports.port, 'tcp');
	else if (service === 'redis') await takePort(ports.port, 'redis');
	else if (service === 'main' && ports.port) await takePort(ports.port, 'http');
	else if (service === 'worker 1' && ports.healthPort) await takePort(ports.healthPort, 'http');
}

let sandbox;
let cluster;

beforeAll(
	async () => {
		sandbox = await startSandbox();
		cluster = await QueueCluster.create({
			name: 'e2e-queue-ports',
			workers: 1,
			concurrency: 2,
			onPortsChosen,
		});
		await cluster.main.importCredentials([credentialFor(sandbox)]);
		await cluster.importAndPublish(
			usageBatchWorkflow({ ...WEBHOOK, fixtures: sandbox.fixtures, responseMode: 'lastNode' }),
		);
		await cluster.start();
	},
	10 * 60 * 1000,
);

afterAll(async () => {
	await cluster?.dispose();
	await sandbox?.close();
	await Promise.all(decoys.map((s) => new Promise((r) => s.close(r))));
});

const startsOf = (service) =>
	chosen.filter((c) => c.service === service && (c.ports.port || c.ports.healthPort));

test.each([
	['postgres', (c) => c.postgres.port, 'port'],
	['redis', (c) => c.redis.port, 'port'],
	['main', (c) => c.main.port, 'port'],
	['worker 1', (c) => c.workers[0].healthPort, 'healthPort'],
])(
	'%s runs on the ports chosen the second time, not on the taken first ones',
	(service, runningPort, key) => {
		const starts = startsOf(service);
		expect(starts.map((s) => s.attempt)).toEqual([1, 2]);
		expect(runningPort(cluster)).toBe(starts[1].ports[key]);
		expect(runningPort(cluster)).not.toBe(starts[0].ports[key]);
	},
);

test('a webhook execution runs on the worker, through the new ports of Redis, Postgres and the main', async () => {
	const response = await fetch(`${cluster.main.baseUrl}/webhook/${WEBHOOK.path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ usage: [{ transaction_id: 'ports-1', value: 1 }] }),
	});
	expect(response.status).toBe(200);
	const writes = sandbox.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/usage'));
	expect(writes.map((r) => JSON.parse(r.rawBody).transaction_id)).toEqual(['ports-1']);
	const [execution] = await cluster.executions(WEBHOOK.id);
	expect(execution.status).toBe('success');
	expect(cluster.executionsRunBy(cluster.workers[0])).toContain(execution.id);
});
