/**
 * The four lists the documents give no paging parameters (recasts, upgrades, milestones, payment
 * methods of a subscription): the node sends no query string at all, reads the answer whole and
 * applies Limit itself. The sandbox refuses limit/offset there, so sending one fails the run.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';
import { SubscriptionBilling } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { runBilling, useSandbox } from './helpers/billing.cjs';

const sandbox = useSandbox();

const LISTS = [
	{ resource: 'subscriptionRecast', path: 'recast', key: 'order_id' },
	{ resource: 'subscriptionUpgrade', path: 'upgrade', key: 'order_id' },
	{ resource: 'subscriptionMilestone', path: 'milestones', key: 'milestone_id' },
	{ resource: 'paymentMethod', path: 'payment-methods', key: 'payment_method_id' },
] as const;

/** The list as the API answers it, read directly over HTTP (the truth the node is compared to). */
async function listFromApi(
	path: string,
	subscriptionId = sandbox.fixtures.subscriptionId,
): Promise<IDataObject[]> {
	const response = await fetch(`${sandbox.baseUrl}/subscriptions/${subscriptionId}/${path}`, {
		headers: { 'X-SERVICE-KEY': sandbox.apiKey },
	});
	expect(response.status).toBe(200);
	const body = (await response.json()) as IDataObject[];
	expect(Array.isArray(body)).toBe(true);
	return body;
}

/** Every list holds at least three entries: upgrades are created through the API, one more milestone is seeded. */
beforeEach(async () => {
	const { subscriptionId, addOnBrickId, seatsBrickId, milestoneId } = sandbox.fixtures;
	for (const brickId of [addOnBrickId, seatsBrickId]) {
		const response = await fetch(`${sandbox.baseUrl}/subscriptions/${subscriptionId}/upgrade`, {
			method: 'POST',
			headers: { 'X-SERVICE-KEY': sandbox.apiKey, 'Content-Type': 'application/json' },
			body: JSON.stringify({
				starts_at: '2026-10-01',
				bricks: [{ brick_id: brickId, quantity: 3 }],
			}),
		});
		expect(response.status).toBe(201);
	}
	const milestones = sandbox.state.milestones as Map<string, IDataObject>;
	const seeded = milestones.get(milestoneId) as IDataObject;
	for (const suffix of ['a', 'b']) {
		const id = `${milestoneId.slice(0, -1)}${suffix}`;
		milestones.set(id, { ...seeded, milestone_id: id, quantity_completed: 0, completions: [] });
	}
	for (const { path } of LISTS) expect((await listFromApi(path)).length).toBeGreaterThanOrEqual(3);
	sandbox.clearRequests();
});

describe.each(LISTS)('$resource → Get Many', ({ resource, path, key }) => {
	const expectOneRequestWithoutQuery = () => {
		expect(
			sandbox.requests.map((request) => ({
				method: request.method,
				path: request.path,
				rawQuery: request.rawQuery,
				status: request.status,
			})),
		).toEqual([
			{
				method: 'GET',
				path: `/api/v2/subscriptions/${sandbox.fixtures.subscriptionId}/${path}`,
				rawQuery: '',
				status: 200,
			},
		]);
	};
	/** The list as the API gives it, then the node's Get Many with `listing` (Return All or Limit): one request without a query. */
	const getMany = async (listing: IDataObject) => {
		const expected = await listFromApi(path);
		sandbox.clearRequests();
		const run = await runBilling(sandbox, {
			resource,
			operation: 'getMany',
			subscriptionId: sandbox.fixtures.subscriptionId,
			...listing,
		});
		expect(run.error).toBeUndefined();
		expectOneRequestWithoutQuery();
		return { run, expected };
	};

	test('Return All: one request with no query string, every entry as an item, in the API order', async () => {
		const { run, expected } = await getMany({ returnAll: true });
		expect(run.json).toEqual(expected);
		for (const item of run.items) expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('Limit 2: one request with no query string, the first two entries only', async () => {
		const { run, expected } = await getMany({ limit: 2 });
		expect(run.json.map((entry) => entry[key])).toEqual(
			expected.slice(0, 2).map((entry) => entry[key]),
		);
		expect(run.json).toEqual(expected.slice(0, 2));
	});

	test('a Limit larger than the list returns the whole list', async () => {
		const { run, expected } = await getMany({ limit: 500 });
		expect(run.json).toEqual(expected);
	});
});

test('Limit applies per input item: each item sends its own request without a query and gets its own first entry', async () => {
	const { subscriptionId, noPhasesSubscriptionId } = sandbox.fixtures;
	const [first, second] = [
		await listFromApi('payment-methods', subscriptionId),
		await listFromApi('payment-methods', noPhasesSubscriptionId),
	];
	sandbox.clearRequests();
	const run = await runBilling(
		sandbox,
		{
			resource: 'paymentMethod',
			operation: 'getMany',
			subscriptionId: '={{ $json.id }}',
			limit: 1,
		},
		{ items: [{ id: subscriptionId }, { id: noPhasesSubscriptionId }] },
	);
	expect(run.error).toBeUndefined();
	expect(sandbox.requests.map((request) => `${request.path}?${request.rawQuery}`).sort()).toEqual(
		[
			`/api/v2/subscriptions/${subscriptionId}/payment-methods?`,
			`/api/v2/subscriptions/${noPhasesSubscriptionId}/payment-methods?`,
		].sort(),
	);
	expect(run.items.map((item) => [item.json, item.pairedItem])).toEqual([
		[first[0], { item: 0 }],
		[second[0], { item: 1 }],
	]);
});

test('Return All says how each list is read: followed page by page, or whole in one answer', () => {
	const properties = new SubscriptionBilling().description.properties;
	const pairs = new Set(
		properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) =>
				(property.displayOptions?.show?.resource as string[]).flatMap((resource) =>
					(property.options as Array<{ value: string }>).map(({ value }) => `${resource}.${value}`),
				),
			),
	);
	const hints = properties
		.filter((property) => property.name === 'returnAll')
		.flatMap((property) =>
			(property.displayOptions?.show?.resource as string[]).flatMap((resource) =>
				(property.displayOptions?.show?.operation as string[]).map((operation) => [
					`${resource}.${operation}`,
					property.hint,
				]),
			),
		)
		.filter(([pair]) => pairs.has(pair as string));
	const byOperation = Object.fromEntries(hints);
	for (const { resource } of LISTS)
		expect(byOperation[`${resource}.getMany`]).toMatch(/whole, in one answer/);
	for (const paged of [
		'customer.getMany',
		'customer.search',
		'invoice.getManyForCustomer',
		'invoice.getManyForSubscription',
		'invoice.search',
		'plan.getMany',
	]) {
		expect(byOperation[paged]).toMatch(/follows every page/);
	}
	expect(Object.keys(byOperation)).toHaveLength(10);
});

