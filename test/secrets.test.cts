/**
 * The API key never leaks: not in output items, error messages or descriptions (including
 * non-enumerable properties and `cause` chains), nor in anything n8n logged during the run,
 * across successes, API errors, network faults, validation errors, trust refusals, and an API
 * that echoes the key back.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INodeParameters } from 'n8n-workflow';
import { runBilling, startSandbox, type BillingRun, type Sandbox } from './helpers/billing.cjs';
import { shutdownN8nCore } from './harness/index.cjs';

const KEY = 'sbx_LEAKCHECK_7f3e9d2c1b0a4e5f';
const WRONG_KEY = 'sbx_WRONGKEY_0a1b2c3d4e5f6a7b';

/**
 * Everything reachable from a value, as text: own properties including non-enumerable ones
 * (an Error's message, stack and cause), through nested objects, arrays and `cause` chains.
 */
function everything(value: unknown): string {
	const seen = new WeakSet<object>();
	const parts: string[] = [];
	const visit = (entry: unknown, depth: number) => {
		if (depth > 40 || entry === null || entry === undefined) return;
		if (typeof entry === 'string') return void parts.push(entry);
		if (typeof entry !== 'object') return void parts.push(String(entry));
		if (seen.has(entry)) return;
		seen.add(entry);
		for (const name of Object.getOwnPropertyNames(entry)) {
			parts.push(name);
			const descriptor = Object.getOwnPropertyDescriptor(entry, name);
			if (descriptor && 'value' in descriptor && typeof descriptor.value !== 'function')
				visit(descriptor.value, depth + 1);
		}
	};
	visit(value, 0);
	return parts.join('\n');
}

/** What a run captured: items, the error (serialized and walked), the whole run data and the logs. */
function captured(run: BillingRun): string {
	return [
		JSON.stringify(run.items),
		JSON.stringify(run.error),
		everything(run.error),
		everything(run.run),
		run.logs.join('\n'),
	].join('\n');
}

let sandbox: Sandbox;
let echo: { baseUrl: string; close(): Promise<void>; keysSeen: string[] };

