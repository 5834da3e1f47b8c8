import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IAuthenticateGeneric,
	ICredentialType,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { START_NODE_TYPE, runNode, runWorkflow, shutdownN8nCore } from './harness/index.cjs';

class HarnessTestApi implements ICredentialType {
	name = 'harnessTestApi';
	displayName = 'Harness Test API';
	properties: ICredentialType['properties'] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
		},
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: 'http://127.0.0.1:1' },
		{ displayName: 'Region', name: 'region', type: 'string', default: 'eu' },
	];
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
				'X-Region': '={{$credentials.region}}',
			},
		},
	};
}

class HarnessTest implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Test',
		name: 'harnessTest',
		group: ['transform'],
		version: 1,
		description: 'Declarative node used to test the harness',
		defaults: { name: 'Harness Test' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'harnessTestApi', required: true }],
		requestDefaults: {
			baseURL: '={{$credentials.baseUrl}}',
			headers: { Accept: 'application/json' },
		},
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				default: 'get',
				options: [
					{
						name: 'Get',
						value: 'get',
						action: 'Get a thing',
						routing: { request: { method: 'GET', url: '=/things/{{$parameter.thingId}}' } },
					},
				],
			},
			{ displayName: 'Thing ID', name: 'thingId', type: 'string', default: '', required: true },
		],
	};
}

interface SeenRequest {
	method?: string;
	url?: string;
	headers: http.IncomingHttpHeaders;
}

let server: http.Server;
let baseUrl: string;
const seen: SeenRequest[] = [];

beforeAll(async () => {
	server = http.createServer((req, res) => {
		seen.push({ method: req.method, url: req.url, headers: req.headers });
		const id = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
		const status = id === 'fail' ? 500 : 200;
		res.writeHead(status, { 'content-type': 'application/json' });
		res.end(JSON.stringify(status === 200 ? { id, name: `Thing ${id}` } : { message: 'boom' }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

beforeEach(() => {
	seen.length = 0;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
	shutdownN8nCore();
});

const base = () => ({
	nodeType: new HarnessTest(),
	credentialType: new HarnessTestApi(),
	credentials: { apiKey: 'secret-key', baseUrl },
});

describe('test harness', () => {
	it('sends the request with generic auth and returns the response as items', async () => {
		const result = await runNode({ ...base(), parameters: { operation: 'get', thingId: 'abc' } });

		expect(result.error).toBeUndefined();
		expect(seen).toHaveLength(1);
		expect(seen[0].method).toBe('GET');
		expect(seen[0].url).toBe('/api/things/abc');
		expect(seen[0].headers.authorization).toBe('Bearer secret-key');
		expect(seen[0].headers['x-region']).toBe('eu'); // credential default filled in by getDecrypted
		expect(result.items.map((i) => i.json)).toEqual([{ id: 'abc', name: 'Thing abc' }]);
		expect(result.run.status).toBe('success');
		expect(result.logs.some((line) => line.includes('Harness Test'))).toBe(true);
	});

	it('makes one request per input item', async () => {
		const result = await runNode({
			...base(),
			parameters: { operation: 'get', thingId: '={{ $json.id }}' },
			items: [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
		});

		expect(result.error).toBeUndefined();
		expect(seen.map((r) => r.url).sort()).toEqual([
			'/api/things/a',
			'/api/things/b',
			'/api/things/c',
		]);
		expect(result.items.map((i) => i.json.id)).toEqual(['a', 'b', 'c']);
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('resolves with the node error on a server 500', async () => {
		const result = await runNode({ ...base(), parameters: { operation: 'get', thingId: 'fail' } });

		expect(result.items).toEqual([]);
		expect(result.error).toBeInstanceOf(Error);
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.httpCode).toBe('500');
		expect(result.error?.message).toBe('The service was not able to process your request');
		expect(result.error?.description).toBe('boom');
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(result.run.data.resultData.error).toBeDefined();
		expect(result.run.status).toBe('error');
	});

	it('returns an error item with continueOnFail', async () => {
		const result = await runNode({
			...base(),
			parameters: { operation: 'get', thingId: '={{ $json.id }}' },
			items: [{ id: 'ok' }, { id: 'fail' }],
			continueOnFail: true,
		});

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		expect(result.items[0].json).toEqual({ id: 'ok', name: 'Thing ok' });
		expect(result.items[1].error).toBeDefined();
		expect(typeof result.items[1].json.error).toBe('string');
	});

	it('runs chained workflows with runWorkflow', async () => {
		const credentials = { 'cred-1': { apiKey: 'chain-key', baseUrl } };
		const nodeCredentials = { harnessTestApi: { id: 'cred-1', name: 'Test' } };
		const link = (node: string) => ({
			main: [[{ node, type: NodeConnectionTypes.Main, index: 0 }]],
		});
		const result = await runWorkflow({
			nodeTypes: [new HarnessTest()],
			credentialTypes: [new HarnessTestApi()],
			credentials,
			startItems: [{ id: 'x' }],
			workflow: {
				nodes: [
					{
						id: '1',
						name: 'Start',
						type: START_NODE_TYPE,
						typeVersion: 1,
						position: [0, 0],
						parameters: {},
					},
					{
						id: '2',
						name: 'First',
						type: 'harnessTest',
						typeVersion: 1,
						position: [200, 0],
						parameters: { operation: 'get', thingId: '={{ $json.id }}' },
						credentials: nodeCredentials,
					},
					{
						id: '3',
						name: 'Second',
						type: 'harnessTest',
						typeVersion: 1,
						position: [400, 0],
						parameters: { operation: 'get', thingId: '={{ $json.name }}' },
						credentials: nodeCredentials,
					},
				],
				connections: { Start: link('First'), First: link('Second') },
			},
		});

		expect(result.errorOf('Second')).toBeUndefined();
		expect(seen.map((r) => r.url)).toEqual(['/api/things/x', '/api/things/Thing%20x']);
		expect(seen.every((r) => r.headers.authorization === 'Bearer chain-key')).toBe(true);
		expect(result.outputOf('Second').map((i) => i.json)).toEqual([
			{ id: 'Thing x', name: 'Thing Thing x' },
		]);
	});
});
