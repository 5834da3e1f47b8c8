/**
 * Customer → Create or Update, through n8n's engine against the sandbox: one search by the match
 * field, then a create or a partial update; the customer in the shape Create and Update give, with
 * `action`. The table holds the plain paths; below it, what a row cannot say: two executions at
 * once create the customer once, items of one run with the same match value, Continue On Fail,
 * n8n's Retry On Fail, and a retry that never doubles a write.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import {
	runBilling,
	useSandbox,
	type BillingRun,
	type ReceivedRequest,
} from '../helpers/billing.cjs';
import { operationTable, readBack, UUID } from '../helpers/operationTable.cjs';

const KEY_HEADER = 'x-service-idempotent-operation-key';
const sandbox = useSandbox();
beforeEach(() => sandbox.setFaults(null));
const { customerId, customerName, customerExternalId, processorCustomerId } = sandbox.fixtures;

const customers = () => [...(sandbox.state.customers as Map<string, IDataObject>).values()];
const withExternalId = (externalId: string) =>
	customers().filter((customer) => customer.external_id === externalId);
const sent = () =>
	sandbox.requests.map(
		(request) =>
			`${request.method} ${request.path}${request.rawQuery ? `?${request.rawQuery}` : ''} ${request.status}`,
	);
const keyOf = (request: ReceivedRequest) => request.headers[KEY_HEADER];

/** The parameters of the tests below: a customer by External ID with a legal name and an address. */
const HOOLI = {
	resource: 'customer',
	operation: 'upsert',
	externalId: 'EXT-90001',
	name: 'Hooli XYZ',
	additionalFields: { legalName: 'Hooli XYZ Inc.', address: { city: 'Palo Alto', country: 'US' } },
};
const HOOLI_CREATE = {
	name: 'Hooli XYZ',
	external_id: 'EXT-90001',
	legal_name: 'Hooli XYZ Inc.',
	address: { city: 'Palo Alto', country: 'US' },
};
const search = (body: IDataObject) => ({
	method: 'POST',
	path: '/customers/search',
	query: { limit: '2' },
	body,
	status: 200,
	headers: { [KEY_HEADER]: undefined },
});
const KEYED = { [KEY_HEADER]: expect.stringMatching(/^n8n-[0-9a-f]{32}$/) };

function upsert(
	parameters: INodeParameters = {},
	options: Parameters<typeof runBilling>[2] = {},
): Promise<BillingRun> {
	return runBilling(sandbox, { ...HOOLI, ...parameters }, options);
}

