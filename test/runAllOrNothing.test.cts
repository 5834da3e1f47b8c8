/**
 * A run over several items, without Continue On Fail, is all or nothing as far as n8n shows it: it
 * keeps no result of a run that fails. So every item is checked before the first request of the
 * run (one invalid item: nothing is sent for any item, and the error names every invalid item),
 * and when the API refuses an item, items not yet sent are not sent and the error says which items
 * were applied. A corrected run applies every item once; a run asked for again is applied again.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runBilling, useSandbox, type ReceivedRequest } from './helpers/billing.cjs';

const sandbox = useSandbox();

const completions = (requests: ReceivedRequest[]) =>
	requests.filter((request) => request.method === 'POST' && request.path.includes('/milestones/'));
const usageCreates = (requests: ReceivedRequest[]) =>
	requests.filter((request) => request.method === 'POST' && request.path === '/api/v2/usage');

function milestoneComplete(
	quantity: string | number,
	extra: INodeParameters = {},
): INodeParameters {
	return {
		resource: 'subscriptionMilestone',
		operation: 'complete',
		subscriptionId: sandbox.fixtures.subscriptionId,
		milestoneId: sandbox.fixtures.milestoneId,
		quantity,
		billOn: 'IMMEDIATELY',
		...extra,
	};
}

function usageCreate(value: string | number, transactionId = '={{ $json.txn }}'): INodeParameters {
	return {
		resource: 'usage',
		operation: 'create',
		transactionId,
		subscriptionId: sandbox.fixtures.subscriptionId,
		brickId: sandbox.fixtures.usageBrickId,
		value,
		time: '2026-09-10T10:00:00Z',
	};
}

/** The items an error's description says were applied ("items 0–2, 5 were applied"), or null when it says nothing of them. */
function appliedIn(description: string | null | undefined, size: number): number[] | null {
	const said = new RegExp(
		`Of the run's ${size} items, (?:items? ([\\d–, ]+) (?:was|were) applied|no other item was applied)`,
	).exec(description ?? '');
	if (!said) return null;
	return (said[1] ?? '')
		.split(', ')
		.filter(Boolean)
		.flatMap((range) => {
			const [from, to = from] = range.split('–').map(Number);
			return Array.from({ length: to - from + 1 }, (_, offset) => from + offset);
		});
}

const THREE = [{}, {}, {}];

