/**
 * Settings → Request Options, which n8n adds to every declarative node (Timeout, Proxy, Ignore SSL
 * Issues, Batching): the node sends through its own request path (shared/transport.ts, called from
 * the routing's pagination function), so each option is checked through n8n's engine against real
 * servers on 127.0.0.1: a slow sandbox answer, a small forwarding proxy that counts what passes
 * through it, and an https front of the sandbox with a self-signed certificate made by openssl.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { INodeParameters } from 'n8n-workflow';
import { runBilling, useSandbox } from './helpers/billing.cjs';

// Pages of at most 10, so that a list of the 30 customers takes three requests.
const sandbox = useSandbox({ seed: { customers: 30 }, maxPageSize: 10 });

interface Relay {
	origin: string;
	/** The requests that passed through, as "METHOD path". */
	seen: string[];
	/** When each of them arrived (Date.now()). */
	arrivals: number[];
	close(): Promise<void>;
}

async function listen(
	server: http.Server | https.Server,
	scheme: 'http' | 'https',
): Promise<string> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: http.Server | https.Server) {
	return () =>
		new Promise<void>((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
}

/**
 * Sends the request on to the sandbox and its answer back; `target` is where the request says it
 * goes. `publicOrigin`, for a front, replaces the sandbox's own address in the answer (its next-page
 * links), as a real TLS front of an API would.
 */
function forward(
	req: http.IncomingMessage,
	res: http.ServerResponse,
	target: URL,
	relay: Pick<Relay, 'seen' | 'arrivals'>,
	publicOrigin?: string,
) {
	relay.arrivals.push(Date.now());
	relay.seen.push(`${req.method} ${target.pathname}`);
	const upstream = http.request(
		target,
		{ method: req.method, headers: { ...req.headers, host: target.host } },
		(answer) => {
			if (!publicOrigin) {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
				return;
			}
			const chunks: Buffer[] = [];
			answer.on('data', (chunk: Buffer) => chunks.push(chunk));
			answer.on('end', () => {
				const body = Buffer.concat(chunks).toString('utf8').split(target.origin).join(publicOrigin);
				const { 'content-length': _length, ...headers } = answer.headers;
				res.writeHead(answer.statusCode ?? 502, headers);
				res.end(body);
			});
		},
	);
	upstream.on('error', () => res.destroy());
	req.pipe(upstream);
}

/** A plain HTTP forward proxy: requests come with an absolute URI, as clients send them to a proxy. */
async function startProxy(): Promise<Relay> {
	const relay = { seen: [] as string[], arrivals: [] as number[] };
	const server = http.createServer((req, res) => forward(req, res, new URL(req.url ?? '/'), relay));
	return { ...relay, origin: await listen(server, 'http'), close: closer(server) };
}

/** An https front of the sandbox with a self-signed certificate for 127.0.0.1, made by openssl for this test. */
async function startTlsFront(): Promise<Relay> {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'tls-front-'));
	try {
		execFileSync(
			'openssl',
			[
				'req',
				'-x509',
				'-newkey',
				'rsa:2048',
				'-nodes',
				'-days',
				'1',
				'-subj',
				'/CN=127.0.0.1',
				'-addext',
				'subjectAltName=IP:127.0.0.1',
				'-keyout',
				path.join(dir, 'key.pem'),
				'-out',
				path.join(dir, 'cert.pem'),
			],
			{ stdio: 'ignore' },
		);
		const relay = { seen: [] as string[], arrivals: [] as number[] };
		let origin = '';
		const server = https.createServer(
			{
				key: readFileSync(path.join(dir, 'key.pem')),
				cert: readFileSync(path.join(dir, 'cert.pem')),
			},
			(req, res) => forward(req, res, new URL(req.url ?? '/', sandbox.baseUrl), relay, origin),
		);
		origin = await listen(server, 'https');
		return { ...relay, origin, close: closer(server) };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

afterEach(() => sandbox.setFaults(null));

const listCustomers = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'customer',
	operation: 'getMany',
	returnAll: true,
	...extra,
});
const getSubscription = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'subscription',
	operation: 'get',
	subscriptionId: sandbox.fixtures.subscriptionId,
	subscriptionOutput: 'raw',
	...extra,
});

describe('Timeout', () => {
	test('an answer slower than the timeout fails the item with "did not answer in time", the request not repeated when retries are off', async () => {
		sandbox.setFaults({ on: [1], kinds: ['slow'], slowMs: 5000 });
		const run = await runBilling(
			sandbox,
			getSubscription({ requestOptions: { timeout: 1000 }, faultHandling: { maxRetries: 0 } }),
		);
		expect(run.error?.message).toBe('The Subscription Billing API did not answer in time');
		expect(run.error?.description).toMatch(
			/^nothing received for 1 s \(ETIMEDOUT\) on GET \/api\/v2\/subscriptions\/.*an attempt waits at most 1 s for the server to send anything \(Request Options > Timeout, default 30 s\)/,
		);
		expect(sandbox.requests).toHaveLength(1);
	});

	test('a timed-out read is retried, and the retry that answers in time gives the result', async () => {
		sandbox.setFaults({ on: [1], kinds: ['slow'], slowMs: 5000 });
		const run = await runBilling(sandbox, getSubscription({ requestOptions: { timeout: 1000 } }), {
			retryDelay: 5,
		});
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([
			expect.objectContaining({ subscription_id: sandbox.fixtures.subscriptionId }),
		]);
		expect(sandbox.requests.map((request) => request.path)).toEqual(
			Array(2).fill(`/api/v2/subscriptions/${sandbox.fixtures.subscriptionId}`),
		);
	});
});