describe('Customer → Create or Update', () => {
	operationTable(sandbox, [
		{
			title:
				'an External ID no customer has: one search (no key), then a create with every field given (keyed); the customer with action "created"',
			parameters: HOOLI,
			sends: [
				search({ external_id: 'EXT-90001' }),
				{ method: 'POST', path: '/customers', body: HOOLI_CREATE, status: 201, headers: KEYED },
			],
			outputs: [
				{
					customer_id: expect.stringMatching(UUID),
					name: 'Hooli XYZ',
					legal_name: 'Hooli XYZ Inc.',
					external_id: 'EXT-90001',
					processor_customer_id: null,
					tax_id: null,
					country: 'US',
					all_subscriptions_count: 0,
					active_subscriptions_count: 0,
					active_subscription_ids: [],
					action: 'created',
				},
			],
			then: ({ run }) =>
				expect(withExternalId('EXT-90001').map((customer) => customer.customer_id)).toEqual([
					run.json[0].customer_id,
				]),
		},
		{
			title:
				'an External ID a customer has: that customer updated by its ID (the match field not sent again, keyed), action "updated", the fields Customer → Get gives',
			parameters: {
				resource: 'customer',
				operation: 'upsert',
				externalId: customerExternalId,
				name: customerName,
				additionalFields: { taxId: 'US-12-345' },
			},
			sends: [
				search({ external_id: customerExternalId }),
				{
					method: 'PATCH',
					path: `/customers/${customerId}`,
					body: { name: customerName, tax_id: 'US-12-345' },
					status: 200,
					headers: KEYED,
				},
			],
			then: async ({ run }) => {
				const [got] = await readBack(sandbox, {
					resource: 'customer',
					operation: 'get',
					customerId: { __rl: true, mode: 'id', value: customerId },
				});
				expect(run.json).toEqual([{ ...got, tax_id: 'US-12-345', action: 'updated' }]);
			},
		},
		{
			title:
				'Match By Processor Customer ID finds the customer by it and updates it; Output Raw with action',
			parameters: {
				resource: 'customer',
				operation: 'upsert',
				matchBy: 'processorCustomerId',
				processorCustomerId,
				name: customerName,
				additionalFields: { taxId: 'DE999' },
				customerOutput: 'raw',
			},
			sends: [
				search({ processor_customer_id: processorCustomerId }),
				{
					method: 'PATCH',
					path: `/customers/${customerId}`,
					body: { name: customerName, tax_id: 'DE999' },
				},
			],
			outputs: [
				expect.objectContaining({
					customer_id: customerId,
					processor_customer_id: processorCustomerId,
					tax_id: 'DE999',
					subscriptions: expect.any(Array),
					action: 'updated',
				}),
			],
		},
		{
			title: 'several items: each its own search and write, each output paired with its input',
			parameters: {
				resource: 'customer',
				operation: 'upsert',
				externalId: '={{ $json.id }}',
				name: '={{ $json.name }}',
			},
			items: [
				{ id: 'EXT-90010', name: 'First Ltd' },
				{ id: customerExternalId, name: customerName },
			],
			sends: [
				search({ external_id: 'EXT-90010' }),
				{
					method: 'POST',
					path: '/customers',
					body: { name: 'First Ltd', external_id: 'EXT-90010' },
				},
				search({ external_id: customerExternalId }),
				{ method: 'PATCH', path: `/customers/${customerId}`, body: { name: customerName } },
			],
			outputs: [
				expect.objectContaining({ external_id: 'EXT-90010', action: 'created' }),
				expect.objectContaining({
					customer_id: customerId,
					external_id: customerExternalId,
					action: 'updated',
				}),
			],
			pairedItems: [0, 1],
		},
		...[
			['empty', ''],
			['blank', '   '],
		].map(([what, value]) => ({
			title: `${what} External ID in the second item: the error names the field and the item, and nothing is sent for any item`,
			parameters: { ...HOOLI, externalId: '={{ $json.id }}' },
			items: [{ id: 'EXT-90020' }, { id: value }],
			sends: [],
			fails: {
				message:
					'External ID in item 1: is empty: Create or Update finds the customer by it, so nothing can be matched without it',
				description: /Nothing was sent to the API for any of the 2 items/,
			},
		})),
		{
			title:
				'Processor Customer ID mapped from an empty value, when matching by it: nothing is sent',
			parameters: {
				...HOOLI,
				externalId: undefined,
				matchBy: 'processorCustomerId',
				processorCustomerId: '={{ $json.missing }}',
			},
			sends: [],
			fails: { message: /^Processor Customer ID in item 0: is empty/ },
		},
		{
			title:
				"a name another customer (of another External ID) has: the API's refusal of the create, after which the node searches once more",
			parameters: { ...HOOLI, name: customerName },
			sends: [
				search({ external_id: 'EXT-90001' }),
				{
					method: 'POST',
					path: '/customers',
					body: { ...HOOLI_CREATE, name: customerName },
					status: 400,
				},
				search({ external_id: 'EXT-90001' }),
			],
			fails: {
				message: `ERR_BAD_REQUEST: name: A customer named '${customerName}' already exists.`,
			},
			then: () => expect(withExternalId('EXT-90001')).toEqual([]),
		},
	]);
});

describe('at most one customer per match value', () => {
	test('two executions at once with the same External ID: one customer, one output "created", the other "updated" of the same customer', async () => {
		const before = customers().length;
		// Both searches are answered only once both have arrived: each execution finds nothing and creates.
		let arrived = 0;
		let release: () => void = () => {};
		const bothSearched = new Promise<void>((resolve) => (release = resolve));
		const remove = sandbox.world.onRequest(
			(request) => request.path.endsWith('/customers/search'),
			() => {
				arrived++;
				if (arrived === 2) release();
				return bothSearched;
			},
			{ once: false },
		);
		const runs = await Promise.all([upsert(), upsert()]);
		remove();
		for (const run of runs) expect(run.error).toBeUndefined();
		expect(customers()).toHaveLength(before + 1);
		const [customer] = withExternalId('EXT-90001');
		expect(runs.map((run) => run.json[0].action).sort()).toEqual(['created', 'updated']);
		for (const run of runs)
			expect(run.json).toEqual([
				expect.objectContaining({
					customer_id: customer.customer_id,
					name: 'Hooli XYZ',
					legal_name: 'Hooli XYZ Inc.',
					country: 'US',
				}),
			]);
		// the second create is refused (the name is taken), the customer found again and updated
		expect(sent().sort()).toEqual(
			[
				'POST /api/v2/customers/search?limit=2 200',
				'POST /api/v2/customers/search?limit=2 200',
				'POST /api/v2/customers 201',
				'POST /api/v2/customers 400',
				'POST /api/v2/customers/search?limit=2 200',
				`PATCH /api/v2/customers/${customer.customer_id} 200`,
			].sort(),
		);
	});

	test('two customers with the External ID: the item fails naming both, and nothing is written', async () => {
		const first = sandbox.world.createCustomer({ name: 'Twin One', external_id: 'EXT-TWIN' });
		const second = sandbox.world.createCustomer({ name: 'Twin Two', external_id: 'EXT-TWIN' });
		const run = await upsert({ externalId: 'EXT-TWIN' });
		expect(run.error?.message).toBe(
			'External ID in item 0: 2 customers have the External ID "EXT-TWIN"',
		);
		expect(run.error?.description).toContain(`"${first.customer_id}", "${second.customer_id}"`);
		expect(sent()).toEqual(['POST /api/v2/customers/search?limit=2 200']);
	});
});