/** Waits for a condition, checking once per turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
const TXNS = [{ txn: 'txn-run-0' }, { txn: 'txn-run-1' }, { txn: 'txn-run-2' }];

describe('one invalid item: nothing is sent for any item', () => {
	test('Milestone Complete, three items, the second with Quantity 1.5: no request, the error names item 1; the corrected run completes each once', async () => {
		const bad = await runBilling(sandbox, milestoneComplete('={{ $itemIndex == 1 ? 1.5 : 1 }}'), {
			items: THREE,
		});
		expect(bad.items).toHaveLength(0);
		expect(bad.error?.message).toBe('Quantity in item 1: "1.5" is not a whole number');
		expect(bad.error?.description).toBe(
			'Nothing was sent to the API for any of the 3 items: every item is checked before the first request. Correct the value and run again.',
		);
		expect(sandbox.requests).toHaveLength(0);
		const completedBefore = (sandbox.state.milestones as Map<string, IDataObject>).get(
			sandbox.fixtures.milestoneId,
		)?.quantity_completed;

		const corrected = await runBilling(sandbox, milestoneComplete(1), { items: THREE });
		expect(corrected.error).toBeUndefined();
		expect(corrected.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(completions(sandbox.requests)).toHaveLength(3);
		expect(completions(sandbox.requests).every((request) => request.status === 200)).toBe(true);
		expect(
			(sandbox.state.milestones as Map<string, IDataObject>).get(sandbox.fixtures.milestoneId)
				?.quantity_completed,
		).toBe(Number(completedBefore) + 3);
	});

	test('Usage Create, the second of three items invalid: nothing created; the corrected run creates each transaction once', async () => {
		const bad = await runBilling(sandbox, usageCreate('={{ $itemIndex == 1 ? 1.5 : 4 }}'), {
			items: TXNS,
		});
		expect(bad.error?.message).toBe('Value in item 1: "1.5" is not a whole number');
		expect(sandbox.requests).toHaveLength(0);

		const corrected = await runBilling(sandbox, usageCreate(4), { items: TXNS });
		expect(corrected.error).toBeUndefined();
		expect(corrected.json.map((json) => json.transaction_id)).toEqual([
			'txn-run-0',
			'txn-run-1',
			'txn-run-2',
		]);
		expect(
			usageCreates(sandbox.requests)
				.map((request) => request.body?.transaction_id)
				.sort(),
		).toEqual(['txn-run-0', 'txn-run-1', 'txn-run-2']);
		expect(usageCreates(sandbox.requests).every((request) => request.status < 300)).toBe(true);
	});

	test('several invalid items: the message names each, the description lists each problem', async () => {
		const items = [{ q: 1 }, { q: 'two' }, { q: 1 }, { q: 0.5 }, { q: 'x' }];
		const run = await runBilling(sandbox, milestoneComplete('={{ $json.q }}'), { items });
		expect(run.error?.message).toBe(
			'Quantity in item 1: "two" is not a whole number (and 2 more invalid: items 3–4)',
		);
		expect(run.error?.description).toBe(
			'Nothing was sent to the API for any of the 5 items: every item is checked before the first request. ' +
				'Invalid: Quantity in item 1: "two" is not a whole number; Quantity in item 3: "0.5" is not a whole number; Quantity in item 4: "x" is not a whole number. ' +
				'Correct the values and run again.',
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('a node-level setting refused (Selected Fields naming an unknown field) for 11 items: said once, naming Fields and no item; an invalid item beside it is named', async () => {
		const ids = Array.from({ length: 11 }, () => ({ id: sandbox.fixtures.customerId }));
		const parameters = {
			resource: 'customer',
			operation: 'get',
			customerId: '={{ $json.id }}',
			customerOutput: 'selected',
			customerFields: 'name, nmae',
		};
		const run = await runBilling(sandbox, parameters, { items: ids });
		expect(run.error?.message).toMatch(
			/^Fields: "nmae" is not a field of a customer \(its fields: customer_id, name, [^)]+\)$/,
		);
		expect(run.error?.description).toBe(
			'Nothing was sent to the API for any of the 11 items: every item is checked before the first request. Correct the value and run again.',
		);
		expect(sandbox.requests).toHaveLength(0);

		const oneBad = await runBilling(sandbox, parameters, {
			items: ids.map((item, index) => (index === 3 ? { id: 'a/b' } : item)),
		});
		expect(oneBad.error?.message).toMatch(
			/^Fields: "nmae" is not a field of a customer \(.+\) \(and 1 more invalid: item 3\)$/,
		);
		const listed =
			/Invalid: (.*)\. Correct the values and run again\.$/.exec(
				oneBad.error?.description ?? '',
			)?.[1] ?? '';
		expect(listed.split('; ').map((problem) => problem.replace(/ \(its fields: .*/, ''))).toEqual([
			'Fields: "nmae" is not a field of a customer',
			expect.stringMatching(/^Customer in item 3: "a\/b" /),
		]);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('Fields from an expression giving the same unknown field on 5 items: the problem said once, with the items it applies to', async () => {
		const items = Array.from({ length: 5 }, () => ({
			id: sandbox.fixtures.customerId,
			fields: 'name, nme',
		}));
		const run = await runBilling(
			sandbox,
			{
				resource: 'customer',
				operation: 'get',
				customerId: '={{ $json.id }}',
				customerOutput: 'selected',
				customerFields: '={{ $json.fields }}',
			},
			{ items },
		);
		expect(run.error?.message).toMatch(
			/^Fields in item 0: "nme" is not a field of a customer \(its fields: [^)]+\) \(and 4 more invalid: items 1–4\)$/,
		);
		const description = run.error?.description ?? '';
		expect(description).toMatch(
			/^Nothing was sent to the API for any of the 5 items: every item is checked before the first request\. Invalid: Fields: "nme" is not a field of a customer \(its fields: [^)]+\) \(items 0–4\)\. Correct the value and run again\.$/,
		);
		expect(description.match(/its fields/g)).toHaveLength(1);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('the last item invalid in a run of 200: none of the 199 valid items is sent', async () => {
		const items = Array.from({ length: 200 }, (_, index) => ({ q: index === 199 ? -1 : 1 }));
		const run = await runBilling(sandbox, milestoneComplete('={{ $json.q }}'), { items });
		expect(run.error?.message).toBe('Quantity in item 199: -1 is less than 1');
		expect(sandbox.requests).toHaveLength(0);
	});

	test("with n8n's Retry On Fail, every try of a run with an invalid item is refused and nothing is sent", async () => {
		const run = await runBilling(sandbox, milestoneComplete('={{ $itemIndex == 1 ? "one" : 1 }}'), {
			items: THREE,
			settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
		});
		expect(run.error?.message).toBe('Quantity in item 1: "one" is not a whole number');
		expect(sandbox.requests).toHaveLength(0);
	});

	test('with Continue On Fail, as before: valid items are sent, the invalid one becomes its error item', async () => {
		const run = await runBilling(sandbox, milestoneComplete('={{ $itemIndex == 1 ? 1.5 : 1 }}'), {
			items: THREE,
			continueOnFail: true,
		});
		expect(run.error).toBeUndefined();
		expect(run.json[1].error).toMatchObject({
			message: 'Quantity in item 1: "1.5" is not a whole number',
			code: null,
		});
		expect(run.json[1].error).toMatchObject({
			description: 'Nothing was sent to the API for this item. Correct the value and run again.',
		});
		expect(
			[run.json[0].invoice_id, run.json[2].invoice_id].every((id) => typeof id === 'string'),
		).toBe(true);
		expect(completions(sandbox.requests)).toHaveLength(2);
	});
});