describe('an API that answers one of these lists with an envelope', () => {
	// The documents do not show these answers' shape; the node also reads the paginated envelope,
	// following its next links exactly as given (no limit is added to them).
	const requested: string[] = [];
	let server: http.Server;
	let origin = '';
	const upgrades = Array.from({ length: 5 }, (_, i) => ({
		order_id: `00000000-0000-4000-8000-00000000000${i}`,
		order_type: 'UPGRADE',
	}));
	beforeAll(async () => {
		server = http.createServer((req, res) => {
			requested.push(req.url ?? '');
			const second = req.url?.endsWith('?page=2');
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(
				JSON.stringify({
					count: upgrades.length,
					next: second ? null : `${origin}/api/v2/subscriptions/sub-1/upgrade?page=2`,
					previous: null,
					results: second ? upgrades.slice(3) : upgrades.slice(0, 3),
				}),
			);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	});
	beforeEach(() => {
		requested.length = 0;
	});

	test('Return All follows the next link unchanged and returns every entry once', async () => {
		const run = await runBilling(
			sandbox,
			{
				resource: 'subscriptionUpgrade',
				operation: 'getMany',
				subscriptionId: 'sub-1',
				returnAll: true,
			},
			{ baseUrl: `${origin}/api/v2` },
		);
		expect(run.error).toBeUndefined();
		expect(requested).toEqual([
			'/api/v2/subscriptions/sub-1/upgrade',
			'/api/v2/subscriptions/sub-1/upgrade?page=2',
		]);
		expect(run.json).toEqual(upgrades);
	});

	test('Limit stops inside the first answer and asks for nothing more', async () => {
		const run = await runBilling(
			sandbox,
			{ resource: 'subscriptionUpgrade', operation: 'getMany', subscriptionId: 'sub-1', limit: 2 },
			{ baseUrl: `${origin}/api/v2` },
		);
		expect(run.error).toBeUndefined();
		expect(requested).toEqual(['/api/v2/subscriptions/sub-1/upgrade']);
		expect(run.json).toEqual(upgrades.slice(0, 2));
	});

	test('Limit across the two answers cuts the second one, without adding limit to the link', async () => {
		const run = await runBilling(
			sandbox,
			{ resource: 'subscriptionUpgrade', operation: 'getMany', subscriptionId: 'sub-1', limit: 4 },
			{ baseUrl: `${origin}/api/v2` },
		);
		expect(run.error).toBeUndefined();
		expect(requested).toEqual([
			'/api/v2/subscriptions/sub-1/upgrade',
			'/api/v2/subscriptions/sub-1/upgrade?page=2',
		]);
		expect(run.json).toEqual(upgrades.slice(0, 4));
	});
});