describe('items of one run with the same match value: one customer, created by one item and updated by the others', () => {
	const KEYS = {
		externalId: {
			matchBy: 'externalId',
			field: 'external_id',
			parameters: { externalId: '={{ $json.key }}' },
		},
		processorCustomerId: {
			matchBy: 'processorCustomerId',
			field: 'processor_customer_id',
			parameters: { externalId: undefined, processorCustomerId: '={{ $json.key }}' },
		},
	} as const;
	const withValue = (field: string, value: string) =>
		customers().filter((customer) => customer[field] === value);
	/** The names of a run's items, by match value: "A" items share one value, "B" another. */
	const ORDERS: Array<[string, string[]]> = [
		['next to each other', ['A', 'A', 'B']],
		['apart', ['A', 'B', 'A']],
		['three of them, the other first', ['B', 'A', 'A', 'A']],
	];

	describe.each(Object.entries(KEYS))('Match By %s', (_name, key) => {
		test.each(ORDERS)(
			'items %s, Max Concurrent Requests 8: the first creates, each next one updates it by its ID; run again, each is updated again and nothing is created',
			async (_order, letters) => {
				const tag = `${key.field}-${letters.join('')}-${Date.now()}`;
				const items = letters.map((letter, index) => ({
					key: `${tag}-${letter}`,
					name: `Same Key ${tag} ${letter}${index}`,
				}));
				const parameters = {
					matchBy: key.matchBy,
					...key.parameters,
					name: '={{ $json.name }}',
					additionalFields: {},
					faultHandling: { maxConcurrentRequests: 8 },
				};
				const before = customers().length;
				const run = await upsert(parameters, { items });
				expect(run.error).toBeUndefined();
				expect(customers()).toHaveLength(before + 2);
				for (const letter of ['A', 'B']) {
					const indexes = letters.flatMap((each, index) => (each === letter ? [index] : []));
					const [customer] = withValue(key.field, `${tag}-${letter}`);
					expect(withValue(key.field, `${tag}-${letter}`)).toHaveLength(1);
					const outputs = indexes.map((index) => run.json[index]);
					expect(outputs.map((json) => json.customer_id)).toEqual(
						indexes.map(() => customer.customer_id),
					);
					expect(outputs.map((json) => json.action).sort()).toEqual([
						'created',
						...Array(indexes.length - 1).fill('updated'),
					]);
					// one search for the value; the items after the first update the customer by its ID
					const searches = sandbox.requests.filter(
						(request) =>
							request.path.endsWith('/customers/search') &&
							request.body?.[key.field] === `${tag}-${letter}`,
					);
					expect(searches).toHaveLength(1);
					const patches = sandbox.requests.filter(
						(request) =>
							request.method === 'PATCH' &&
							request.path.endsWith(`/customers/${customer.customer_id}`),
					);
					expect(patches).toHaveLength(indexes.length - 1);
					// the customer holds what the last write sent
					expect(customer.name).toBe(
						patches.length > 0 ? patches[patches.length - 1].body?.name : items[indexes[0]].name,
					);
				}

				sandbox.clearRequests();
				const again = await upsert(parameters, { items });
				expect(again.error).toBeUndefined();
				expect(again.json.map((json) => json.action)).toEqual(letters.map(() => 'updated'));
				expect(customers()).toHaveLength(before + 2);
				expect(
					sandbox.requests.filter(
						(request) => request.method === 'POST' && request.path.endsWith('/customers'),
					),
				).toEqual([]);
				expect(
					sandbox.requests
						.filter((request) => request.method === 'PATCH')
						.map((request) => request.status),
				).toEqual(letters.map(() => 200));
			},
		);
	});

	test('with Continue On Fail (no run gate), the same: one customer, one created and one updated', async () => {
		const items = [
			{ key: 'EXT-COF-SAME', name: 'Cof One' },
			{ key: 'EXT-COF-SAME', name: 'Cof Two' },
		];
		const run = await upsert(
			{ externalId: '={{ $json.key }}', name: '={{ $json.name }}', additionalFields: {} },
			{ items, continueOnFail: true },
		);
		expect(run.json.map((json) => json.action).sort()).toEqual(['created', 'updated']);
		expect(withExternalId('EXT-COF-SAME')).toHaveLength(1);
	});

	test("n8n's Retry On Fail: in the new try, the update after the item before is applied again (not answered from the first try's record), so the customer ends as the run's writes leave it", async () => {
		const items = [
			{ key: 'EXT-RETRY-SAME', name: 'Retry One' },
			{ key: 'EXT-RETRY-SAME', name: 'Retry Two' },
			{ key: 'EXT-RETRY-SAME', name: sandbox.fixtures.customerName },
		];
		const run = await upsert(
			{ externalId: '={{ $json.key }}', name: '={{ $json.name }}', additionalFields: {} },
			{ items, settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 } },
		);
		// the third item takes another customer's name: refused in each try
		expect(run.error?.message).toBe(
			`ERR_BAD_REQUEST: name: A customer named '${sandbox.fixtures.customerName}' already exists.`,
		);
		const [customer] = withExternalId('EXT-RETRY-SAME');
		expect(withExternalId('EXT-RETRY-SAME')).toHaveLength(1);
		const writes = sandbox.requests.filter(
			(request) =>
				request.method === 'PATCH' ||
				(request.method === 'POST' && request.path.endsWith('/customers')),
		);
		expect(
			writes.map((request) => `${request.method} ${request.body?.name} ${request.status}`),
		).toEqual([
			'POST Retry One 201',
			'PATCH Retry Two 200',
			`PATCH ${sandbox.fixtures.customerName} 400`,
			'PATCH Retry One 200',
			'PATCH Retry Two 200',
			`PATCH ${sandbox.fixtures.customerName} 400`,
		]);
		expect((writes[4] as ReceivedRequest & { replayed?: boolean }).replayed).toBeUndefined();
		expect(customer.name).toBe('Retry Two');
	});
});

