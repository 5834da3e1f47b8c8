import type { IDataObject } from 'n8n-workflow';
import { runBilling, useSandbox, type BillingRun } from '../helpers/billing.cjs';
import {
	operationTable,
	orderStage,
	subscriptionDetail,
	UUID,
} from '../helpers/operationTable.cjs';

const sandbox = useSandbox();
const { subscriptionId, recastOrderId, deletedRecastOrderId, seatsBrickId, addOnBrickId, planId } =
	sandbox.fixtures;
const UNKNOWN_ORDER = '0f0e0d0c-0b0a-4909-8807-060504030201';
const create = (fields: IDataObject) => ({
	resource: 'subscriptionRecast',
	operation: 'create',
	subscriptionId,
	startsAt: '2026-10-01',
	...fields,
});

describe('Subscription Recast', () => {
	operationTable(sandbox, [
		{
			title:
				'Create sends term, frequency, brick rows with a discount, JSON coupons and metadata, and the additional fields',
			parameters: create({
				contractLength: 24,
				billingFrequency: 'ANNUALLY',
				bricksInput: 'fields',
				bricksUi: {
					brick: [
						{ brickId: seatsBrickId, quantity: 40, discountRate: '15', discountRenews: true },
						{ brickId: addOnBrickId, quantity: 1 },
					],
				},
				discountCouponsInput: 'json',
				discountCouponsJson: '["RECAST5"]',
				metadataInput: 'json',
				metadataJson: '{"reason": "renegotiation"}',
				additionalFields: {
					planId,
					adjustmentCredit: 250,
					adjustmentCreditLabel: 'Unused term',
					paymentTerms: 45,
					transactionMethod: 'PROCESSOR',
				},
			}),
			sends: [
				{
					method: 'POST',
					path: `/subscriptions/${subscriptionId}/recast`,
					status: 201,
					headers: { 'x-service-idempotent-operation-key': expect.stringMatching(/^n8n-/) },
					body: {
						starts_at: '2026-10-01',
						contract_length: 24,
						billing_frequency: 'ANNUALLY',
						plan_id: planId,
						adjustment_credit: 250,
						adjustment_credit_label: 'Unused term',
						payment_terms: 45,
						transaction_method: 'PROCESSOR',
						bricks: [
							{ brick_id: seatsBrickId, quantity: 40, discount: { rate: '15', renews: true } },
							{ brick_id: addOnBrickId, quantity: 1 },
						],
						discount_coupons: ['RECAST5'],
						metadata: { reason: 'renegotiation' },
					},
				},
			],
			outputs: [{ order_id: expect.stringMatching(UUID) }],
		},
		{
			title: 'Create takes bricks, coupons and metadata as JSON mapped from the input item',
			parameters: create({
				contractLength: 12,
				billingFrequency: 'QUARTERLY',
				bricksInput: 'json',
				bricksJson: '={{ $json.bricks }}',
				discountCouponsInput: 'json',
				discountCouponsJson: '={{ $json.coupons }}',
				metadataInput: 'json',
				metadataJson: '={{ $json.metadata }}',
			}),
			items: [
				{
					bricks: [{ brick_id: seatsBrickId, quantity: 3, discount: { rate: 10, renews: true } }],
					coupons: ['X1', 'X2'],
					metadata: { crm: 'opp-42' },
				},
			],
			sends: [
				{
					method: 'POST',
					path: `/subscriptions/${subscriptionId}/recast`,
					body: {
						starts_at: '2026-10-01',
						contract_length: 12,
						billing_frequency: 'QUARTERLY',
						bricks: [{ brick_id: seatsBrickId, quantity: 3, discount: { rate: 10, renews: true } }],
						discount_coupons: ['X1', 'X2'],
						metadata: { crm: 'opp-42' },
					},
				},
			],
			outputs: [{ order_id: expect.stringMatching(UUID) }],
		},
		{
			title:
				'Create with a brick quantity of 0 given as rows is refused by the node and nothing is sent',
			parameters: create({
				contractLength: 12,
				billingFrequency: 'MONTHLY',
				bricksInput: 'fields',
				bricksUi: { brick: [{ brickId: seatsBrickId, quantity: 0 }] },
			}),
			sends: [],
			fails: { message: 'Bricks in item 0: the Quantity of entry 1, 0, is less than 1' },
		},
		{
			title:
				'Create with a brick quantity of 1.5 given as JSON is refused by the node and nothing is sent',
			parameters: create({
				contractLength: 12,
				billingFrequency: 'MONTHLY',
				bricksInput: 'json',
				bricksJson: '={{ $json.bricks }}',
			}),
			items: [{ bricks: [{ brick_id: seatsBrickId, quantity: 1.5 }] }],
			sends: [],
			fails: { message: 'Bricks in item 0: the Quantity of entry 1, "1.5", is not a whole number' },
		},
		{
			title: 'Create with a plan ID and an empty bricks JSON array is refused before sending',
			parameters: create({
				contractLength: 12,
				billingFrequency: 'MONTHLY',
				bricksInput: 'json',
				bricksJson: '[]',
				additionalFields: { planId },
			}),
			sends: [],
			fails: { message: 'Bricks in item 0: give at least one brick' },
		},
		{
			title: 'Get Many lists the recast orders with stage, term and bricks',
			parameters: {
				resource: 'subscriptionRecast',
				operation: 'getMany',
				subscriptionId,
				limit: 10,
			},
			sends: [{ method: 'GET', path: `/subscriptions/${subscriptionId}/recast` }],
			outputs: expect.arrayContaining([
				expect.objectContaining({
					order_id: recastOrderId,
					order_type: 'RECAST',
					stage: 'BUILDING',
					billing_frequency: expect.any(String),
				}),
				expect.objectContaining({ order_id: deletedRecastOrderId, stage: 'CLOSED_DELETE' }),
			]),
		},
		{
			title: 'Get Sign URL posts the redirect URL to the order and returns the signing URL',
			parameters: {
				resource: 'subscriptionRecast',
				operation: 'getSignUrl',
				subscriptionId,
				orderId: recastOrderId,
				redirectUrl: 'https://example.com/signed',
			},
			sends: [
				{
					method: 'POST',
					path: `/subscriptions/${subscriptionId}/recast/${recastOrderId}/sign`,
					body: { redirect_url: 'https://example.com/signed' },
				},
			],
			outputs: [{ url: expect.stringContaining(`recast-${recastOrderId}`) }],
		},
		{
			title:
				'Start applies the seeded recast in BUILDING without charging: charge_immediately=no, the order CLOSED',
			parameters: {
				resource: 'subscriptionRecast',
				operation: 'start',
				subscriptionId,
				orderId: recastOrderId,
			},
			sends: [
				{
					method: 'POST',
					path: `/subscriptions/${subscriptionId}/recast/${recastOrderId}/start`,
					query: { charge_immediately: 'no' },
				},
			],
			outputs: [{ subscription_id: subscriptionId }],
			then: async () =>
				expect(await orderStage(sandbox, 'subscriptionRecast', subscriptionId, recastOrderId)).toBe(
					'CLOSED',
				),
		},
		{
			title: 'Delete soft-deletes the order: stage CLOSED_DELETE, the order is kept',
			parameters: {
				resource: 'subscriptionRecast',
				operation: 'delete',
				subscriptionId,
				orderId: recastOrderId,
			},
			sends: [
				{ method: 'DELETE', path: `/subscriptions/${subscriptionId}/recast/${recastOrderId}` },
			],
			outputs: [
				expect.objectContaining({
					deleted: true,
					order_id: recastOrderId,
					message: expect.any(String),
				}),
			],
			then: async () =>
				expect(await orderStage(sandbox, 'subscriptionRecast', subscriptionId, recastOrderId)).toBe(
					'CLOSED_DELETE',
				),
		},
		{
			title:
				"Delete of an order ID the subscription does not have is the API's 404, which the node says is the Order ID (named first), with where an order's ID is found",
			parameters: {
				resource: 'subscriptionRecast',
				operation: 'delete',
				subscriptionId,
				orderId: UNKNOWN_ORDER,
			},
			sends: [
				{
					method: 'DELETE',
					path: `/subscriptions/${subscriptionId}/recast/${UNKNOWN_ORDER}`,
					status: 404,
				},
			],
			fails: {
				message: `ERR_NOT_FOUND: Recast order ${UNKNOWN_ORDER} not found for subscription ${subscriptionId}.`,
				description:
					`HTTP 404 from DELETE /api/v2/subscriptions/${subscriptionId}/recast/${UNKNOWN_ORDER}. The API has no record with the ID "${UNKNOWN_ORDER}" in Order ID, so nothing was changed. ` +
					'Give the order_id from Subscription Upgrade → Get Many (an upgrade) or Subscription Recast → Get Many (a recast).',
			},
			then: async () =>
				expect(
					await orderStage(sandbox, 'subscriptionRecast', subscriptionId, recastOrderId),
				).not.toBe('CLOSED_DELETE'),
		},
		{
			title:
				'Delete under a subscription ID the API does not have: the 404 names Subscription, not the Order ID',
			parameters: {
				resource: 'subscriptionRecast',
				operation: 'delete',
				subscriptionId: 'no-such-subscription',
				orderId: recastOrderId,
			},
			sends: [
				{
					method: 'DELETE',
					path: `/subscriptions/no-such-subscription/recast/${recastOrderId}`,
					status: 404,
				},
			],
			fails: {
				message: 'ERR_NOT_FOUND: Subscription no-such-subscription not found.',
				description:
					`HTTP 404 from DELETE /api/v2/subscriptions/no-such-subscription/recast/${recastOrderId}. The API has no record with the ID "no-such-subscription" in Subscription, so nothing was changed. ` +
					"Give the subscription_id from Customer → Search or Customer → Get (a customer's active_subscription_ids) or from an invoice.",
			},
			then: async () =>
				expect(
					await orderStage(sandbox, 'subscriptionRecast', subscriptionId, recastOrderId),
				).not.toBe('CLOSED_DELETE'),
		},
	]);

	function expectStageClosedDelete(run: BillingRun): void {
		expect(run.items).toHaveLength(0);
		expect(run.error?.message).toMatch(/^ERR_BAD_REQUEST: .*stage CLOSED_DELETE/s);
		expect(run.error?.description).toContain('HTTP 400');
		expect(sandbox.requests.at(-1)?.status).toBe(400);
	}

	async function createdOrder(parameters: IDataObject): Promise<string> {
		const created = await runBilling(sandbox, create(parameters));
		expect(created.error).toBeUndefined();
		return String(created.json[0].order_id);
	}

	test('Start sends charge_immediately and the started recast replaces the agreement', async () => {
		const orderId = await createdOrder({
			contractLength: 24,
			billingFrequency: 'ANNUALLY',
			bricksUi: {
				brick: [
					{ brickId: seatsBrickId, quantity: 40 },
					{ brickId: addOnBrickId, quantity: 2 },
				],
			},
		});
		sandbox.clearRequests();

		const started = await runBilling(sandbox, {
			resource: 'subscriptionRecast',
			operation: 'start',
			subscriptionId,
			orderId,
		});
		expect(started.error).toBeUndefined();
		expect(
			sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, body })),
		).toEqual([
			{
				method: 'POST',
				path: `/api/v2/subscriptions/${subscriptionId}/recast/${orderId}/start`,
				query: { charge_immediately: 'no' },
				body: undefined,
			},
		]);
		expect(sandbox.requests[0].headers['x-service-key']).toBe(sandbox.apiKey);
		expect(started.json).toEqual([{ subscription_id: subscriptionId }]);

		const detail = await subscriptionDetail(sandbox, subscriptionId);
		expect(detail.billing_frequency).toBe('ANNUALLY');
		expect(detail.renewal_contract_period).toBe(24);
		expect(
			(detail.line_items as IDataObject[]).map((item) => [item.brick_id, item.quantity]),
		).toEqual([
			[seatsBrickId, 40],
			[addOnBrickId, 2],
		]);
		expect(await orderStage(sandbox, 'subscriptionRecast', subscriptionId, orderId)).toBe('CLOSED');
	});

	test('a created recast is in stage BUILDING; once deleted it can be neither signed nor started', async () => {
		const orderId = await createdOrder({
			contractLength: 12,
			billingFrequency: 'MONTHLY',
			bricksUi: { brick: [{ brickId: seatsBrickId, quantity: 5 }] },
		});
		expect(await orderStage(sandbox, 'subscriptionRecast', subscriptionId, orderId)).toBe(
			'BUILDING',
		);

		const deleted = await runBilling(sandbox, {
			resource: 'subscriptionRecast',
			operation: 'delete',
			subscriptionId,
			orderId,
		});
		expect(deleted.error).toBeUndefined();
		expect(deleted.json[0]).toMatchObject({ deleted: true, order_id: orderId });
		expect(await orderStage(sandbox, 'subscriptionRecast', subscriptionId, orderId)).toBe(
			'CLOSED_DELETE',
		);

		sandbox.clearRequests();
		expectStageClosedDelete(
			await runBilling(sandbox, {
				resource: 'subscriptionRecast',
				operation: 'getSignUrl',
				subscriptionId,
				orderId,
				redirectUrl: 'https://example.com/x',
			}),
		);
		sandbox.clearRequests();
		expectStageClosedDelete(
			await runBilling(sandbox, {
				resource: 'subscriptionRecast',
				operation: 'start',
				subscriptionId,
				orderId,
			}),
		);
		expect((await subscriptionDetail(sandbox, subscriptionId)).billing_frequency).toBe('QUARTERLY');
	});
});
