import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeParameters,
	IRun,
} from 'n8n-workflow';
import { SubscriptionBillingApi } from '../../credentials/SubscriptionBillingApi.credentials';
import { SubscriptionBilling } from '../../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { runNode, shutdownN8nCore, type RunResult } from '../harness/index.cjs';
import { editedParameters } from './editorParameters.cjs';
import type { SandboxWorld } from '../sandbox/index.cjs';

// The sandbox is plain CommonJS so that demos and benchmarks run it without compiling.
const sandboxModule = require('../sandbox/index.cjs') as {
	startSandbox: (options?: IDataObject) => Promise<Sandbox>;
	Sandbox: new (options?: IDataObject) => Sandbox & { listen(): Promise<Sandbox> };
};

export interface ReceivedRequest {
	n: number;
	method: string;
	path: string;
	rawQuery: string;
	query: Record<string, string | string[]>;
	headers: Record<string, string>;
	contentType?: string;
	rawBody: string;
	body?: IDataObject;
	status: number;
	fault?: string;
}

export interface Sandbox {
	baseUrl: string;
	/** http://127.0.0.1:<port>, where the sandbox listens. */
	origin: string;
	apiKey: string;
	requests: ReceivedRequest[];
	fixtures: Record<string, string>;
	state: IDataObject & Record<string, unknown>;
	clearRequests(): void;
	reset(): void;
	setFaults(config: IDataObject | null): void;
	/** Latency and a gateway's limits (test/sandbox/limits.js); its statistics restart. */
	setLimits(config: IDataObject | null): void;
	limits: {
		stats(): {
			inFlight: number;
			maxInFlightSeen: number;
			limited: number;
			rejectedInFlight: number;
		};
	};
	close(): Promise<void>;
	/** Test-only changes to the world (test/sandbox/world.js). */
	world: SandboxWorld;
	adminToken: string;
}

export function startSandbox(options?: IDataObject): Promise<Sandbox> {
	return sandboxModule.startSandbox(options);
}

export interface BillingRun extends RunResult {
	json: IDataObject[];
}

export interface BillingRunOptions {
	/** The node's input items; one empty item when left out. */
	items?: IDataObject[];
	continueOnFail?: boolean;
	continueErrorOutput?: boolean;
	/** The credential's key and production base URL; the sandbox's when left out. */
	apiKey?: string;
	baseUrl?: string;
	/** Other fields of the credential as saved (Environment, Staging Base URL), over those. */
	credential?: ICredentialDataDecryptedObject;
	/** Fault Handling → Retry Delay (Milliseconds) set in the panel, for a run whose requests are retried; the field's default when left out. */
	retryDelay?: number;
	/** The node's Settings tab. */
	settings?: Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries'>;
	/** Run as n8n's Retry of this failed execution. */
	retryOf?: IRun;
	/** `parameters` are a saved workflow's, used as they are (n8n fills in only what they lack), not a panel's changes. */
	saved?: boolean;
}

/**
 * Runs the Subscription Billing node once through n8n-core's engine against the sandbox, with the
 * parameters the editor stores: a fresh node's fields with `parameters` changed in the panel.
 */
export async function runBilling(
	sandbox: Sandbox,
	parameters: INodeParameters,
	options: BillingRunOptions = {},
): Promise<BillingRun> {
	const changes =
		options.retryDelay === undefined
			? parameters
			: {
					...parameters,
					faultHandling: {
						...(parameters.faultHandling as IDataObject),
						retryDelay: options.retryDelay,
					},
				};
	const result = await runNode({
		nodeType: new SubscriptionBilling(),
		credentialType: new SubscriptionBillingApi(),
		credentials: {
			apiKey: options.apiKey ?? sandbox.apiKey,
			environment: 'production',
			productionBaseUrl: options.baseUrl ?? sandbox.baseUrl,
			...options.credential,
		},
		parameters: options.saved
			? changes
			: editedParameters(changes as INodeParameters & { resource: string; operation: string }),
		items: options.items,
		continueOnFail: options.continueOnFail,
		continueErrorOutput: options.continueErrorOutput,
		settings: options.settings,
		retryOf: options.retryOf,
	});
	return { ...result, json: result.items.map((item) => item.json) };
}

/** Subscription → Get once per input item `{ id }`, with Continue On Fail: one item per ID, failures as error items. */
export function getSubscriptionsContinuingOnFail(
	sandbox: Sandbox,
	ids: string[],
): Promise<BillingRun> {
	return runBilling(
		sandbox,
		{ resource: 'subscription', operation: 'get', subscriptionId: '={{ $json.id }}' },
		{ items: ids.map((id) => ({ id })), continueOnFail: true },
	);
}

/**
 * The test file's sandbox: seeded now (its fixtures can be read while the tests are declared),
 * listening from beforeAll, reset before each test unless `resetEachTest` is false, closed with
 * n8n-core's background timers after the file.
 */
export function useSandbox(options?: IDataObject, { resetEachTest = true } = {}): Sandbox {
	const sandbox = new sandboxModule.Sandbox(options);
	beforeAll(() => sandbox.listen());
	if (resetEachTest) beforeEach(() => sandbox.reset());
	afterAll(async () => {
		await sandbox.close();
		shutdownN8nCore();
	});
	return sandbox;
}

/** A customer's invoice IDs as the API lists them now (newest first), read directly over HTTP, 1,000 a page. */
export async function invoiceIdsOf(sandbox: Sandbox, customerId: string): Promise<string[]> {
	const ids: string[] = [];
	for (let offset = 0; ; offset += 1000) {
		const response = await fetch(
			`${sandbox.baseUrl}/customers/${customerId}/invoices?limit=1000&offset=${offset}`,
			{ headers: { 'X-SERVICE-KEY': sandbox.apiKey } },
		);
		const page = (await response.json()) as { results: IDataObject[]; next: string | null };
		ids.push(...page.results.map((invoice) => String(invoice.invoice_id)));
		if (!page.next) return ids;
	}
}