/** An API that echoes the key it receives: in a result, in an error message and id, in a text error. */
async function startEcho() {
	const keysSeen: string[] = [];
	const server = http.createServer((req, res) => {
		const key = String(req.headers['x-service-key'] ?? '');
		keysSeen.push(key);
		req.resume();
		const send = (status: number, body: unknown, type = 'application/json') => {
			res.writeHead(status, { 'Content-Type': type });
			res.end(typeof body === 'string' ? body : JSON.stringify(body));
		};
		if (req.url?.endsWith('/echo-ok'))
			send(200, {
				subscription_id: 'echo-ok',
				note: `received ${key}`,
				nested: { headers: { 'x-service-key': key } },
			});
		else if (req.url?.endsWith('/echo-error'))
			send(403, {
				error: { code: 'ERR_FORBIDDEN', message: `Key ${key} may not do this`, error_id: key },
			});
		else send(500, `upstream rejected key ${key}`, 'text/plain');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/api/v2`,
		keysSeen,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

beforeAll(async () => {
	sandbox = await startSandbox({ apiKey: KEY });
	echo = await startEcho();
});
beforeEach(() => {
	sandbox.reset();
	sandbox.setFaults(null);
});
afterAll(async () => {
	await Promise.all([sandbox.close(), echo.close()]);
	shutdownN8nCore();
});

const get = (subscriptionId: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'subscription',
	operation: 'get',
	subscriptionId,
	...extra,
});

interface Scenario {
	parameters: () => INodeParameters;
	faults?: Parameters<Sandbox['setFaults']>[0];
	options?: Parameters<typeof runBilling>[2];
	/** Whether the run must succeed (true) or fail (false); undefined when Continue On Fail mixes both. */
	succeeds?: boolean;
	/** Whether the key was sent to the sandbox (so that not finding it proves something). */
	sent: boolean;
}

const scenarios: Record<string, Scenario> = {
	'a successful get': {
		parameters: () => get(sandbox.fixtures.subscriptionId),
		succeeds: true,
		sent: true,
	},
	'a successful Return All': {
		parameters: () => ({
			resource: 'invoice',
			operation: 'getManyForCustomer',
			customerId: sandbox.fixtures.bigCustomerId,
			returnAll: true,
		}),
		succeeds: true,
		sent: true,
	},
	'a successful write': {
		parameters: () => ({ resource: 'customer', operation: 'create', name: 'Leak Check Ltd' }),
		succeeds: true,
		sent: true,
	},
	'API error 404': { parameters: () => get('no-such-subscription'), succeeds: false, sent: true },
	'API error 400 on a write': {
		parameters: () => ({
			resource: 'customer',
			operation: 'create',
			name: sandbox.fixtures.customerName,
		}),
		succeeds: false,
		sent: true,
	},
	'API error 401 (a wrong key)': {
		parameters: () => get(sandbox.fixtures.subscriptionId),
		options: { apiKey: WRONG_KEY },
		succeeds: false,
		sent: false,
	},
	'injected 403 with error id': {
		parameters: () => get(sandbox.fixtures.subscriptionId),
		faults: { on: [1], kinds: ['403'] },
		succeeds: false,
		sent: true,
	},
	'502 with an HTML body, retried then given up': {
		parameters: () =>
			get(sandbox.fixtures.subscriptionId, { faultHandling: { maxRetries: 1, retryDelay: 1 } }),
		faults: { rate: 1, kinds: ['502'] },
		succeeds: false,
		sent: true,
	},
	'a dropped connection, retried (logged) then given up': {
		parameters: () =>
			get(sandbox.fixtures.subscriptionId, { faultHandling: { maxRetries: 2, retryDelay: 1 } }),
		faults: { rate: 1, kinds: ['drop'] },
		succeeds: false,
		sent: true,
	},
	'a timeout': {
		parameters: () =>
			get(sandbox.fixtures.subscriptionId, {
				faultHandling: { maxRetries: 0 },
				requestOptions: { timeout: 100 },
			}),
		faults: { on: [1], kinds: ['slow'], slowMs: 300 },
		succeeds: false,
		sent: true,
	},
	'a cut-off body on a write without key': {
		parameters: () => ({
			resource: 'customer',
			operation: 'create',
			name: 'Cut Off Ltd',
			faultHandling: { idempotency: 'off' },
		}),
		faults: { on: [1], kinds: ['truncate'] },
		succeeds: false,
		sent: true,
	},
	'faults survived by a keyed write': {
		parameters: () => ({
			resource: 'customer',
			operation: 'create',
			name: 'Survivor Ltd',
			faultHandling: { retryDelay: 1 },
		}),
		faults: { on: [1, 2], kinds: ['truncate', '503'], retryAfterSeconds: 0 },
		succeeds: true,
		sent: true,
	},
	'a refused connection': {
		parameters: () => get('sub-1', { faultHandling: { maxRetries: 1, retryDelay: 1 } }),
		options: { baseUrl: 'http://127.0.0.1:1/api/v2' },
		succeeds: false,
		sent: false,
	},
	'a validation error': { parameters: () => get('../customers'), succeeds: false, sent: false },
	'Continue On Fail with good, bad and missing items': {
		parameters: () => get('={{ $json.id }}'),
		options: {
			items: [{ id: 'FIXTURE' }, { id: 'a/b' }, { id: 'no-such-subscription' }],
			continueOnFail: true,
		},
		sent: true,
	},
	'an http base URL to another host': {
		parameters: () => get('sub-1'),
		options: { baseUrl: 'http://example.com/api/v2' },
		succeeds: false,
		sent: false,
	},
	'an API that echoes the key in a result': {
		parameters: () => get('echo-ok', { subscriptionOutput: 'raw' }),
		options: { baseUrl: 'ECHO' },
		succeeds: true,
		sent: false,
	},
	'an API that echoes the key in an error message and error id': {
		parameters: () => get('echo-error'),
		options: { baseUrl: 'ECHO' },
		succeeds: false,
		sent: false,
	},
	'an API that echoes the key in a text error body': {
		parameters: () => get('echo-text', { faultHandling: { maxRetries: 1, retryDelay: 1 } }),
		options: { baseUrl: 'ECHO' },
		succeeds: false,
		sent: false,
	},
};

test.each(Object.entries(scenarios))(
	'%s: the key is nowhere in items, errors or logs',
	async (_name, scenario) => {
		if (scenario.faults) sandbox.setFaults(scenario.faults);
		const items = scenario.options?.items?.map((item) =>
			item.id === 'FIXTURE' ? { id: sandbox.fixtures.subscriptionId } : item,
		);
		const baseUrl = scenario.options?.baseUrl === 'ECHO' ? echo.baseUrl : scenario.options?.baseUrl;
		const run = await runBilling(sandbox, scenario.parameters(), {
			...scenario.options,
			items,
			baseUrl,
		});
		if (scenario.succeeds === true) expect(run.error).toBeUndefined();
		if (scenario.succeeds === false) expect(run.error).toBeDefined();
		if (scenario.sent)
			expect(sandbox.requests.some((request) => request.headers['x-service-key'] === KEY)).toBe(
				true,
			);
		const text = captured(run);
		expect(text.length).toBeGreaterThan(0);
		expect(text).not.toContain(KEY);
		expect(text).not.toContain(WRONG_KEY);
	},
);

test('an echoed key is replaced by [redacted] in the output and in the error', async () => {
	echo.keysSeen.length = 0;
	const ok = await runBilling(sandbox, get('echo-ok', { subscriptionOutput: 'raw' }), {
		baseUrl: echo.baseUrl,
	});
	expect(ok.json).toEqual([
		{
			subscription_id: 'echo-ok',
			note: 'received [redacted]',
			nested: { headers: { 'x-service-key': '[redacted]' } },
		},
	]);
	const failed = await runBilling(sandbox, get('echo-error'), { baseUrl: echo.baseUrl });
	expect(failed.error?.message).toBe('ERR_FORBIDDEN: Key [redacted] may not do this');
	expect(failed.error?.description).toBe(
		'HTTP 403 from GET /api/v2/subscriptions/echo-error; the API key may not do this: check its permissions, and the Environment of the credential; error id [redacted]',
	);
	expect(echo.keysSeen).toEqual([KEY, KEY]);
});

test('retries are logged, without the key', async () => {
	sandbox.setFaults({ on: [1], kinds: ['503'], retryAfterSeconds: 0 });
	const run = await runBilling(sandbox, get(sandbox.fixtures.subscriptionId), { retryDelay: 5 });
	expect(run.error).toBeUndefined();
	expect(
		run.logs.some(
			(line) =>
				line.includes(`retrying GET /api/v2/subscriptions/${sandbox.fixtures.subscriptionId}`) &&
				line.includes('after HTTP 503'),
		),
	).toBe(true);
	expect(run.logs.join('\n')).not.toContain(KEY);
});
