/**
 * Operation tests as tables. A row is one run of the Subscription Billing node through n8n-core's
 * engine (test/harness) against the sandbox: its parameters as the editor stores them (the newest
 * version, a fresh node with the row's fields set), every request the API receives, and what the
 * node outputs or the error it stops with.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runBilling, type BillingRun, type ReceivedRequest, type Sandbox } from './billing.cjs';
import { editedParameters } from './editorParameters.cjs';
import { fixtureFile, recordFixture, runSavedAction, seedOf } from './savedWorkflows.cjs';

export interface SentRequest {
	method: string;
	/** Below the API's base path, /api/v2. */
	path: string;
	/** Exact; none when left out. */
	query?: Record<string, string>;
	/** Exact (parsed JSON); no body when left out. */
	body?: unknown;
	/** Checked when given: the status the API answered, the body as sent, headers (those named), media type. */
	status?: number;
	rawBody?: string;
	headers?: Record<string, unknown>;
	contentType?: string;
}

export interface OperationRow {
	title: string;
	parameters: INodeParameters & { resource: string; operation: string };
	/** The node's input items; one empty item when left out. */
	items?: IDataObject[];
	/** Every request the API receives (in any order when several); [] when nothing may be sent. */
	sends: SentRequest[];
	/** The output items' JSON: the exact list (jest matchers allowed inside), or a check of the list. */
	outputs?: unknown[] | ((json: IDataObject[]) => void);
	/** The input item each output item is paired with. */
	pairedItems?: number[];
	/** The node stops with this error (message exact or matching) and outputs nothing. */
	fails?: { message: string | RegExp; description?: string | RegExp };
	/** What the world shows afterwards: the sandbox's state, or read back through the node. */
	then?: (after: { run: BillingRun; sandbox: Sandbox; startedAt: number }) => void | Promise<void>;
}

const API_PATH = '/api/v2';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The description of the node's refusal of an item, with nothing sent. */
export const NOTHING_SENT =
	'Nothing was sent to the API for this item. Correct the value and run again.';

/** The received request in the row's terms: only the checks the row asks for beyond method, path, query and body. */
function asSent(request: ReceivedRequest, expected: SentRequest): SentRequest {
	const sent: SentRequest = {
		method: request.method,
		path: request.path.replace(API_PATH, ''),
		query: request.query as Record<string, string>,
		body: request.body,
	};
	if ('status' in expected) sent.status = request.status;
	if ('rawBody' in expected) sent.rawBody = request.rawBody;
	if ('contentType' in expected) sent.contentType = request.contentType;
	if (expected.headers)
		sent.headers = Object.fromEntries(
			Object.keys(expected.headers).map((name) => [name, request.headers[name]]),
		);
	return sent;
}

/**
 * The received requests in the row's terms, each placed where the row expects it (items run
 * concurrently, so their requests arrive in any order); unmatched ones follow in arrival order.
 */
function inOrderOf(expected: SentRequest[], requests: ReceivedRequest[]): SentRequest[] {
	const left = [...requests];
	const placed = expected.map((want) => {
		const index = left.findIndex((request) =>
			expect.objectContaining(want).asymmetricMatch(asSent(request, want)),
		);
		return index < 0 ? undefined : asSent(left.splice(index, 1)[0], want);
	});
	const unmatched = (index: number) => {
		const request = left.shift();
		return request && asSent(request, expected[index] ?? { method: '', path: '' });
	};
	return [
		...placed.map((sent, index) => sent ?? unmatched(index)),
		...left.map((request) => asSent(request, { method: '', path: '' })),
	].filter((sent) => sent !== undefined);
}

function matching(expected: string | RegExp): unknown {
	return typeof expected === 'string' ? expected : expect.stringMatching(expected);
}

export async function expectOperation(sandbox: Sandbox, row: OperationRow): Promise<void> {
	const startedAt = Date.now();
	const run = await runBilling(sandbox, row.parameters, { items: row.items });

	if (row.fails) {
		expect({ message: run.error?.message, items: run.items }).toEqual({
			message: matching(row.fails.message),
			items: [],
		});
		if (row.fails.description !== undefined)
			expect(run.error?.description).toEqual(matching(row.fails.description));
	} else {
		expect(run.error).toBeUndefined();
	}

	const expected = row.sends.map((request) => ({ query: {}, ...request }));
	expect(inOrderOf(expected, sandbox.requests)).toEqual(expected);
	for (const request of sandbox.requests)
		expect(request.headers['x-service-key']).toBe(sandbox.apiKey);

	if (typeof row.outputs === 'function') row.outputs(run.json);
	else if (row.outputs) expect(run.json).toEqual(row.outputs);
	if (row.pairedItems)
		expect(run.items.map((item) => item.pairedItem)).toEqual(
			row.pairedItems.map((item) => ({ item })),
		);
	await row.then?.({ run, sandbox, startedAt });
	const { resource, operation } = row.parameters;
	if (!row.fails)
		await recordFixture(fixtureFile('operations', `${resource}.${operation}`), async () => {
			const node = {
				name: 'Subscription Billing',
				type: 'n8n-nodes-subscription-billing.subscriptionBilling',
				typeVersion: 1,
				parameters: editedParameters(row.parameters),
			};
			const items = row.items ?? [{}];
			const from = `test/operations: ${row.title}`;
			const seed = seedOf(sandbox);
			return { from, seed, node, items, ...(await runSavedAction(sandbox, node, items)) };
		});
}

/** Runs the node to read something back; its request is left in the log (clear it before the next check of requests). */
export async function readBack(
	sandbox: Sandbox,
	parameters: OperationRow['parameters'],
): Promise<IDataObject[]> {
	const run = await runBilling(sandbox, parameters);
	expect(run.error).toBeUndefined();
	return run.json;
}

/** The subscription as Subscription → Get with Output Raw returns it. */
export async function subscriptionDetail(
	sandbox: Sandbox,
	subscriptionId: string,
): Promise<IDataObject> {
	const [detail] = await readBack(sandbox, {
		resource: 'subscription',
		operation: 'get',
		subscriptionId,
		subscriptionOutput: 'raw',
	});
	return detail;
}

/** The stage of an upgrade or recast order as its Get Many lists it. */
export async function orderStage(
	sandbox: Sandbox,
	resource: 'subscriptionUpgrade' | 'subscriptionRecast',
	subscriptionId: string,
	orderId: string,
): Promise<unknown> {
	const orders = await readBack(sandbox, {
		resource,
		operation: 'getMany',
		subscriptionId,
		returnAll: true,
	});
	return orders.find((order) => order.order_id === orderId)?.stage;
}

/** One test per row, named by its title. */
export function operationTable(sandbox: Sandbox, rows: OperationRow[]): void {
	test.each(rows.map((row) => [row.title, row] as const))('%s', (_title, row) =>
		expectOperation(sandbox, row),
	);
}