describe('a retry never doubles, a run asked for again is applied again', () => {
	test("the create's answer cut off after the API applied it: the repeat carries the same key and gets the first answer replayed", async () => {
		const before = customers().length;
		sandbox.setFaults({ on: [2], kinds: ['truncate'] });
		const run = await upsert({}, { retryDelay: 5 });
		expect(run.error).toBeUndefined();
		expect(run.json[0].action).toBe('created');
		expect(customers()).toHaveLength(before + 1);
		expect(sent()).toEqual([
			'POST /api/v2/customers/search?limit=2 200',
			'POST /api/v2/customers 201',
			'POST /api/v2/customers 201',
		]);
		expect(keyOf(sandbox.requests[2])).toBe(keyOf(sandbox.requests[1]));
		expect((sandbox.requests[2] as ReceivedRequest & { replayed?: boolean }).replayed).toBe(true);
	});

	test("the update's answer cut off: repeated under the same key, replayed; run again later, the update is sent under a new key and applied", async () => {
		const { customerExternalId, customerName } = sandbox.fixtures;
		sandbox.setFaults({ on: [2], kinds: ['truncate'] });
		const first = await upsert(
			{ externalId: customerExternalId, name: customerName, additionalFields: { taxId: 'T-1' } },
			{ retryDelay: 5 },
		);
		expect(first.error).toBeUndefined();
		const patches = () => sandbox.requests.filter((request) => request.method === 'PATCH');
		expect(patches().map((request) => [request.status, keyOf(request)])).toEqual([
			[200, keyOf(patches()[0])],
			[200, keyOf(patches()[0])],
		]);
		sandbox.setFaults(null);
		const again = await upsert({
			externalId: customerExternalId,
			name: customerName,
			additionalFields: { taxId: 'T-1' },
		});
		expect(again.json[0]).toMatchObject({ tax_id: 'T-1', action: 'updated' });
		expect(patches()).toHaveLength(3);
		expect(keyOf(patches()[2])).not.toBe(keyOf(patches()[0]));
		expect((patches()[2] as ReceivedRequest & { replayed?: boolean }).replayed).toBeUndefined();
	});

	test('a custom key keys the create; the update carries a key derived from it, so one key never names two different writes', async () => {
		const faultHandling = { idempotency: 'custom', idempotencyKey: 'crm-event-7' };
		const created = await upsert({ faultHandling });
		expect(created.json[0].action).toBe('created');
		const updated = await upsert({ faultHandling, additionalFields: { taxId: 'T-2' } });
		expect(updated.error).toBeUndefined();
		expect(updated.json[0]).toMatchObject({
			customer_id: created.json[0].customer_id,
			tax_id: 'T-2',
			action: 'updated',
		});
		const writes = sandbox.requests.filter(
			(request) => request.method !== 'POST' || request.path.endsWith('/customers'),
		);
		expect(writes.map((request) => `${request.method} ${keyOf(request)}`)).toEqual([
			'POST crm-event-7',
			expect.stringMatching(/^PATCH n8n-[0-9a-f]{32}$/),
		]);
	});
});
