import type { IDataObject } from 'n8n-workflow';
import { runBilling, useSandbox, type BillingRun } from '../helpers/billing.cjs';
import {
	NOTHING_SENT,
	operationTable,
	orderStage,
	readBack,
	subscriptionDetail,
	UUID,
} from '../helpers/operationTable.cjs';

const sandbox = useSandbox();
const { subscriptionId, upgradeOrderId, addOnBrickId, seatsBrickId, planId } = sandbox.fixtures;
const UNKNOWN_ORDER = '0f0e0d0c-0b0a-4909-8807-060504030201';
const IDEMPOTENCY_KEY = { 'x-service-idempotent-operation-key': expect.stringMatching(/^n8n-/) };
const create = (fields: IDataObject) => ({
	resource: 'subscriptionUpgrade',
	operation: 'create',
	subscriptionId,
	startsAt: '2026-10-01',
	...fields,
});

describe('Subscription Upgrade', () => {
	operationTable(sandbox, [
		{
			title: 'Create sends bricks, coupons and metadata given as rows, with the additional fields',
			parameters: create({
				bricksInput: 'fields',
				bricksUi: {
					brick: [
						{ brickId: addOnBrickId, quantity: 2 },
						{ brickId: seatsBrickId, quantity: 30, discountRate: '12.5', discountRenews: true },
					],
				},
				discountCouponsInput: 'fields',
				discountCouponsUi: { entry: [{ value: 'WELCOME10' }, { value: 'Q4' }] },
				metadataInput: 'fields',
				metadataUi: {
					pair: [
						{ key: 'source', value: 'n8n' },
						{ key: 'ticket', value: 'T-17' },
					],
				},
				additionalFields: { planId, customOrderFormHtml: '<p>Terms</p>' },
			}),
			sends: [
				{
					method: 'POST',
					path: `/subscriptions/${subscriptionId}/upgrade`,
					status: 201,
					headers: IDEMPOTENCY_KEY,
					body: {
						starts_at: '2026-10-01',
						plan_id: planId,
						custom_order_form_html: '<p>Terms</p>',
						bricks: [
							{ brick_id: addOnBrickId, quantity: 2 },
							{ brick_id: seatsBrickId, quantity: 30, discount: { rate: '12.5', renews: true } },
						],
						discount_coupons: ['WELCOME10', 'Q4'],
						metadata: { source: 'n8n', ticket: 'T-17' },
					},
				},
			],
			outputs: [
				{
					order_id: expect.stringMatching(UUID),
					contract_value: expect.any(Number),
					pdf_url: expect.stringContaining('.pdf'),
					starts_at: '2026-10-01',
					ends_at: expect.any(String),
					order_type: 'UPGRADE',
				},
			],
		},
		{
			title: 'Create takes bricks, coupons and metadata as JSON mapped from each input item',
			parameters: create({
				bricksInput: 'json',
				bricksJson: '={{ $json.bricks }}',
				discountCouponsInput: 'json',
				discountCouponsJson: '={{ $json.coupons }}',
				metadataInput: 'json',
				metadataJson: '={{ $json.meta }}',
			}),
			items: [
				{ bricks: [{ brick_id: addOnBrickId, quantity: 1 }], coupons: ['A'], meta: { row: 1 } },
				{
					bricks: [{ brick_id: seatsBrickId, quantity: 40, discount: { rate: 5, renews: false } }],
					coupons: [],
					meta: { row: 2 },
				},
			],
			sends: [
				{
					method: 'POST',
					path: `/subscriptions/${subscriptionId}/upgrade`,
					body: {
						starts_at: '2026-10-01',
						bricks: [{ brick_id: addOnBrickId, quantity: 1 }],
						discount_coupons: ['A'],
						metadata: { row: 1 },
					},
				},
				{
					method: 'POST',
					path: `/subscriptions/${subscriptionId}/upgrade`,
					body: {
						starts_at: '2026-10-01',
						bricks: [
							{ brick_id: seatsBrickId, quantity: 40, discount: { rate: 5, renews: false } },
						],
						discount_coupons: [],
						metadata: { row: 2 },
					},
				},
			],
			outputs: [
				expect.objectContaining({ order_type: 'UPGRADE' }),
				expect.objectContaining({ order_type: 'UPGRADE' }),
			],
			pairedItems: [0, 1],
		},
		{
			title:
				'Create with a brick quantity of 0 given as JSON is refused by the node (the API would accept it: it removes the add-on); nothing is sent',
			parameters: create({ bricksInput: 'json', bricksJson: '={{ $json.bricks }}' }),
			items: [{ bricks: [{ brick_id: seatsBrickId, quantity: 0 }] }],
			sends: [],
			fails: { message: 'Bricks in item 0: the Quantity of entry 1, 0, is less than 1' },
		},
		{
			title:
				'Create with a brick quantity of 1.5 given as rows is refused by the node and nothing is sent',
			parameters: create({
				bricksInput: 'fields',
				bricksUi: { brick: [{ brickId: seatsBrickId, quantity: 1.5 }] },
			}),
			sends: [],
			fails: { message: 'Bricks in item 0: the Quantity of entry 1, "1.5", is not a whole number' },
		},
		{
			title: 'Create with a plan ID and an empty bricks JSON array is refused before sending',
			parameters: create({ bricksInput: 'json', bricksJson: '[]', additionalFields: { planId } }),
			sends: [],
			fails: { message: 'Bricks in item 0: give at least one brick' },
		},
		{
			title: 'Get Many lists the upgrade orders of the subscription with their stage and bricks',
			parameters: {
				resource: 'subscriptionUpgrade',
				operation: 'getMany',
				subscriptionId,
				returnAll: true,
			},
			sends: [{ method: 'GET', path: `/subscriptions/${subscriptionId}/upgrade` }],
			outputs: expect.arrayContaining([
				expect.objectContaining({
					order_id: upgradeOrderId,
					order_type: 'UPGRADE',
					stage: 'BUILDING',
					bricks: expect.arrayContaining([expect.anything()]),
				}),
			]),
		},
		{
			title: 'Get Sign URL posts the redirect URL to the order and returns the signing URL',
			parameters: {
				resource: 'subscriptionUpgrade',
				operation: 'getSignUrl',
				subscriptionId,
				orderId: upgradeOrderId,
				redirectUrl: 'https://example.com/signed',
			},
			sends: [
				{
					method: 'POST',
					path: `/subscriptions/${subscriptionId}/upgrade/${upgradeOrderId}/sign`,
					body: { redirect_url: 'https://example.com/signed' },
				},
			],
			outputs: [{ url: expect.stringContaining(`upgrade-${upgradeOrderId}`) }],
		},
		{
			title:
				'Get Sign URL still needs a redirect URL (the public reference requires it): refused before sending',
			parameters: {
				resource: 'subscriptionUpgrade',
				operation: 'getSignUrl',
				subscriptionId,
				orderId: upgradeOrderId,
				redirectUrl: '={{ "" }}',
			},
			sends: [],
			fails: { message: 'Redirect URL in item 0: is required', description: NOTHING_SENT },
		},
		{
			title:
				'Start with Charge Immediately sends charge_immediately=yes and raises an invoice for the upgrade',
			parameters: {
				resource: 'subscriptionUpgrade',
				operation: 'start',
				subscriptionId,
				orderId: upgradeOrderId,
				chargeImmediately: true,
			},
			sends: [
				{
					method: 'POST',
					path: `/subscriptions/${subscriptionId}/upgrade/${upgradeOrderId}/start`,
					query: { charge_immediately: 'yes' },
				},
			],
			outputs: [{ subscription_id: subscriptionId }],
			then: async () => {
				expect((await subscriptionDetail(sandbox, subscriptionId)).line_items).toEqual(
					expect.arrayContaining([
						expect.objectContaining({ brick_id: addOnBrickId, quantity: 1 }),
					]),
				);
				const invoices = await readBack(sandbox, {
					resource: 'invoice',
					operation: 'getManyForSubscription',
					subscriptionId,
					returnAll: true,
					invoiceOutput: 'raw',
				});
				expect(
					invoices.filter(
						(invoice) => (invoice.metadata as IDataObject | null)?.order_id === upgradeOrderId,
					),
				).toHaveLength(1);
			},
		},
		{
			title: 'Start without Charge Immediately sends charge_immediately=no',
			parameters: {
				resource: 'subscriptionUpgrade',
				operation: 'start',
				subscriptionId,
				orderId: upgradeOrderId,
			},
			sends: [
				{
					method: 'POST',
					path: `/subscriptions/${subscriptionId}/upgrade/${upgradeOrderId}/start`,
					query: { charge_immediately: 'no' },
				},
			],
			outputs: [{ subscription_id: subscriptionId }],
		},
		{
			title:
				"Get Sign URL of an order ID the subscription does not have is the API's 404, naming Order ID and where an order's ID is found",
			parameters: {
				resource: 'subscriptionUpgrade',
				operation: 'getSignUrl',
				subscriptionId,
				orderId: UNKNOWN_ORDER,
				redirectUrl: 'https://example.com/signed',
			},
			sends: [
				{
					method: 'POST',
					path: `/subscriptions/${subscriptionId}/upgrade/${UNKNOWN_ORDER}/sign`,
					status: 404,
					body: { redirect_url: 'https://example.com/signed' },
				},
			],
			fails: {
				message: `ERR_NOT_FOUND: Upgrade order ${UNKNOWN_ORDER} not found for subscription ${subscriptionId}.`,
				description:
					`HTTP 404 from POST /api/v2/subscriptions/${subscriptionId}/upgrade/${UNKNOWN_ORDER}/sign. The API has no record with the ID "${UNKNOWN_ORDER}" in Order ID, so nothing was changed. ` +
					'Give the order_id from Subscription Upgrade → Get Many (an upgrade) or Subscription Recast → Get Many (a recast).',
			},
		},
	]);

	function expectStageClosed(run: BillingRun): void {
		expect(run.items).toHaveLength(0);
		expect(run.error?.message).toMatch(/^ERR_BAD_REQUEST: .*stage CLOSED/s);
		expect(run.error?.description).toContain('HTTP 400');
		expect(sandbox.requests.at(-1)?.status).toBe(400);
	}

	test('a created upgrade is in stage BUILDING, can be signed and started once, then no longer', async () => {
		const created = await runBilling(
			sandbox,
			create({ bricksUi: { brick: [{ brickId: addOnBrickId, quantity: 3 }] } }),
		);
		expect(created.error).toBeUndefined();
		const orderId = String(created.json[0].order_id);
		expect(await orderStage(sandbox, 'subscriptionUpgrade', subscriptionId, orderId)).toBe(
			'BUILDING',
		);

		const sign = {
			resource: 'subscriptionUpgrade',
			operation: 'getSignUrl',
			subscriptionId,
			orderId,
			redirectUrl: 'https://example.com/x',
		};
		expect((await runBilling(sandbox, sign)).error).toBeUndefined();
		expect(
			(
				await runBilling(sandbox, {
					resource: 'subscriptionUpgrade',
					operation: 'start',
					subscriptionId,
					orderId,
				})
			).error,
		).toBeUndefined();
		expect(await orderStage(sandbox, 'subscriptionUpgrade', subscriptionId, orderId)).toBe(
			'CLOSED',
		);
		expect((await subscriptionDetail(sandbox, subscriptionId)).line_items).toEqual(
			expect.arrayContaining([expect.objectContaining({ brick_id: addOnBrickId, quantity: 3 })]),
		);

		sandbox.clearRequests();
		expectStageClosed(await runBilling(sandbox, sign));
		sandbox.clearRequests();
		// A second execution carries a new derived key: the API processes the start again and refuses it.
		expectStageClosed(
			await runBilling(sandbox, {
				resource: 'subscriptionUpgrade',
				operation: 'start',
				subscriptionId,
				orderId,
			}),
		);
		expect(sandbox.requests.at(-1)?.headers['x-service-idempotent-operation-key']).toMatch(/^n8n-/);
	});
});