describe('Proxy', () => {
	let proxy: Relay;
	beforeAll(async () => {
		proxy = await startProxy();
	});
	afterAll(async () => await proxy.close());
	beforeEach(() => {
		proxy.seen.splice(0);
		proxy.arrivals.splice(0);
	});

	test('every request goes through the proxy: each page of a list, with the key reaching the API', async () => {
		const run = await runBilling(
			sandbox,
			listCustomers({ requestOptions: { proxy: proxy.origin } }),
		);
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(30);
		expect(sandbox.requests).toHaveLength(3);
		expect(proxy.seen).toEqual(sandbox.requests.map((request) => `GET ${request.path}`));
		expect(
			sandbox.requests.every((request) => request.headers['x-service-key'] === sandbox.apiKey),
		).toBe(true);
	});

	test('a write and its retry go through the proxy too', async () => {
		sandbox.setFaults({ on: [1], kinds: ['503'] });
		const run = await runBilling(
			sandbox,
			{
				resource: 'customer',
				operation: 'create',
				name: 'Proxied Ltd',
				requestOptions: { proxy: proxy.origin },
			},
			{ retryDelay: 5 },
		);
		expect(run.error).toBeUndefined();
		expect(proxy.seen).toEqual(['POST /api/v2/customers', 'POST /api/v2/customers']);
		expect(sandbox.requests.map((request) => request.status)).toEqual([503, 201]);
	});

	test('without the option, nothing goes through the proxy', async () => {
		const run = await runBilling(sandbox, getSubscription());
		expect(run.error).toBeUndefined();
		expect(proxy.seen).toEqual([]);
		expect(sandbox.requests).toHaveLength(1);
	});
});

describe('Ignore SSL Issues', () => {
	let front: Relay;
	beforeAll(async () => {
		front = await startTlsFront();
	});
	afterAll(async () => await front.close());
	beforeEach(() => front.seen.splice(0));

	test('a self-signed certificate is refused by default, with a message about the certificate, and not retried', async () => {
		const run = await runBilling(sandbox, getSubscription(), { baseUrl: `${front.origin}/api/v2` });
		expect(run.error?.message).toBe(
			"The Subscription Billing API's TLS certificate is not trusted",
		);
		expect(run.error?.description).toMatch(
			/\(DEPTH_ZERO_SELF_SIGNED_CERT\) on GET \/api\/v2\/subscriptions\/.*Ignore SSL Issues/,
		);
		expect(front.seen).toEqual([]);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('with Ignore SSL Issues the same address answers, every page of a list included', async () => {
		const run = await runBilling(
			sandbox,
			listCustomers({ requestOptions: { allowUnauthorizedCerts: true } }),
			{ baseUrl: `${front.origin}/api/v2` },
		);
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(30);
		expect(front.seen).toHaveLength(3);
		expect(front.seen).toEqual(sandbox.requests.map((request) => `GET ${request.path}`));
	});
});

describe('Batching', () => {
	let proxy: Relay;
	beforeAll(async () => {
		proxy = await startProxy();
	});
	afterAll(async () => await proxy.close());

	test('items are sent in batches of the given size, each batch at least the interval after the one before', async () => {
		const interval = 300;
		const items = Array.from({ length: 5 }, (_, index) => ({ name: `Batch Customer ${index}` }));
		const started = Date.now();
		const run = await runBilling(
			sandbox,
			{
				resource: 'customer',
				operation: 'create',
				name: '={{ $json.name }}',
				// Through the counting proxy, which notes when each request arrives.
				requestOptions: {
					proxy: proxy.origin,
					batching: { batch: { batchSize: 2, batchInterval: interval } },
				},
			},
			{ items },
		);
		expect(run.error).toBeUndefined();
		expect(run.json.map((customer) => customer.name)).toEqual(items.map((item) => item.name));
		expect(run.items.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		expect(proxy.seen).toEqual(Array(5).fill('POST /api/v2/customers'));
		// The engine sleeps the interval before starting each new batch, so the k-th request to arrive
		// (in batch floor(k / 2)) cannot arrive before floor(k / 2) intervals after the run started: a
		// lower bound the sleeps guarantee (less 2 ms a sleep for clock rounding), never a claim about speed.
		const names = sandbox.requests.map((request) => request.body?.name);
		expect([...names].sort()).toEqual(items.map((item) => item.name));
		const sinceStart = proxy.arrivals.map((at) => at - started).sort((a, b) => a - b);
		sinceStart.forEach((elapsed, index) =>
			expect(elapsed).toBeGreaterThanOrEqual(Math.floor(index / 2) * (interval - 2)),
		);
		// Without batching the engine starts every item at once: the last batch's wait is what spreads them.
		expect(sinceStart[4]).toBeGreaterThanOrEqual(2 * (interval - 2));
	});
});