/**
 * Request Options > Batching: n8n's RoutingNode starts the items batch by batch, sleeping the
 * interval (n8n-workflow's `sleep`) before each new batch. Here that sleep first waits until the
 * API has received every request of the batches started before it: a run whose items are sent as
 * n8n starts them (the spacing taken once) goes on; one that holds its items until the last batch
 * has started would wait for ever (and the test time out).
 */
describe('Request Options > Batching: each item is sent as n8n starts it, and one invalid item still sends nothing', () => {
	const INTERVAL = 37;
	const utils = require('n8n-workflow/dist/cjs/utils.js') as {
		sleep: (ms: number) => Promise<void>;
	};
	const engineSleep = utils.sleep;
	/** The requests the API had received when n8n started each later batch. */
	let receivedAtBatch: number[];
	beforeEach(() => {
		receivedAtBatch = [];
		jest.spyOn(utils, 'sleep').mockImplementation(async (ms: number) => {
			if (ms === INTERVAL) {
				await until(
					() => sandbox.requests.length >= receivedAtBatch.length * batchSize + batchSize,
				);
				receivedAtBatch.push(sandbox.requests.length);
			}
			await engineSleep(ms);
		});
	});
	afterEach(() => jest.restoreAllMocks());
	let batchSize = 1;
	const batching = (size: number) => {
		batchSize = size;
		return {
			requestOptions: { batching: { batch: { batchSize: size, batchInterval: INTERVAL } } },
		};
	};
	const usage = (items: number) =>
		Array.from({ length: items }, (_, index) => ({ txn: `txn-batch-${index}`, value: index + 1 }));

	test('one item a batch: each write reaches the API before n8n starts the next item, in item order, once', async () => {
		const items = usage(4);
		const run = await runBilling(
			sandbox,
			{ ...usageCreate('={{ $json.value }}'), ...batching(1) },
			{ items },
		);
		expect(run.error).toBeUndefined();
		expect(receivedAtBatch).toEqual([1, 2, 3]);
		expect(
			usageCreates(sandbox.requests).map((request) => [
				request.body?.transaction_id,
				request.body?.value,
				request.status,
			]),
		).toEqual(items.map((item) => [item.txn, item.value, 201]));
		expect(run.items.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
	});

	test('batches of two over five items: each batch is sent before n8n starts the next', async () => {
		const run = await runBilling(
			sandbox,
			{ ...usageCreate('={{ $json.value }}'), ...batching(2) },
			{ items: usage(5) },
		);
		expect(run.error).toBeUndefined();
		expect(receivedAtBatch).toEqual([2, 4]);
		expect(
			usageCreates(sandbox.requests)
				.map((request) => request.body?.transaction_id)
				.sort(),
		).toEqual(usage(5).map((item) => item.txn));
	});

	test('a short interval for many items a batch (under 0.25 ms an item): checking ahead would cost more than it saves, so the items are held until n8n has started the last batch', async () => {
		jest.restoreAllMocks();
		const receivedWhenSpaced: number[] = [];
		jest.spyOn(utils, 'sleep').mockImplementation(async (ms: number) => {
			if (ms === 0.5) receivedWhenSpaced.push(sandbox.requests.length);
			await engineSleep(ms);
		});
		const items = usage(4);
		const run = await runBilling(
			sandbox,
			{
				...usageCreate('={{ $json.value }}'),
				requestOptions: { batching: { batch: { batchSize: 3, batchInterval: 0.5 } } },
			},
			{ items },
		);
		expect(run.error).toBeUndefined();
		expect(receivedWhenSpaced).toEqual([0]);
		expect(
			usageCreates(sandbox.requests)
				.map((request) => request.body?.transaction_id)
				.sort(),
		).toEqual(items.map((item) => item.txn));
	});

	test('the nested and optional fields of Customer Create, mapped per item, are sent as without batching', async () => {
		const items = [
			{ name: 'Batched Zero Ltd', ext: 'crm-b0', city: 'Oslo', tax: '' },
			{ name: 'Batched One Ltd', ext: 'crm-b1', city: '', tax: 'NO123' },
			{ name: 'Batched Two Ltd', ext: 'crm-b2', city: 'Bergen', tax: 'NO456' },
		];
		const parameters = {
			resource: 'customer',
			operation: 'create',
			name: '={{ $json.name }}',
			additionalFields: {
				externalId: '={{ $json.ext }}',
				taxId: '={{ $json.tax }}',
				address: { city: '={{ $json.city }}', country: 'NO' },
			},
		};
		const unbatched = await runBilling(sandbox, parameters, { items });
		expect(unbatched.error).toBeUndefined();
		const bodies = sandbox.requests.map((request) => request.body);
		sandbox.reset();
		const batched = await runBilling(sandbox, { ...parameters, ...batching(1) }, { items });
		expect(batched.error).toBeUndefined();
		expect(receivedAtBatch).toEqual([1, 2]);
		expect(sandbox.requests.map((request) => request.body)).toEqual(bodies);
		expect(bodies[1]).toEqual({
			name: 'Batched One Ltd',
			external_id: 'crm-b1',
			tax_id: 'NO123',
			address: { country: 'NO' },
		});
	});

	test.each([
		[
			'Value of the last item',
			usageCreate('={{ $itemIndex == 3 ? 1.5 : 4 }}'),
			'Value in item 3: "1.5" is not a whole number',
		],
		[
			'Transaction ID of the third item',
			{ ...usageCreate(4), transactionId: '={{ $itemIndex == 2 ? "" : $json.txn }}' },
			'Transaction ID in item 2: is required',
		],
		[
			'the custom Idempotency Key of the second item',
			{
				...usageCreate(4),
				faultHandling: {
					idempotency: 'custom',
					idempotencyKey: '={{ $itemIndex == 1 ? "" : $json.txn }}',
				},
			},
			'Idempotency Key in item 1: is empty',
		],
	])(
		'%s invalid: nothing is sent for any item, n8n starts every batch and the error names the item',
		async (_, parameters, message) => {
			jest.restoreAllMocks();
			const run = await runBilling(sandbox, { ...parameters, ...batching(1) }, { items: usage(4) });
			expect(run.error?.message).toBe(message);
			expect(run.error?.description).toMatch(/^Nothing was sent to the API for any of the 4 items/);
			expect(sandbox.requests).toHaveLength(0);
		},
	);

	test('an invalid External ID inside Additional Fields of the last customer: nothing is sent', async () => {
		jest.restoreAllMocks();
		const items = [{ ext: 'crm-ok-0' }, { ext: 'crm-ok-1' }, { ext: 'x'.repeat(256) }];
		const parameters = {
			resource: 'customer',
			operation: 'create',
			name: '={{ "Batch " + $itemIndex }}',
			additionalFields: { externalId: '={{ $json.ext }}' },
		};
		const run = await runBilling(sandbox, { ...parameters, ...batching(1) }, { items });
		expect(run.error?.message).toBe(
			'External ID in item 2: is 256 characters long, at most 255 are allowed',
		);
		expect(sandbox.requests).toHaveLength(0);
		const good = await runBilling(
			sandbox,
			{ ...parameters, ...batching(1) },
			{ items: items.slice(0, 2) },
		);
		expect(good.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.body?.external_id)).toEqual([
			'crm-ok-0',
			'crm-ok-1',
		]);
	});
	test('Upgrade Start, whose Charge Immediately n8n sends through a computed value, is held until every item is checked: an invalid last order ID sends nothing', async () => {
		jest.restoreAllMocks();
		const parameters = {
			resource: 'subscriptionUpgrade',
			operation: 'start',
			subscriptionId: sandbox.fixtures.subscriptionId,
			orderId: '={{ $json.order }}',
			chargeImmediately: true,
		};
		const items = [
			{ order: sandbox.fixtures.upgradeOrderId },
			{ order: sandbox.fixtures.upgradeOrderId },
			{ order: 'order 2' },
		];
		const run = await runBilling(sandbox, { ...parameters, ...batching(1) }, { items });
		expect(run.error?.message).toMatch(/^Order ID in item 2: "order 2" is not a UUID/);
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('the API refuses an item mid-run: the error says what was applied', () => {
	test('one request at a time: item 0 applied, item 1 refused (400), item 2 not sent; running again applies item 0 again', async () => {
		const parameters = milestoneComplete('={{ $json.q }}', {
			faultHandling: { maxConcurrentRequests: 1 },
		});
		const completed = () =>
			Number(
				(sandbox.state.milestones as Map<string, IDataObject>).get(sandbox.fixtures.milestoneId)
					?.quantity_completed,
			);
		const before = completed();
		const run = await runBilling(sandbox, parameters, { items: [{ q: 1 }, { q: 100 }, { q: 1 }] });
		expect(run.items).toHaveLength(0);
		expect(run.error?.message).toMatch(/^ERR_BAD_REQUEST: quantity: Completing 100 would take/);
		expect(run.error?.description).toContain(
			"Of the run's 3 items, item 0 was applied by the API (running the node again applies it again); item 2 was not sent. " +
				'Without Continue On Fail, n8n keeps no result of a run that fails: to get one result per item, set Settings > On Error to Continue (using error output).',
		);
		expect(
			completions(sandbox.requests).map((request) => [request.body?.quantity, request.status]),
		).toEqual([
			[1, 200],
			[100, 400],
		]);
		expect(completed()).toBe(before + 1);

		sandbox.clearRequests();
		const again = await runBilling(sandbox, parameters, { items: [{ q: 1 }, { q: 2 }, { q: 1 }] });
		expect(again.error).toBeUndefined();
		expect(
			completions(sandbox.requests).map((request) => [request.body?.quantity, request.status]),
		).toEqual([
			[1, 200],
			[2, 200],
			[1, 200],
		]);
		expect(completed()).toBe(before + 1 + 4);
	});

	test('items at once: what the error calls applied is exactly what the API answered with success, the rest was not sent or refused', async () => {
		const items = Array.from({ length: 12 }, (_, index) => ({
			txn: `txn-mid-${index}`,
			sub: index === 5 ? 'sub-missing' : sandbox.fixtures.subscriptionId,
		}));
		const run = await runBilling(
			sandbox,
			{ ...usageCreate(2), subscriptionId: '={{ $json.sub }}' },
			{ items },
		);
		expect(run.error?.message).toBe(
			'ERR_BAD_REQUEST: subscription_id: Subscription sub-missing not found.',
		);
		const answered = usageCreates(sandbox.requests);
		const applied = answered
			.filter((request) => request.status < 300)
			.map((request) => Number(String(request.body?.transaction_id).slice(8)));
		expect(appliedIn(run.error?.description, 12)).toEqual(applied.sort((a, b) => a - b));
		expect(
			answered
				.filter((request) => request.status >= 300)
				.map((request) => request.body?.transaction_id),
		).toEqual(['txn-mid-5']);
	});

	test('Create or Update: item 1 takes a name another customer has; the error says which items were applied, as the API answered', async () => {
		const taken = String(
			[...(sandbox.state.customers as Map<string, IDataObject>).values()][0].name,
		);
		const items = [
			{ ext: 'EXT-RUN-0', name: 'Run Zero Ltd' },
			{ ext: 'EXT-RUN-1', name: taken },
			{ ext: 'EXT-RUN-2', name: 'Run Two Ltd' },
		];
		const parameters = {
			resource: 'customer',
			operation: 'upsert',
			externalId: '={{ $json.ext }}',
			name: '={{ $json.name }}',
			faultHandling: { maxConcurrentRequests: 1 },
		};
		const run = await runBilling(sandbox, parameters, { items });
		expect(run.error?.message).toMatch(/^ERR_BAD_REQUEST: /);
		// A refused create is searched for once more (another run may have made it) before the item
		// fails, so item 2 may have gone meanwhile: the error says what the API applied.
		const creates = sandbox.requests.filter(
			(request) => request.method === 'POST' && request.path === '/api/v2/customers',
		);
		const created = creates
			.filter((request) => request.status === 201)
			.map((request) => Number(String(request.body?.external_id).slice(8)));
		expect(created).toContain(0);
		expect(appliedIn(run.error?.description, 3)).toEqual(created.sort((a, b) => a - b));
		expect(
			creates
				.filter((request) => request.status >= 400)
				.map((request) => request.body?.external_id),
		).toEqual(['EXT-RUN-1']);
	});

	test('Create or Update whose create is refused and then found (another run made it) is applied, and the run goes on with the other items', async () => {
		const items = [{ ext: 'EXT-RACE-0' }, { ext: 'EXT-RACE-1' }, { ext: 'EXT-RACE-2' }];
		const parameters = {
			resource: 'customer',
			operation: 'upsert',
			externalId: '={{ $json.ext }}',
			name: '={{ "Race " + $json.ext }}',
			faultHandling: { maxConcurrentRequests: 1 },
		};
		// Another run creates item 1's customer between its search and its create (the second create
		// of the run, one request at a time): the create is refused (same name), found again and updated.
		let creates = 0;
		sandbox.world.onRequest(
			(request) =>
				request.method === 'POST' && request.path === '/api/v2/customers' && ++creates === 2,
			() => sandbox.world.createCustomer({ name: 'Race EXT-RACE-1', external_id: 'EXT-RACE-1' }),
		);
		const run = await runBilling(sandbox, parameters, { items });
		expect(run.error).toBeUndefined();
		expect(run.json.map((json) => [json.external_id, json.action])).toEqual([
			['EXT-RACE-0', 'created'],
			['EXT-RACE-1', 'updated'],
			['EXT-RACE-2', 'created'],
		]);
		const refused = sandbox.requests.filter(
			(request) =>
				request.method === 'POST' && request.path === '/api/v2/customers' && request.status >= 400,
		);
		expect(refused.map((request) => request.body?.external_id)).toEqual(['EXT-RACE-1']);
	});

	test("several items refused: the message counts the others, the description gives each one's reason; with Continue On Fail each item has its own", async () => {
		const items = Array.from({ length: 12 }, (_, index) => ({
			txn: `txn-many-${index}`,
			sub: [3, 5, 8].includes(index) ? `sub-missing-${index}` : sandbox.fixtures.subscriptionId,
		}));
		const parameters = { ...usageCreate(2), subscriptionId: '={{ $json.sub }}' };
		const run = await runBilling(sandbox, parameters, { items });
		// every item was sent at once (a window of 16), so the three were refused, each for its own reason
		const refused = usageCreates(sandbox.requests)
			.filter((request) => request.status >= 300)
			.map((request) => request.body?.transaction_id);
		expect(refused.sort()).toEqual(['txn-many-3', 'txn-many-5', 'txn-many-8']);
		expect(run.error?.message).toBe(
			'ERR_BAD_REQUEST: subscription_id: Subscription sub-missing-3 not found. (and 2 more failed: items 5, 8)',
		);
		expect(run.error?.description).toContain(
			'; items 5, 8 failed too (item 5: ERR_BAD_REQUEST: subscription_id: Subscription sub-missing-5 not found.; item 8: ERR_BAD_REQUEST: subscription_id: Subscription sub-missing-8 not found.).',
		);
		expect(appliedIn(run.error?.description, 12)).toEqual([0, 1, 2, 4, 6, 7, 9, 10, 11]);

		const each = await runBilling(
			sandbox,
			{ ...parameters, transactionId: '={{ $json.txn }}-again' },
			{ items, continueOnFail: true },
		);
		expect(
			each.json.filter((json) => json.error).map((json) => (json.error as IDataObject).message),
		).toEqual(
			[3, 5, 8].map(
				(index) => `ERR_BAD_REQUEST: subscription_id: Subscription sub-missing-${index} not found.`,
			),
		);
	});

	test('twelve items all refused: the message lists the first ten others, the description the first ten reasons and a count', async () => {
		const items = Array.from({ length: 12 }, (_, index) => ({
			txn: `txn-none-${index}`,
			sub: `sub-missing-${index}`,
		}));
		const run = await runBilling(
			sandbox,
			{ ...usageCreate(2), subscriptionId: '={{ $json.sub }}' },
			{ items },
		);
		expect(usageCreates(sandbox.requests).map((request) => request.status)).toEqual(
			Array(12).fill(400),
		);
		expect(run.error?.message).toBe(
			'ERR_BAD_REQUEST: subscription_id: Subscription sub-missing-0 not found. (and 11 more failed: items 1–10, …)',
		);
		expect(run.error?.description).toContain(
			"Of the run's 12 items, no other item was applied; items 1–11 failed too (item 1: ERR_BAD_REQUEST: subscription_id: Subscription sub-missing-1 not found.; ",
		);
		expect(run.error?.description).toContain(
			'item 10: ERR_BAD_REQUEST: subscription_id: Subscription sub-missing-10 not found.; … 1 more). Without Continue On Fail',
		);
	});

	test('Usage Create run again: each transaction ID is refused as recorded, nothing is recorded twice, and the error points to Usage → Update', async () => {
		const items = [{ txn: 'txn-twice-0' }, { txn: 'txn-twice-1' }, { txn: 'txn-twice-2' }];
		const first = await runBilling(sandbox, usageCreate(7), { items });
		expect(first.error).toBeUndefined();
		sandbox.clearRequests();
		const again = await runBilling(sandbox, usageCreate(7), { items });
		expect(usageCreates(sandbox.requests).map((request) => request.status)).toEqual([
			400, 400, 400,
		]);
		expect(again.error?.message).toBe(
			"ERR_BAD_REQUEST: transaction_id: A usage entry with transaction_id 'txn-twice-0' already exists. (and 2 more failed: items 1–2)",
		);
		expect(again.error?.description).toContain(
			'The API already has a usage entry with Transaction ID "txn-twice-0" (recorded by an earlier run, or by another entry given the same ID), so this one was not recorded: nothing was applied twice. To change that entry\'s value, use Usage → Update with this Transaction ID; for a new entry, give a new Transaction ID.',
		);
		expect(again.error?.description).toContain(
			"Of the run's 3 items, no other item was applied; items 1–2 failed too",
		);
		const usage = sandbox.state.usage as Map<string, IDataObject>;
		expect(items.map(({ txn }) => usage.get(txn)?.value)).toEqual([7, 7, 7]);
	});

	test('Usage Create: an applied item is not said to be applied again by running the node again (the API refuses its transaction ID)', async () => {
		const run = await runBilling(
			sandbox,
			{
				...usageCreate(2),
				subscriptionId: '={{ $json.sub }}',
				faultHandling: { maxConcurrentRequests: 1 },
			},
			{
				items: [
					{ txn: 'txn-once-0', sub: sandbox.fixtures.subscriptionId },
					{ txn: 'txn-once-1', sub: 'sub-missing' },
				],
			},
		);
		expect(run.error?.description).toContain(
			"Of the run's 2 items, item 0 was applied by the API (running the node again records nothing twice: the API refuses a Transaction ID it already has).",
		);
	});

	test('one request at a time, an item waiting between retries of a 503 does not hold the next items back: they are sent meanwhile and the error lists them as applied', async () => {
		const customers = [...(sandbox.state.customers as Map<string, IDataObject>).values()]
			.slice(0, 3)
			.map((customer) => String(customer.customer_id));
		sandbox.setFaults({
			rate: 1,
			kinds: ['503'],
			onlyPaths: new RegExp(`/customers/${customers[0]}$`),
		});
		const run = await runBilling(
			sandbox,
			{
				resource: 'customer',
				operation: 'update',
				customerId: '={{ $json.id }}',
				updateFields: { taxId: '={{ $json.tax }}' },
				faultHandling: { maxConcurrentRequests: 1, maxRetries: 1, retryDelay: 50 },
			},
			{ items: customers.map((id, index) => ({ id, tax: `TAX-WAIT-${index}` })) },
		);
		expect(run.error?.message).toMatch(/^ERR_SERVICE_UNAVAILABLE: |^HTTP 503/);
		const paths = sandbox.requests.map((request) => request.path.split('/').pop());
		// item 0's first attempt, then item 1 while item 0 waits to retry
		expect(paths.slice(0, 2)).toEqual([customers[0], customers[1]]);
		const applied = sandbox.requests
			.filter((request) => request.status === 200)
			.map((request) => customers.indexOf(String(request.path.split('/').pop())));
		expect(applied).toContain(1);
		expect(appliedIn(run.error?.description, 3)).toEqual(applied.sort());
	});

	test('a run of reads that fails says nothing of applied items', async () => {
		const run = await runBilling(
			sandbox,
			{ resource: 'subscription', operation: 'get', subscriptionId: '={{ $json.id }}' },
			{ items: [{ id: sandbox.fixtures.subscriptionId }, { id: 'sub-missing' }] },
		);
		expect(run.error?.message).toMatch(/^ERR_NOT_FOUND: /);
		expect(run.error?.description).not.toContain('applied');
	});
});
