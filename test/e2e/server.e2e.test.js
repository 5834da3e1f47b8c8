'use strict';
// The package in a running n8n server (`n8n start`): its node types are served to the editor,
// and the credential test (`POST /rest/credentials/test`) passes with the right key and fails
// with a wrong one.
const {
	NODE_TYPE,
	CREDENTIAL_TYPE,
	credentialFor,
	startEnvironment,
	requestsOf,
	builtNodeDescription,
	expectedOperations,
} = require('./helpers');

let env;
let sandbox;
let n8n;

beforeAll(async () => {
	env = await startEnvironment({ name: 'e2e-server' });
	({ sandbox, n8n } = env);
	await n8n.start();
	await n8n.setupOwner();
});

afterAll(async () => {
	await env?.close();
});

describe('node and credential types', () => {
	let types;
	beforeAll(async () => {
		const r = await n8n.rest('GET', '/types/nodes.json');
		expect(r.status).toBe(200);
		types = r.body;
	});

	test('the node and its tool variant are served in /types/nodes.json', () => {
		const ours = types
			.filter((t) => t.name.startsWith(`${NODE_TYPE.split('.')[0]}.`))
			.map((t) => t.name)
			.sort();
		expect(ours).toEqual([NODE_TYPE, `${NODE_TYPE}Tool`, `${NODE_TYPE}Trigger`]);
		const node = types.find((t) => t.name === NODE_TYPE);
		const tool = types.find((t) => t.name === `${NODE_TYPE}Tool`);
		expect(node.credentials).toEqual([
			expect.objectContaining({ name: CREDENTIAL_TYPE, required: true }),
		]);
		expect(tool.outputs).toEqual(['ai_tool']);
		expect(tool.credentials).toEqual(node.credentials);
		// the node's own tool Description, one per operation, and no "Tool Description" choice of n8n's
		const operations = Object.values(expectedOperations(builtNodeDescription())).reduce(
			(count, resource) => count + resource.operations.length,
			0,
		);
		expect(
			tool.properties.filter(
				(p) => p.name === 'toolDescription' && p.displayOptions.show['@tool'][0] === true,
			),
		).toHaveLength(operations);
		expect(tool.properties.filter((p) => p.name === 'descriptionType')).toEqual([]);
	});

	test('the served node has the resources and operations of the built description', () => {
		const node = types.find((t) => t.name === NODE_TYPE);
		expect(expectedOperations(node)).toEqual(expectedOperations(builtNodeDescription()));
	});

	test('the credential type is served in /types/credentials.json', async () => {
		const r = await n8n.rest('GET', '/types/credentials.json');
		expect(r.status).toBe(200);
		const credential = r.body.find((c) => c.name === CREDENTIAL_TYPE);
		expect(credential).toBeDefined();
		expect(credential.properties.map((p) => p.name)).toEqual(
			expect.arrayContaining(['apiKey', 'environment', 'productionBaseUrl', 'stagingBaseUrl']),
		);
	});
});

describe('credential test through the server', () => {
	let stored;
	beforeAll(async () => {
		const { data } = credentialFor(sandbox);
		const r = await n8n.rest('POST', '/rest/credentials', {
			name: 'Sandbox',
			type: CREDENTIAL_TYPE,
			data,
		});
		expect(r.status).toBe(200);
		stored = { id: r.body.data.id, name: 'Sandbox', type: CREDENTIAL_TYPE, data };
	});

	beforeEach(() => sandbox.clearRequests());

	test('succeeds with the right key', async () => {
		const r = await n8n.rest('POST', '/rest/credentials/test', { credentials: stored });
		expect(r.status).toBe(200);
		expect(r.body.data).toEqual({ status: 'OK', message: expect.any(String) });
		const requests = requestsOf(sandbox);
		expect(requests.map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual([
			'GET /customers 200',
		]);
		expect(requests[0].apiKey).toBe(sandbox.apiKey);
	});

	test('fails with a wrong key', async () => {
		const wrong = { ...stored, data: { ...stored.data, apiKey: 'sbx_wrong_key_1234' } };
		const r = await n8n.rest('POST', '/rest/credentials/test', { credentials: wrong });
		expect(r.status).toBe(200);
		expect(r.body.data.status).toBe('Error');
		// the real cause, not n8n's generic "Authorization failed"
		expect(r.body.data.message).toBe(
			'The API key was not accepted (ERR_UNAUTHORIZED): check the API Key, and that it belongs to the environment chosen in Environment (Production or Staging)',
		);
		const requests = requestsOf(sandbox);
		expect(requests.length).toBeGreaterThan(0);
		expect(requests.every((q) => q.status === 401 && q.apiKey === 'sbx_wrong_key_1234')).toBe(true);
	});

	test('fails with a base URL that is not the API (no /api/v2), saying to check it, never "successful"', async () => {
		const notTheApi = {
			...stored,
			data: {
				...stored.data,
				productionBaseUrl: stored.data.productionBaseUrl.replace(/\/api\/v2$/, ''),
			},
		};
		const r = await n8n.rest('POST', '/rest/credentials/test', { credentials: notTheApi });
		expect(r.status).toBe(200);
		expect(r.body.data.status).toBe('Error');
		expect(r.body.data.message).toMatch(
			/^The credential's base URL http:\/\/127\.0\.0\.1:\d+ does not end in \/api\/v2: set it to the API's address ending in \/api\/v2 .*\(HTTP 404\)$/,
		);
		expect(requestsOf(sandbox).map((q) => q.status)).toEqual([404]);
	});

	test('an http base URL on another host: says https is required (the scheme, not the host), and sends nothing', async () => {
		const plainHttp = {
			...stored,
			data: { ...stored.data, productionBaseUrl: 'http://billing.example.com/api/v2' },
		};
		const r = await n8n.rest('POST', '/rest/credentials/test', { credentials: plainHttp });
		expect(r.status).toBe(200);
		expect(r.body.data).toEqual({
			status: 'Error',
			message:
				'The Production Base URL must use https: http://billing.example.com is plain http on another machine, and the API key is never sent over http off this machine (only localhost and 127.0.0.1 may use http). Change it to https://… — the key was not sent.',
		});
		expect(requestsOf(sandbox)).toEqual([]);
	});

	test('fails with a base URL where no API answers', async () => {
		const nowhere = {
			...stored,
			data: { ...stored.data, productionBaseUrl: 'http://127.0.0.1:9/api/v2' },
		};
		const r = await n8n.rest('POST', '/rest/credentials/test', { credentials: nowhere });
		expect(r.status).toBe(200);
		expect(r.body.data).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/^Could not connect to http:\/\/127\.0\.0\.1:9 .*check the Production Base URL/,
			),
		});
		expect(requestsOf(sandbox)).toEqual([]);
	});
});
