'use strict';
// Port choice cannot flake: a port is chosen (listen on 0, close) a moment before n8n is told it,
// and anything may take it in between. Here something does, every time, exactly in between (the
// onPortsChosen hook runs after the choice and before the start): n8n must end up running on new
// ports, and a decoy that answers like n8n on the taken port must not pass for it.
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const { N8n } = require('../../scripts/lib/n8n');
const { freePort, startOnFreePorts, PortTakenError } = require('../../scripts/lib/ports');

const taken = [];

/** Listens on `port` of 127.0.0.1: an HTTP server answering 200 with JSON to everything, or a bare TCP listener. */
async function takePort(port, { http: answersLikeN8n = false } = {}) {
	const server = answersLikeN8n
		? http.createServer((req, res) =>
				res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"decoy":true}}'),
			)
		: net.createServer((socket) => socket.destroy());
	await new Promise((resolve, reject) =>
		server.once('error', reject).listen(port, '127.0.0.1', resolve),
	);
	taken.push(server);
	return server;
}

afterAll(async () => {
	await Promise.all(taken.map((s) => new Promise((r) => s.close(r))));
});

test('freePort never hands out one port twice in a process', async () => {
	const ports = [];
	for (let i = 0; i < 500; i++) ports.push(await freePort());
	expect(new Set(ports).size).toBe(ports.length);
});

test('startOnFreePorts chooses again while the start says a port was taken, and gives up after the last attempt', async () => {
	const log = [];
	let calls = 0;
	const result = await startOnFreePorts({
		what: 'a server',
		choose: async () => ({ port: await freePort() }),
		start: async (attempt) => {
			calls++;
			if (attempt < 3) throw new PortTakenError('a server', `attempt ${attempt}`);
			return 'started';
		},
		log: (m) => log.push(m),
	});
	expect(result).toBe('started');
	expect(calls).toBe(3);
	expect(log).toHaveLength(2);
	await expect(
		startOnFreePorts({
			what: 'a server',
			choose: async () => ({}),
			start: async () => Promise.reject(new PortTakenError('a server', 'always')),
			attempts: 2,
			log: () => {},
		}),
	).rejects.toThrow(/always/);
	// any other failure is not retried
	await expect(
		startOnFreePorts({
			what: 'a server',
			choose: async () => ({}),
			start: async () => Promise.reject(new Error('broken')),
			log: () => {},
		}),
	).rejects.toThrow('broken');
});

describe('n8n start when its ports are taken between the choice and the start', () => {
	let n8n;
	const chosen = [];
	// Only an n8n that runs task runners listens on a task broker port (n8n's own config says:
	// on by default in 2.x, off in 1.x unless N8N_RUNNERS_ENABLED=true); without them there is no
	// broker port to take.
	let taskRunners;

	beforeAll(async () => {
		n8n = await N8n.create({
			name: 'e2e-ports',
			onPortsChosen: async (ports, attempt) => {
				chosen.push({ ...ports, attempt });
				if (!ports.port) return;
				// first start: the server's port answers like a ready n8n; second: the task broker's is taken
				if (attempt === 1) await takePort(ports.port, { http: true });
				if (attempt === 2 && taskRunners) await takePort(ports.brokerPort);
			},
		});
		taskRunners = n8n.taskRunnersEnabled();
	});

	afterAll(async () => {
		await n8n?.dispose();
	});

	test('starts on new ports after n8n said each taken port was in use: the third with task runners (server, then broker port taken), else the second', async () => {
		await n8n.start();
		const starts = chosen.filter((c) => c.port);
		expect(starts.map((c) => c.attempt)).toEqual(taskRunners ? [1, 2, 3] : [1, 2]);
		const first = starts[0];
		const last = starts.at(-1);
		expect(n8n.port).toBe(last.port);
		expect(n8n.brokerPort).toBe(last.brokerPort);
		expect(new Set(starts.map((s) => s.port)).size).toBe(starts.length);
		const log = fs.readFileSync(n8n.logFile, 'utf8');
		expect(log).toContain(`n8n's port ${first.port} is already in use`);
		if (taskRunners)
			expect(log).toContain(`n8n Task Broker's port ${starts[1].brokerPort} is already in use`);
		else expect(log).not.toContain('Task Broker');
		expect(log).toContain(`n8n ready on 127.0.0.1, port ${last.port}`);
	});

	test('the server it reports is this n8n (its instance id comes from its encryption key), not the decoy on the first port', async () => {
		await n8n.setupOwner();
		const settings = await n8n.rest('GET', '/rest/settings');
		expect(settings.status).toBe(200);
		// n8n-core's InstanceSettings: sha256 of the second half of the encryption key
		const key = n8n.encryptionKey;
		const instanceId = crypto
			.createHash('sha256')
			.update(key.slice(Math.round(key.length / 2)))
			.digest('hex');
		expect(settings.body.data.instanceId).toBe(instanceId);
		const decoy = await fetch(`http://127.0.0.1:${chosen[0].port}/rest/settings`).then((r) =>
			r.json(),
		);
		expect(decoy.data.decoy).toBe(true);
	});

	test('n8n execute runs when the port chosen for its task broker is taken: with task runners its broker moves to a new port', async () => {
		const workflow = {
			id: 'portsNoOpWorkflow1',
			name: 'ports: a manual trigger',
			active: false,
			nodes: [
				{
					id: 'a1b2c3d4-0000-4000-8000-000000000001',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
			],
			connections: {},
			settings: {},
		};
		await n8n.importWorkflow(workflow);
		const before = chosen.length;
		const takeFirstBrokerPort = n8n.onPortsChosen;
		n8n.onPortsChosen = async (ports, attempt) => {
			chosen.push({ ...ports, attempt, cli: true });
			// n8n execute starts a task broker of its own, next to the running server's
			if (attempt === 1) await takePort(ports.brokerPort);
		};
		let r;
		try {
			// the run itself, not the exit code: n8n 2.41.1 on Node 24 sometimes ends `n8n execute` with
			// a signal after printing a finished run (docs/compatibility.md)
			r = await n8n.execute(workflow.id);
			expect(r.run?.finished).toBe(true);
			expect(r.run?.data?.resultData?.runData?.Start).toHaveLength(1);
			expect(`${r.stdout}${r.stderr}`).not.toMatch(/already in use/);
		} finally {
			n8n.onPortsChosen = takeFirstBrokerPort;
		}
		// without task runners `n8n execute` starts no broker: the taken port is never noticed, the first run is the one
		expect(chosen.slice(before).map((c) => c.attempt)).toEqual(taskRunners ? [1, 2] : [1]);
		if (!taskRunners) expect(`${r.stdout}${r.stderr}`).not.toMatch(/Task Broker/);
	});
});
