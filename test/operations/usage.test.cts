import type { IDataObject } from 'n8n-workflow';
import { runBilling, useSandbox } from '../helpers/billing.cjs';
import { NOTHING_SENT, operationTable } from '../helpers/operationTable.cjs';

const sandbox = useSandbox();
const { subscriptionId, usageBrickId, usageTransactionId } = sandbox.fixtures;

/** The usage entry as the sandbox holds it now. */
const usageEntry = (transactionId = usageTransactionId) =>
	(sandbox.state.usage as Map<string, IDataObject>).get(transactionId) as IDataObject;
const seeded = { ...usageEntry() };
/** The API's 404 for an unknown transaction ID, as the node completes it: the field, nothing changed, where the ID comes from. */
const UNKNOWN_TRANSACTION =
	'The API has no record with the ID "txn-never-created" in Transaction ID, so nothing was changed. ' +
	'Give the transaction_id from the Usage → Create that recorded the entry (your own ID for it; the API lists no usage entries).';

describe('Usage', () => {
	operationTable(sandbox, [
		{
			title: 'Create sends the entry with key/value properties and the API answers 201',
			parameters: {
				resource: 'usage',
				operation: 'create',
				transactionId: 'txn-n8n-0001',
				subscriptionId,
				brickId: usageBrickId,
				value: 120,
				time: '2026-09-14T10:30:00Z',
				propertiesInput: 'fields',
				propertiesUi: { pair: [{ key: 'endpoint', value: '/v1/search' }] },
			},
			sends: [
				{
					method: 'POST',
					path: '/usage',
					status: 201,
					body: {
						transaction_id: 'txn-n8n-0001',
						subscription_id: subscriptionId,
						brick_id: usageBrickId,
						value: 120,
						time: '2026-09-14T10:30:00Z',
						properties: { endpoint: '/v1/search' },
					},
				},
			],
			outputs: [
				{
					transaction_id: 'txn-n8n-0001',
					subscription_id: subscriptionId,
					brick_id: usageBrickId,
					value: 120,
					time: '2026-09-14T10:30:00Z',
					properties: { endpoint: '/v1/search' },
				},
			],
		},
		{
			title:
				'Create takes properties as JSON mapped from the input item and defaults the time to now',
			parameters: {
				resource: 'usage',
				operation: 'create',
				transactionId: '={{ $json.txn }}',
				subscriptionId,
				brickId: usageBrickId,
				value: 3,
				propertiesInput: 'json',
				propertiesJson: '={{ $json.props }}',
			},
			items: [{ txn: 'txn-n8n-0002', props: { region: 'eu', batch: 7 } }],
			sends: [
				{
					method: 'POST',
					path: '/usage',
					status: 201,
					body: {
						transaction_id: 'txn-n8n-0002',
						subscription_id: subscriptionId,
						brick_id: usageBrickId,
						value: 3,
						time: expect.any(String),
						properties: { region: 'eu', batch: 7 },
					},
				},
			],
			then: ({ sandbox: { requests }, startedAt }) =>
				expect(Date.parse(String(requests[0].body?.time))).toBeGreaterThanOrEqual(startedAt - 1000),
		},
		{
			title:
				'Update sends transaction id, value and key/value properties; the item also shows what was written',
			parameters: {
				resource: 'usage',
				operation: 'update',
				transactionId: usageTransactionId,
				value: 42.5,
				propertiesInput: 'fields',
				propertiesUi: {
					pair: [
						{ key: 'region', value: 'eu' },
						{ key: 'source', value: 'n8n' },
					],
				},
			},
			sends: [
				{
					method: 'PATCH',
					path: '/usage',
					body: {
						transaction_id: usageTransactionId,
						value: 42.5,
						properties: { region: 'eu', source: 'n8n' },
					},
				},
			],
			// The API answers only a message.
			outputs: [
				{
					message: 'Usage entry updated successfully.',
					transaction_id: usageTransactionId,
					value: 42.5,
					properties: { region: 'eu', source: 'n8n' },
				},
			],
			then: () =>
				expect(usageEntry()).toMatchObject({
					value: 42.5,
					properties: { region: 'eu', source: 'n8n' },
				}),
		},
		{
			title:
				'Update without properties writes only the value, and the item shows only what was written',
			parameters: {
				resource: 'usage',
				operation: 'update',
				transactionId: usageTransactionId,
				value: 9,
			},
			sends: [
				{ method: 'PATCH', path: '/usage', body: { transaction_id: usageTransactionId, value: 9 } },
			],
			outputs: [
				{
					message: 'Usage entry updated successfully.',
					transaction_id: usageTransactionId,
					value: 9,
				},
			],
			then: () => expect(usageEntry().properties).toEqual(seeded.properties),
		},
		{
			title: 'Update takes properties as JSON',
			parameters: {
				resource: 'usage',
				operation: 'update',
				transactionId: usageTransactionId,
				value: 7,
				propertiesInput: 'json',
				propertiesJson: '{"seats": 3, "tags": ["a"]}',
			},
			sends: [
				{
					method: 'PATCH',
					path: '/usage',
					body: {
						transaction_id: usageTransactionId,
						value: 7,
						properties: { seats: 3, tags: ['a'] },
					},
				},
			],
		},
		{
			title: 'Update with a value of 0 given on purpose sends and applies it',
			parameters: {
				resource: 'usage',
				operation: 'update',
				transactionId: usageTransactionId,
				value: 0,
			},
			sends: [
				{ method: 'PATCH', path: '/usage', body: { transaction_id: usageTransactionId, value: 0 } },
			],
			outputs: [expect.anything()],
			then: () => expect(usageEntry().value).toBe(0),
		},
		{
			title:
				'Update with Value left at its default (no default: null) is refused, naming Value and the item; nothing is sent',
			parameters: { resource: 'usage', operation: 'update', transactionId: usageTransactionId },
			sends: [],
			fails: { message: 'Value in item 0: is required', description: NOTHING_SENT },
			then: () => expect(usageEntry().value).toBe(seeded.value),
		},
		{
			title:
				'Update with a Value expression that gives no value is refused, naming Value and the item; nothing is sent',
			parameters: {
				resource: 'usage',
				operation: 'update',
				transactionId: usageTransactionId,
				value: '={{ $json.quantity }}',
			},
			items: [{ note: 'no quantity here' }],
			sends: [],
			fails: { message: 'Value in item 0: is required', description: NOTHING_SENT },
			then: () => expect(usageEntry().value).toBe(seeded.value),
		},
		{
			title: 'Delete sends the transaction id as a JSON body and reports the deletion',
			parameters: { resource: 'usage', operation: 'delete', transactionId: usageTransactionId },
			sends: [
				{
					method: 'DELETE',
					path: '/usage',
					contentType: 'application/json',
					body: { transaction_id: usageTransactionId },
				},
			],
			outputs: [expect.objectContaining({ deleted: true, transaction_id: usageTransactionId })],
		},
		{
			title:
				"Delete of an entry that does not exist is the API's 404, which names Transaction ID and where it comes from",
			parameters: { resource: 'usage', operation: 'delete', transactionId: 'txn-never-created' },
			sends: [
				{
					method: 'DELETE',
					path: '/usage',
					status: 404,
					body: { transaction_id: 'txn-never-created' },
				},
			],
			fails: {
				message: /^ERR_NOT_FOUND: .*txn-never-created/s,
				description: `HTTP 404 from DELETE /api/v2/usage. ${UNKNOWN_TRANSACTION}`,
			},
		},
		{
			title:
				"Update of an entry that does not exist is the API's 404 with the same next step; no entry is changed",
			parameters: {
				resource: 'usage',
				operation: 'update',
				transactionId: 'txn-never-created',
				value: 5,
			},
			sends: [
				{
					method: 'PATCH',
					path: '/usage',
					status: 404,
					body: { transaction_id: 'txn-never-created', value: 5 },
				},
			],
			fails: {
				message: "ERR_NOT_FOUND: Usage entry with transaction_id 'txn-never-created' not found.",
				description: `HTTP 404 from PATCH /api/v2/usage. ${UNKNOWN_TRANSACTION}`,
			},
			then: () =>
				expect(
					[...(sandbox.state.usage as Map<string, IDataObject>).values()].map(
						(entry) => entry.value,
					),
				).not.toContain(5),
		},
	]);

	test("creating usage answers 201; a second entry with the same transaction ID is the API's 400, which says nothing was applied twice and points to Usage → Update", async () => {
		const usage = (value: number) => ({
			resource: 'usage',
			operation: 'create',
			transactionId: 'txn-dup-1',
			subscriptionId,
			brickId: usageBrickId,
			value,
			time: '2026-09-14T10:30:00Z',
		});
		const first = await runBilling(sandbox, usage(10));
		expect(first.error).toBeUndefined();
		expect(sandbox.requests.map((request) => request.status)).toEqual([201]);

		const duplicate = await runBilling(sandbox, usage(11));
		expect(duplicate.items).toHaveLength(0);
		expect(duplicate.error?.message).toMatch(/^ERR_BAD_REQUEST: .*transaction_id: /s);
		expect(duplicate.error?.description).toMatch(
			/^HTTP 400 from POST \/api\/v2\/usage\. The API already has a usage entry with Transaction ID "txn-dup-1" \(recorded by an earlier run, or by another entry given the same ID\), so this one was not recorded: nothing was applied twice\. To change that entry's value, use Usage → Update with this Transaction ID; for a new entry, give a new Transaction ID\.$/,
		);
		expect(
			sandbox.requests.map((request) => [request.body?.transaction_id, request.status]),
		).toEqual([
			['txn-dup-1', 201],
			['txn-dup-1', 400],
		]);
		expect(usageEntry('txn-dup-1').value).toBe(10);

		// Usage → Update changes it, as the error says
		const updated = await runBilling(sandbox, {
			resource: 'usage',
			operation: 'update',
			transactionId: 'txn-dup-1',
			value: 11,
		});
		expect(updated.error).toBeUndefined();
		expect(usageEntry('txn-dup-1').value).toBe(11);

		// with Continue On Fail, the item's own error says the same
		const continued = await runBilling(sandbox, usage(12), { continueOnFail: true });
		expect(continued.items[0].json.error).toMatchObject({
			code: 'ERR_BAD_REQUEST',
			status: 400,
			description: expect.stringContaining('use Usage → Update with this Transaction ID'),
		});
	});
});
