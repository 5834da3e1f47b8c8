/**
 * Trust: the key goes only to the credential's base URL, over https unless that is this machine.
 * A foreign `next` link or a redirect is not followed; an http base URL to another host is refused
 * (also by the credential test); only the API Key field of the credential is a secret field.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import {
	NodeHelpers,
	type ICredentialTestFunctions,
	type IDataObject,
	type INode,
	type INodeCredentialTestResult,
} from 'n8n-workflow';
import { SubscriptionBillingApi } from '../credentials/SubscriptionBillingApi.credentials';
import { SubscriptionBilling } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { SubscriptionBillingTrigger } from '../nodes/SubscriptionBilling/SubscriptionBillingTrigger.node';
import {
	CREDENTIAL_TEST_MESSAGES,
	testApiCredential,
} from '../nodes/SubscriptionBilling/shared/credentialTest';
import { apiBaseUrl } from '../nodes/SubscriptionBilling/shared/apiCredentials';
import { runBilling, startSandbox, type Sandbox } from './helpers/billing.cjs';
import { shutdownN8nCore } from './harness/index.cjs';

interface Recorded {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
}

interface TinyServer {
	origin: string;
	requests: Recorded[];
	close(): Promise<void>;
}

/** A throwaway HTTP server on 127.0.0.1 that records every request and answers with `handle`. */
async function tinyServer(
	handle: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<TinyServer> {
	const requests: Recorded[] = [];
	const server = http.createServer((req, res) => {
		requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
		req.resume();
		req.on('end', () => handle(req, res));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		requests,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

function json(
	res: http.ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
) {
	res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
	res.end(JSON.stringify(body));
}

let sandbox: Sandbox;
let foreign: TinyServer;

beforeAll(async () => {
	sandbox = await startSandbox();
	foreign = await tinyServer((_req, res) => json(res, 200, { results: [], next: null }));
});
beforeEach(() => {
	sandbox.reset();
	foreign.requests.length = 0;
});
afterAll(async () => {
	await Promise.all([sandbox.close(), foreign.close()]);
	shutdownN8nCore();
});

describe('the key is not sent to another origin', () => {
	let api: TinyServer;
	beforeAll(async () => {
		api = await tinyServer((req, res) => {
			if (req.url?.startsWith('/api/v2/customers?limit=2&offset=2')) {
				json(res, 200, {
					count: 4,
					next: null,
					previous: null,
					results: [{ customer_id: 'c-3' }, { customer_id: 'c-4' }],
				});
			} else if (req.url?.startsWith('/api/v2/customers')) {
				json(res, 200, {
					count: 4,
					next: `${foreign.origin}/api/v2/customers?limit=2&offset=2`,
					previous: null,
					results: [{ customer_id: 'c-1' }, { customer_id: 'c-2' }],
				});
			} else if (req.url?.startsWith('/api/v2/plans')) {
				json(res, 200, {
					count: 4,
					next: `${foreign.origin}/internal/plans?limit=2&offset=2`,
					previous: null,
					results: [{ plan_id: 'p-1' }, { plan_id: 'p-2' }],
				});
			} else if (req.url?.startsWith('/api/v2/subscriptions/moved')) {
				res.writeHead(req.method === 'GET' ? 302 : 307, {
					Location: `${foreign.origin}/api/v2/subscriptions/moved?token=abc`,
				});
				res.end();
			} else {
				json(res, 404, { error: { code: 'ERR_NOT_FOUND', message: 'Not here.' } });
			}
		});
	});
	afterAll(() => api.close());
	beforeEach(() => {
		api.requests.length = 0;
	});

	test("a next link naming another host is read from the credential's host (its path lies under the base URL's); the other host receives nothing", async () => {
		const run = await runBilling(
			sandbox,
			{ resource: 'customer', operation: 'getMany', returnAll: true },
			{ baseUrl: `${api.origin}/api/v2` },
		);
		expect(run.error).toBeUndefined();
		expect(run.json.map((customer) => customer.customer_id)).toEqual(['c-1', 'c-2', 'c-3', 'c-4']);
		expect(api.requests.map((request) => request.url)).toEqual([
			'/api/v2/customers?limit=1000',
			'/api/v2/customers?limit=2&offset=2',
		]);
		for (const request of api.requests)
			expect(request.headers['x-service-key']).toBe(sandbox.apiKey);
		expect(foreign.requests).toHaveLength(0);
	});

	test("a next link outside the base URL's path is not followed: a message naming the link and what to do; nobody else receives anything", async () => {
		const run = await runBilling(
			sandbox,
			{ resource: 'plan', operation: 'getMany', returnAll: true },
			{ baseUrl: `${api.origin}/api/v2` },
		);
		expect(run.error?.message).toBe(
			"Stopped paging: the API's next-page link is outside the base URL",
		);
		expect(run.error?.description).toBe(
			`The API sent "next": "${foreign.origin}/internal/plans?limit=2&offset=2". Its path /internal/plans is not under /api/v2, the path of the credential's base URL ${api.origin}/api/v2, so it was not followed and the API key was not sent there. If the API is served at the address its links use, set the credential's base URL to it (ending in /api/v2); if a proxy in front of the API changes the path, have it rewrite the links it passes on.`,
		);
		expect(api.requests).toHaveLength(1);
		expect(foreign.requests).toHaveLength(0);
	});

	test.each([
		['GET (302)', { resource: 'subscription', operation: 'get', subscriptionId: 'moved' }, 302],
		[
			'POST (307)',
			{
				resource: 'subscription',
				operation: 'getSignUrl',
				subscriptionId: 'moved',
				redirectUrl: 'https://example.com/done',
			},
			307,
		],
	])('a redirect is not followed: %s', async (_name, parameters, status) => {
		const run = await runBilling(sandbox, parameters, { baseUrl: `${api.origin}/api/v2` });
		expect(run.error?.message).toBe(
			`HTTP ${status}: the API answered with a redirect, which is not followed`,
		);
		expect(run.error?.description).toContain(`to ${foreign.origin}/api/v2/subscriptions/moved.`);
		expect(run.error?.description).not.toContain('token=abc');
		expect(api.requests).toHaveLength(1);
		expect(foreign.requests).toHaveLength(0);
	});
});

describe('the base URL must be https unless it is this machine', () => {
	const refusal = "The credential's base URL must use https";

	test('http to another host is refused with a clear message', async () => {
		const run = await runBilling(
			sandbox,
			{ resource: 'plan', operation: 'getMany', returnAll: true },
			{ baseUrl: 'http://example.com/api/v2' },
		);
		expect(run.error?.message).toBe(refusal);
		expect(run.error?.description).toBe(
			'"http://example.com" is not https; only addresses on this machine (localhost, 127.0.0.1) may use http. The API key is never sent over plain http to another host.',
		);
		expect(run.items).toHaveLength(0);
	});

	test('nothing is sent: an http address by another name than loopback is refused even when it would reach the sandbox', async () => {
		const address = `http://0.0.0.0:${new URL(sandbox.baseUrl).port}`;
		const control = await fetch(`${address}/api/v2/plans`, {
			headers: { 'X-SERVICE-KEY': 'control' },
		});
		expect(control.status).toBe(401); // the address does reach the sandbox
		sandbox.clearRequests();
		const run = await runBilling(
			sandbox,
			{ resource: 'plan', operation: 'getMany', returnAll: true },
			{ baseUrl: `${address}/api/v2` },
		);
		expect(run.error?.message).toBe(refusal);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('http on loopback is accepted (127.0.0.1 and localhost)', async () => {
		const port = new URL(sandbox.baseUrl).port;
		for (const host of ['127.0.0.1', 'localhost']) {
			const run = await runBilling(
				sandbox,
				{ resource: 'plan', operation: 'getMany', returnAll: true },
				{ baseUrl: `http://${host}:${port}/api/v2/` },
			);
			expect(run.error).toBeUndefined();
			expect(run.items.length).toBeGreaterThan(0);
		}
	});

	test('https is accepted: the node connects and starts TLS', async () => {
		const firstBytes: number[] = [];
		const server = net.createServer((socket) => {
			// Closed once the first bytes arrived (not on a timer: a loaded machine may send them late).
			socket.once('data', (data) => {
				firstBytes.push(data[0]);
				socket.destroy();
			});
			socket.on('error', () => undefined);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		try {
			const run = await runBilling(
				sandbox,
				{
					resource: 'plan',
					operation: 'getMany',
					returnAll: true,
					faultHandling: { maxRetries: 0 },
				},
				{ baseUrl: `https://localhost:${port}/api/v2` },
			);
			expect(run.error?.message).not.toBe(refusal);
			expect(run.error?.message).toBe(
				'The connection to the Subscription Billing API broke before the answer was complete',
			);
			expect(firstBytes).toEqual([0x16]); // a TLS handshake record, not a plain HTTP request
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});

	const node = { name: 'Subscription Billing' } as INode;
	test.each([
		['https://billing.example.com/api/v2/', 'https://billing.example.com/api/v2'],
		['  https://billing.example.com/api/v2  ', 'https://billing.example.com/api/v2'],
		['http://127.0.0.1:8080/api/v2', 'http://127.0.0.1:8080/api/v2'],
		['http://127.8.9.10/api/v2', 'http://127.8.9.10/api/v2'],
		['http://localhost:3000/api/v2', 'http://localhost:3000/api/v2'],
		['http://[::1]:3000/api/v2', 'http://[::1]:3000/api/v2'],
	])('accepted: %s', (raw, normalized) => {
		expect(apiBaseUrl(node, raw, 0)).toBe(normalized);
		expect(apiBaseUrl(node, raw, 1)).toBe(normalized);
	});
	test.each([
		['http://example.com/api/v2', refusal],
		['http://localhost.example.com/api/v2', refusal],
		['http://127.0.0.1.nip.io/api/v2', refusal],
		['http://127.0.0.1@example.com/api/v2', refusal],
		['http://10.0.0.5/api/v2', refusal],
		['ftp://billing.example.com/api/v2', refusal],
		['', 'The credential has no valid base URL for the chosen environment'],
		[
			'billing.example.com/api/v2',
			'The credential has no valid base URL for the chosen environment',
		],
	])('refused: %p', (raw, message) => {
		// refused every time it is asked, never remembered as accepted
		expect(() => apiBaseUrl(node, raw, 0)).toThrow(message);
		expect(() => apiBaseUrl(node, raw, 1)).toThrow(message);
	});
});

describe('credential', () => {
	const credential = new SubscriptionBillingApi();

	test('only the API Key is a password field, and no other field holds a key', () => {
		const secrets = credential.properties.filter((property) => property.typeOptions?.password);
		expect(secrets.map((property) => property.name)).toEqual(['apiKey']);
		expect(secrets[0].default).toBe('');
		const others = credential.properties.filter((property) => property.name !== 'apiKey');
		expect(others.map((property) => [property.name, property.type, property.default])).toEqual([
			['environment', 'options', 'production'],
			['productionBaseUrl', 'string', ''],
			['productionBaseUrlHttpsNotice', 'notice', ''],
			['stagingBaseUrl', 'string', ''],
			['stagingBaseUrlHttpsNotice', 'notice', ''],
		]);
		expect(credential.authenticate).toEqual({
			type: 'generic',
			properties: { headers: { 'X-SERVICE-KEY': '={{$credentials.apiKey}}' } },
		});
	});

	/**
	 * What the credential dialog shows: n8n's CredentialsTester (credentials-tester.service.js) uses a
	 * credential's own `test` first, else the `methods.credentialTest` function a node names in
	 * `testedBy`, and shows the message it returns.
	 */
	function dialogResult(data: IDataObject): Promise<INodeCredentialTestResult> {
		const test = new SubscriptionBilling().methods.credentialTest.subscriptionBillingApiTest;
		const context = { logger: console, helpers: {} } as unknown as ICredentialTestFunctions;
		return test.call(context, {
			id: 'c1',
			name: 'Subscription Billing account',
			type: credential.name,
			data: { apiKey: sandbox.apiKey, environment: 'production', ...data },
		});
	}

	test('both nodes name the credential test, and the credential has no request test of its own that n8n would use instead', () => {
		expect('test' in credential).toBe(false);
		for (const node of [new SubscriptionBilling(), new SubscriptionBillingTrigger()]) {
			expect(node.description.credentials).toEqual([
				{ name: credential.name, required: true, testedBy: 'subscriptionBillingApiTest' },
			]);
			expect(node.methods.credentialTest.subscriptionBillingApiTest).toBe(testApiCredential);
		}
	});

	test('the test lists one customer with the key, on a loopback http sandbox, for either environment', async () => {
		const production = await dialogResult({ productionBaseUrl: `${sandbox.baseUrl}/` });
		const staging = await dialogResult({
			environment: 'staging',
			productionBaseUrl: 'https://unused.invalid',
			stagingBaseUrl: sandbox.baseUrl,
		});
		for (const result of [production, staging])
			expect(result).toEqual({ status: 'OK', message: 'Connection successful' });
		expect(
			sandbox.requests.map((request) => [
				request.method,
				request.path,
				request.rawQuery,
				request.headers['x-service-key'],
			]),
		).toEqual([
			['GET', '/api/v2/customers', 'limit=1', sandbox.apiKey],
			['GET', '/api/v2/customers', 'limit=1', sandbox.apiKey],
		]);
	});

	test('the dialog: a wrong key says the key was not accepted and what to check', async () => {
		await expect(
			dialogResult({ productionBaseUrl: sandbox.baseUrl, apiKey: 'sbx_wrong_key_1234' }),
		).resolves.toEqual({
			status: 'Error',
			message:
				'The API key was not accepted (ERR_UNAUTHORIZED): check the API Key, and that it belongs to the environment chosen in Environment (Production or Staging)',
		});
		expect(sandbox.requests.map((request) => `${request.path} ${request.status}`)).toEqual([
			'/api/v2/customers 401',
		]);
	});

	test("the dialog: an address that is not the API (no /api/v2, answered 404 in the API's error format) says the Base URL must end in /api/v2, as a run does", async () => {
		const origin = sandbox.baseUrl.replace(/\/api\/v2$/, '');
		const result = await dialogResult({ productionBaseUrl: origin });
		expect(result).toEqual({
			status: 'Error',
			message: `The credential's base URL ${origin} does not end in /api/v2: set it to the API's address ending in /api/v2 (for example https://billing.example.com/api/v2) (HTTP 404)`,
		});
		expect(sandbox.requests.map((request) => `${request.path} ${request.status}`)).toEqual([
			'/customers 404',
		]);
	});

	test('the dialog: no base URL, or one where nothing answers, says which base URL to check', async () => {
		await expect(dialogResult({ productionBaseUrl: '' })).resolves.toEqual({
			status: 'Error',
			message:
				"Set the Production Base URL to the API's address, such as https://billing.example.com/api/v2",
		});
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise((resolve) => closed.close(resolve));
		await expect(
			dialogResult({ environment: 'staging', stagingBaseUrl: `http://127.0.0.1:${port}/api/v2` }),
		).resolves.toEqual({
			status: 'Error',
			message: `Could not connect to http://127.0.0.1:${port} (ECONNREFUSED): check the Staging Base URL and that the API can be reached from n8n`,
		});
	});

	test('the dialog: a redirect is not followed with the key; it says to use the address redirected to', async () => {
		const redirecting = http.createServer((request, response) => {
			response.writeHead(301, { location: `${sandbox.baseUrl}/customers?limit=1` });
			response.end();
		});
		await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
		try {
			const result = await dialogResult({
				productionBaseUrl: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/api/v2`,
			});
			expect(result).toEqual({
				status: 'Error',
				message: `The Base URL answered with a redirect to ${sandbox.baseUrl}/customers?limit=1 (HTTP 301): the key is not sent on, so set the Base URL to the API's own address, ending in /api/v2`,
			});
			expect(sandbox.requests).toHaveLength(0);
		} finally {
			await new Promise((resolve) => redirecting.close(resolve));
		}
	});

	test("the test goes through the nodes' transport: a redirect is answered once, its address shown with the key redacted, and nothing follows it", async () => {
		const key = 'sbx_echoed_key_5678';
		const echoing = await tinyServer((_req, res) => {
			res.writeHead(302, { location: `${foreign.origin}/api/v2/customers?key=${key}` });
			res.end();
		});
		try {
			const result = await dialogResult({
				productionBaseUrl: `${echoing.origin}/api/v2`,
				apiKey: key,
			});
			expect(result).toEqual({
				status: 'Error',
				message: `The Base URL answered with a redirect to ${foreign.origin}/api/v2/customers?key=[redacted] (HTTP 302): the key is not sent on, so set the Base URL to the API's own address, ending in /api/v2`,
			});
			expect(
				echoing.requests.map((request) => [
					request.method,
					request.url,
					request.headers['x-service-key'],
					request.headers.accept,
				]),
			).toEqual([['GET', '/api/v2/customers?limit=1', key, 'application/json']]);
			expect(foreign.requests).toHaveLength(0);
		} finally {
			await echoing.close();
		}
	});

	test('the test is one attempt: an API that answers 503 is asked once, and the dialog says it did not answer with the list', async () => {
		const unavailable = await tinyServer((_req, res) =>
			json(
				res,
				503,
				{ error: { code: 'ERR_UNAVAILABLE', message: 'down for maintenance' } },
				{ 'Retry-After': '0' },
			),
		);
		try {
			const result = await dialogResult({ productionBaseUrl: `${unavailable.origin}/api/v2` });
			expect(result).toEqual({
				status: 'Error',
				message: `${CREDENTIAL_TEST_MESSAGES.notTheList} (HTTP 503)`,
			});
			expect(unavailable.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
				'GET /api/v2/customers?limit=1',
			]);
		} finally {
			await unavailable.close();
		}
	});

	test('the dialog shows, under an http base URL on another host, that https is required (and nothing is sent)', async () => {
		const shown = (data: IDataObject) =>
			credential.properties
				.filter((property) => property.type === 'notice')
				.filter((property) =>
					NodeHelpers.displayParameter(
						{ environment: 'production', ...data },
						property,
						{ parameters: {} } as INode,
						new SubscriptionBilling().description,
					),
				)
				.map((property) => property.displayName);
		expect(shown({ productionBaseUrl: 'http://billing.example.com/api/v2' })).toEqual([
			expect.stringMatching(/^This base URL must use https/),
		]);
		expect(
			shown({
				environment: 'staging',
				stagingBaseUrl: 'HTTP://10.0.0.5/api/v2',
				productionBaseUrl: 'https://ok.example.com',
			}),
		).toHaveLength(1);
		for (const fine of [
			'https://billing.example.com/api/v2',
			'http://127.0.0.1:8080/api/v2',
			'http://localhost/api/v2',
			'',
		]) {
			expect(shown({ productionBaseUrl: fine })).toEqual([]);
		}
		expect(
			shown({
				environment: 'staging',
				productionBaseUrl: 'http://billing.example.com/api/v2',
				stagingBaseUrl: 'https://s.example.com',
			}),
		).toEqual([]);
		const result = await dialogResult({ productionBaseUrl: 'http://billing.example.com/api/v2' });
		expect(result).toEqual({
			status: 'Error',
			message:
				'The Production Base URL must use https: http://billing.example.com is plain http on another machine, and the API key is never sent over http off this machine (only localhost and 127.0.0.1 may use http). Change it to https://… — the key was not sent.',
		});
		expect(sandbox.requests).toHaveLength(0);
	});

	test('the test never sends the key over http to another host, wherever it points', async () => {
		const address = `http://0.0.0.0:${new URL(sandbox.baseUrl).port}/api/v2`;
		const result = await dialogResult({ productionBaseUrl: address });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The Production Base URL must use https: http:\/\/0\.0\.0\.0:\d+ is plain http on another machine/,
		);
		expect(sandbox.requests).toHaveLength(0);
	});
});
