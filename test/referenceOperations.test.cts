import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runBilling, useSandbox, type BillingRun, type ReceivedRequest } from './helpers/billing.cjs';

// Operations of the node beyond the contract's ten (issue #4), run through n8n's engine against
// the sandbox: what the node sends, what it outputs, and how each API rule surfaces.

const sandbox = useSandbox();

const IDEMPOTENCY_HEADER = 'x-service-idempotent-operation-key';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function onlyRequest(): ReceivedRequest {
	expect(sandbox.requests).toHaveLength(1);
	return sandbox.requests[0];
}

/** The one request the sandbox received: method, path below /api/v2, query, body and the key. */
function expectSent(expected: { method: string; path: string; query?: Record<string, string>; body?: unknown }): ReceivedRequest {
	const request = onlyRequest();
	expect({ method: request.method, path: request.path, query: request.query, body: request.body }).toEqual({
		method: expected.method,
		path: `/api/v2${expected.path}`,
		query: expected.query ?? {},
		body: expected.body,
	});
	expect(request.headers['x-service-key']).toBe(sandbox.apiKey);
	return request;
}

function expectSucceeded(run: BillingRun): void {
	expect(run.error).toBeUndefined();
}

/** The node refused the input itself: its message names the field, and nothing reached the API. */
function expectRefusedBeforeSending(run: BillingRun, message: string | RegExp): void {
	expect(run.items).toHaveLength(0);
	expect(run.error?.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
	expect(sandbox.requests).toHaveLength(0);
}

/** The API rejected the request: the node's message starts with the API's code. */
function expectApiError(run: BillingRun, code: string, status: number, messagePart: string): void {
	expect(run.items).toHaveLength(0);
	expect(run.error?.message).toMatch(new RegExp(`^${code}: `));
	expect(run.error?.message).toContain(messagePart);
	expect(run.error?.description).toContain(`HTTP ${status}`);
	expect(sandbox.requests.at(-1)?.status).toBe(status);
}

async function run(parameters: INodeParameters, items?: IDataObject[]): Promise<BillingRun> {
	return runBilling(sandbox, parameters, items ? { items } : {});
}

/** Runs a read-back without leaving its request in the log of the next assertion. */
async function readBack(parameters: INodeParameters): Promise<IDataObject[]> {
	const result = await run(parameters);
	expectSucceeded(result);
	return result.json;
}

async function subscriptionDetail(subscriptionId: string): Promise<IDataObject> {
	const [detail] = await readBack({ resource: 'subscription', operation: 'get', subscriptionId, output: 'raw' });
	return detail;
}

async function orderStage(resource: 'subscriptionUpgrade' | 'subscriptionRecast', subscriptionId: string, orderId: string) {
	const orders = await readBack({ resource, operation: 'getMany', subscriptionId, returnAll: true });
	return orders.find((order) => order.order_id === orderId)?.stage;
}

describe('Customer', () => {
	test('Get Many with a limit asks the API for that many and returns each customer as an item', async () => {
		const result = await run({ resource: 'customer', operation: 'getMany', limit: 3 });
		expectSucceeded(result);
		expectSent({ method: 'GET', path: '/customers', query: { limit: '3' } });
		expect(result.json).toHaveLength(3);
		for (const customer of result.json) expect(customer.customer_id).toMatch(UUID);
		expect(result.json[0]).toMatchObject({ customer_id: sandbox.fixtures.customerId, name: sandbox.fixtures.customerName });
	});

	test('Get Many with Return All returns every customer', async () => {
		const result = await run({ resource: 'customer', operation: 'getMany', returnAll: true });
		expectSucceeded(result);
		expectSent({ method: 'GET', path: '/customers', query: { limit: '1000' } });
		expect(result.json).toHaveLength(Number(sandbox.fixtures.customerCount));
		expect(new Set(result.json.map((customer) => customer.customer_id)).size).toBe(result.json.length);
	});
});

describe('Invoice', () => {
	test('Search sends the customer ID and invoice numbers given as rows, and returns the matching invoice', async () => {
		const { customerId, invoiceNumber, invoiceId } = sandbox.fixtures;
		const result = await run({
			resource: 'invoice',
			operation: 'search',
			customerId,
			invoiceNumbersInput: 'fields',
			invoiceNumbersUi: { entry: [{ value: invoiceNumber }, { value: 'INV-9999999' }] },
			returnAll: true,
		});
		expectSucceeded(result);
		expectSent({
			method: 'POST',
			path: '/invoices/search',
			query: { limit: '1000' },
			body: { customer_id: customerId, invoice_numbers: [invoiceNumber, 'INV-9999999'] },
		});
		expect(result.json).toHaveLength(1);
		expect(result.json[0]).toMatchObject({ invoice_id: invoiceId, invoice_number: invoiceNumber, customer_id: customerId });
	});

	test('Search takes invoice IDs as a JSON array mapped from the input item', async () => {
		const { customerId, invoiceId, invoiceNumber } = sandbox.fixtures;
		const result = await run(
			{ resource: 'invoice', operation: 'search', customerId, invoiceIdsInput: 'json', invoiceIdsJson: '={{ $json.ids }}', limit: 5 },
			[{ ids: [invoiceId] }],
		);
		expectSucceeded(result);
		expectSent({ method: 'POST', path: '/invoices/search', query: { limit: '5' }, body: { customer_id: customerId, invoice_ids: [invoiceId] } });
		expect(result.json).toHaveLength(1);
		expect(result.json[0]).toMatchObject({ invoice_id: invoiceId, invoice_number: invoiceNumber });
	});

	test('Search refuses an invoice ID that is not a UUID before sending', async () => {
		const result = await run({
			resource: 'invoice',
			operation: 'search',
			customerId: sandbox.fixtures.customerId,
			invoiceIdsInput: 'json',
			invoiceIdsJson: '["INV-0000001"]',
		});
		expectRefusedBeforeSending(result, /^Invoice IDs in item 0: entry 1, "INV-0000001", is not a UUID/);
	});

	test('Get Many for Subscription sends sort and scope as query parameters', async () => {
		const { subscriptionId } = sandbox.fixtures;
		const result = await run({
			resource: 'invoice',
			operation: 'getManyForSubscription',
			subscriptionId,
			options: { ordering: 'amount', scope: 'current' },
			returnAll: true,
		});
		expectSucceeded(result);
		expectSent({
			method: 'GET',
			path: `/subscriptions/${subscriptionId}/invoices`,
			query: { ordering: 'amount', scope: 'current', limit: '1000' },
		});
		expect(result.json.length).toBeGreaterThan(1);
		for (const invoice of result.json) expect(invoice.subscription_id).toBe(subscriptionId);
		const amounts = result.json.map((invoice) => Number(invoice.grand_total));
		expect([...amounts].sort((a, b) => a - b)).toEqual(amounts);
	});
});

describe('Plan', () => {
	test('Get returns the plan with its bricks', async () => {
		const { planId, seatsBrickId, usageBrickId } = sandbox.fixtures;
		const result = await run({ resource: 'plan', operation: 'get', planId });
		expectSucceeded(result);
		expectSent({ method: 'GET', path: `/plans/${planId}` });
		expect(result.json).toHaveLength(1);
		expect(result.json[0]).toMatchObject({ plan_id: planId, plan_name: expect.any(String) });
		expect(result.json[0].bricks).toEqual(
			expect.arrayContaining([
				{ brick_id: seatsBrickId, brick_name: expect.any(String), brick_type: 'RECURRING' },
				{ brick_id: usageBrickId, brick_name: expect.any(String), brick_type: 'USAGE' },
			]),
		);
	});

	test('Get Many sends the sort order and returns every plan with its bricks', async () => {
		const result = await run({ resource: 'plan', operation: 'getMany', ordering: 'created_at', returnAll: true });
		expectSucceeded(result);
		expectSent({ method: 'GET', path: '/plans', query: { ordering: 'created_at', limit: '1000' } });
		const ids = result.json.map((plan) => plan.plan_id);
		expect(ids).toEqual(expect.arrayContaining([sandbox.fixtures.planId, sandbox.fixtures.otherPlanId]));
		const created = result.json.map((plan) => String(plan.created_at));
		expect([...created].sort()).toEqual(created);
		for (const plan of result.json) expect((plan.bricks as IDataObject[]).length).toBeGreaterThan(0);
	});
});

describe('Subscription', () => {
	test('Get Management URL returns the billing portal URL and its expiry', async () => {
		const { subscriptionId } = sandbox.fixtures;
		const result = await run({ resource: 'subscription', operation: 'getManagementUrl', subscriptionId });
		expectSucceeded(result);
		expectSent({ method: 'GET', path: `/subscriptions/${subscriptionId}/billing-portal` });
		expect(result.json).toEqual([{ url: expect.stringContaining(`/portal/${subscriptionId}`), url_expires_at: expect.stringMatching(/Z$/) }]);
	});
});

describe('Subscription Upgrade', () => {
	test('Create sends bricks, coupons and metadata given as rows, with the additional fields', async () => {
		const { subscriptionId, addOnBrickId, seatsBrickId, planId } = sandbox.fixtures;
		const result = await run({
			resource: 'subscriptionUpgrade',
			operation: 'create',
			subscriptionId,
			startsAt: '2026-10-01',
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
			metadataUi: { pair: [{ key: 'source', value: 'n8n' }, { key: 'ticket', value: 'T-17' }] },
			additionalFields: { planId, customOrderFormHtml: '<p>Terms</p>' },
		});
		expectSucceeded(result);
		const request = expectSent({
			method: 'POST',
			path: `/subscriptions/${subscriptionId}/upgrade`,
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
		});
		expect(request.status).toBe(201);
		expect(request.headers[IDEMPOTENCY_HEADER]).toMatch(/^n8n-/);
		expect(result.json).toEqual([
			{
				order_id: expect.stringMatching(UUID),
				contract_value: expect.any(Number),
				pdf_url: expect.stringContaining('.pdf'),
				starts_at: '2026-10-01',
				ends_at: expect.any(String),
				order_type: 'UPGRADE',
			},
		]);
	});

	test('Create takes bricks, coupons and metadata as JSON mapped from each input item', async () => {
		const { subscriptionId, addOnBrickId, seatsBrickId } = sandbox.fixtures;
		const items = [
			{ bricks: [{ brick_id: addOnBrickId, quantity: 1 }], coupons: ['A'], meta: { row: 1 } },
			{ bricks: [{ brick_id: seatsBrickId, quantity: 40, discount: { rate: 5, renews: false } }], coupons: [], meta: { row: 2 } },
		];
		const result = await run(
			{
				resource: 'subscriptionUpgrade',
				operation: 'create',
				subscriptionId,
				startsAt: '2026-10-01',
				bricksInput: 'json',
				bricksJson: '={{ $json.bricks }}',
				discountCouponsInput: 'json',
				discountCouponsJson: '={{ $json.coupons }}',
				metadataInput: 'json',
				metadataJson: '={{ $json.meta }}',
			},
			items,
		);
		expectSucceeded(result);
		expect(sandbox.requests).toHaveLength(2);
		const bodies = sandbox.requests.map((request) => request.body).sort((a, b) => Number((a?.metadata as { row?: unknown })?.row) - Number((b?.metadata as { row?: unknown })?.row));
		expect(bodies).toEqual(
			items.map((item) => ({ starts_at: '2026-10-01', bricks: item.bricks, discount_coupons: item.coupons, metadata: item.meta })),
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(result.json.map((order) => order.order_type)).toEqual(['UPGRADE', 'UPGRADE']);
	});

	test('Get Many lists the upgrade orders of the subscription with their stage and bricks', async () => {
		const { subscriptionId, upgradeOrderId } = sandbox.fixtures;
		const result = await run({ resource: 'subscriptionUpgrade', operation: 'getMany', subscriptionId, returnAll: true });
		expectSucceeded(result);
		expectSent({ method: 'GET', path: `/subscriptions/${subscriptionId}/upgrade` });
		const order = result.json.find((entry) => entry.order_id === upgradeOrderId);
		expect(order).toMatchObject({ order_type: 'UPGRADE', stage: 'BUILDING' });
		expect((order?.bricks as IDataObject[]).length).toBeGreaterThan(0);
	});

	test('Start with Charge Immediately sends charge_immediately=yes and raises an invoice for the upgrade', async () => {
		const { subscriptionId, upgradeOrderId, addOnBrickId } = sandbox.fixtures;
		const result = await run({
			resource: 'subscriptionUpgrade',
			operation: 'start',
			subscriptionId,
			orderId: upgradeOrderId,
			chargeImmediately: true,
		});
		expectSucceeded(result);
		expectSent({
			method: 'POST',
			path: `/subscriptions/${subscriptionId}/upgrade/${upgradeOrderId}/start`,
			query: { charge_immediately: 'yes' },
		});
		expect(result.json).toEqual([{ subscription_id: subscriptionId }]);

		const detail = await subscriptionDetail(subscriptionId);
		expect(detail.line_items).toEqual(expect.arrayContaining([expect.objectContaining({ brick_id: addOnBrickId, quantity: 1 })]));
		const invoices = await readBack({
			resource: 'invoice',
			operation: 'getManyForSubscription',
			subscriptionId,
			returnAll: true,
			invoiceOutput: 'raw',
		});
		expect(invoices.filter((invoice) => (invoice.metadata as IDataObject | null)?.order_id === upgradeOrderId)).toHaveLength(1);
	});

	test('Start without Charge Immediately sends charge_immediately=no', async () => {
		const { subscriptionId, upgradeOrderId } = sandbox.fixtures;
		const result = await run({ resource: 'subscriptionUpgrade', operation: 'start', subscriptionId, orderId: upgradeOrderId });
		expectSucceeded(result);
		expectSent({
			method: 'POST',
			path: `/subscriptions/${subscriptionId}/upgrade/${upgradeOrderId}/start`,
			query: { charge_immediately: 'no' },
		});
		expect(result.json).toEqual([{ subscription_id: subscriptionId }]);
	});
});

describe('Subscription Recast', () => {
	test('Create sends term, frequency, brick rows with a discount, JSON coupons and metadata, and the additional fields', async () => {
		const { subscriptionId, seatsBrickId, addOnBrickId, planId } = sandbox.fixtures;
		const result = await run({
			resource: 'subscriptionRecast',
			operation: 'create',
			subscriptionId,
			startsAt: '2026-10-01',
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
		});
		expectSucceeded(result);
		const request = expectSent({
			method: 'POST',
			path: `/subscriptions/${subscriptionId}/recast`,
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
		});
		expect(request.status).toBe(201);
		expect(request.headers[IDEMPOTENCY_HEADER]).toMatch(/^n8n-/);
		expect(result.json).toEqual([{ order_id: expect.stringMatching(UUID) }]);
	});

	test('Create takes bricks, coupons and metadata as JSON mapped from the input item', async () => {
		const { subscriptionId, seatsBrickId } = sandbox.fixtures;
		const bricks = [{ brick_id: seatsBrickId, quantity: 3, discount: { rate: 10, renews: true } }];
		const result = await run(
			{
				resource: 'subscriptionRecast',
				operation: 'create',
				subscriptionId,
				startsAt: '2026-10-01',
				contractLength: 12,
				billingFrequency: 'QUARTERLY',
				bricksInput: 'json',
				bricksJson: '={{ $json.bricks }}',
				discountCouponsInput: 'json',
				discountCouponsJson: '={{ $json.coupons }}',
				metadataInput: 'json',
				metadataJson: '={{ $json.metadata }}',
			},
			[{ bricks, coupons: ['X1', 'X2'], metadata: { crm: 'opp-42' } }],
		);
		expectSucceeded(result);
		expectSent({
			method: 'POST',
			path: `/subscriptions/${subscriptionId}/recast`,
			body: {
				starts_at: '2026-10-01',
				contract_length: 12,
				billing_frequency: 'QUARTERLY',
				bricks,
				discount_coupons: ['X1', 'X2'],
				metadata: { crm: 'opp-42' },
			},
		});
		expect(result.json).toEqual([{ order_id: expect.stringMatching(UUID) }]);
	});

	test('Get Many lists the recast orders with stage, term and bricks', async () => {
		const { subscriptionId, recastOrderId, deletedRecastOrderId } = sandbox.fixtures;
		const result = await run({ resource: 'subscriptionRecast', operation: 'getMany', subscriptionId, limit: 10 });
		expectSucceeded(result);
		expectSent({ method: 'GET', path: `/subscriptions/${subscriptionId}/recast` });
		const byId = new Map(result.json.map((order) => [order.order_id, order]));
		expect(byId.get(recastOrderId)).toMatchObject({ order_type: 'RECAST', stage: 'BUILDING', billing_frequency: expect.any(String) });
		expect(byId.get(deletedRecastOrderId)).toMatchObject({ stage: 'CLOSED_DELETE' });
	});

	test('Start sends charge_immediately and the started recast replaces the agreement', async () => {
		const { subscriptionId, seatsBrickId, addOnBrickId } = sandbox.fixtures;
		const created = await run({
			resource: 'subscriptionRecast',
			operation: 'create',
			subscriptionId,
			startsAt: '2026-10-01',
			contractLength: 24,
			billingFrequency: 'ANNUALLY',
			bricksUi: { brick: [{ brickId: seatsBrickId, quantity: 40 }, { brickId: addOnBrickId, quantity: 2 }] },
		});
		expectSucceeded(created);
		const orderId = String(created.json[0].order_id);
		sandbox.clearRequests();

		const result = await run({ resource: 'subscriptionRecast', operation: 'start', subscriptionId, orderId });
		expectSucceeded(result);
		expectSent({
			method: 'POST',
			path: `/subscriptions/${subscriptionId}/recast/${orderId}/start`,
			query: { charge_immediately: 'no' },
		});
		expect(result.json).toEqual([{ subscription_id: subscriptionId }]);

		const detail = await subscriptionDetail(subscriptionId);
		expect(detail.billing_frequency).toBe('ANNUALLY');
		expect(detail.renewal_contract_period).toBe(24);
		expect((detail.line_items as IDataObject[]).map((item) => [item.brick_id, item.quantity])).toEqual([
			[seatsBrickId, 40],
			[addOnBrickId, 2],
		]);
		expect(await orderStage('subscriptionRecast', subscriptionId, orderId)).toBe('CLOSED');
	});
});

describe('Upgrade and recast orders', () => {
	test.each([
		['subscriptionUpgrade', 'upgrade', 'upgradeOrderId'],
		['subscriptionRecast', 'recast', 'recastOrderId'],
	])('%s Get Sign URL posts the redirect URL to the order and returns the signing URL', async (resource, pathPart, fixture) => {
		const { subscriptionId } = sandbox.fixtures;
		const orderId = sandbox.fixtures[fixture];
		const result = await run({ resource, operation: 'getSignUrl', subscriptionId, orderId, redirectUrl: 'https://example.com/signed' });
		expectSucceeded(result);
		expectSent({
			method: 'POST',
			path: `/subscriptions/${subscriptionId}/${pathPart}/${orderId}/sign`,
			body: { redirect_url: 'https://example.com/signed' },
		});
		expect(result.json).toEqual([{ url: expect.stringContaining(`${pathPart}-${orderId}`) }]);
	});
});

describe('Subscription Milestone', () => {
	test('Get Many lists the milestones with the quantity contracted and completed', async () => {
		const { subscriptionId, milestoneId, milestoneBrickId } = sandbox.fixtures;
		const result = await run({ resource: 'subscriptionMilestone', operation: 'getMany', subscriptionId, returnAll: true });
		expectSucceeded(result);
		expectSent({ method: 'GET', path: `/subscriptions/${subscriptionId}/milestones` });
		expect(result.json).toEqual([
			expect.objectContaining({ milestone_id: milestoneId, brick_id: milestoneBrickId, quantity: 10, quantity_completed: 3 }),
		]);
	});

	test('Complete billed immediately sends the quantity and the invoice dates and raises an invoice', async () => {
		const { subscriptionId, milestoneId } = sandbox.fixtures;
		const result = await run({
			resource: 'subscriptionMilestone',
			operation: 'complete',
			subscriptionId,
			milestoneId,
			quantity: 2,
			billOn: 'IMMEDIATELY',
			invoiceDates: { issuedAt: '2026-10-01', dueAt: '2026-10-31', serviceDate: '2026-09-30' },
		});
		expectSucceeded(result);
		expectSent({
			method: 'POST',
			path: `/subscriptions/${subscriptionId}/milestones/${milestoneId}/complete`,
			body: { quantity: 2, bill_on: 'IMMEDIATELY', issued_at: '2026-10-01', due_at: '2026-10-31', service_date: '2026-09-30' },
		});
		expect(result.json).toHaveLength(1);
		expect(result.json[0]).toMatchObject({
			milestone_id: milestoneId,
			quantity_completed: 5,
			quantity_remaining: 5,
			bill_on: 'IMMEDIATELY',
			invoice_id: expect.stringMatching(UUID),
		});
	});

	test('Complete on the next invoice sends no invoice dates and bills on the next scheduled invoice', async () => {
		const { subscriptionId, milestoneId } = sandbox.fixtures;
		const result = await run({
			resource: 'subscriptionMilestone',
			operation: 'complete',
			subscriptionId,
			milestoneId,
			quantity: 1,
			billOn: 'NEXT_INVOICE',
			// Shown only for Immediately in the editor; a leftover value must not reach the API.
			invoiceDates: { issuedAt: '2026-10-01' },
		});
		expectSucceeded(result);
		expectSent({
			method: 'POST',
			path: `/subscriptions/${subscriptionId}/milestones/${milestoneId}/complete`,
			body: { quantity: 1, bill_on: 'NEXT_INVOICE' },
		});
		expect(result.json[0]).toMatchObject({ quantity_completed: 4, bill_on: 'NEXT_INVOICE', invoice_id: null, next_invoice_starts_at: expect.any(String) });
	});

	test('Complete may take the completed total exactly to the milestone total', async () => {
		const { subscriptionId, milestoneId } = sandbox.fixtures;
		const result = await run({ resource: 'subscriptionMilestone', operation: 'complete', subscriptionId, milestoneId, quantity: 7, billOn: 'IMMEDIATELY' });
		expectSucceeded(result);
		expect(result.json[0]).toMatchObject({ quantity: 10, quantity_completed: 10, quantity_remaining: 0 });
	});
});

describe('Payment Method', () => {
	test("Get Default returns the customer's default payment method", async () => {
		const { subscriptionId, defaultPaymentMethodId } = sandbox.fixtures;
		const result = await run({ resource: 'paymentMethod', operation: 'getDefault', subscriptionId });
		expectSucceeded(result);
		expectSent({ method: 'GET', path: `/subscriptions/${subscriptionId}/payment-methods/default` });
		expect(result.json).toEqual([
			{ payment_method_id: defaultPaymentMethodId, is_default: true, type: 'card', card: { brand: expect.any(String), last4: expect.stringMatching(/^\d{4}$/) } },
		]);
	});

	test("Get Many lists the customer's payment methods, exactly one of them the default", async () => {
		const { subscriptionId, defaultPaymentMethodId, paymentMethodId } = sandbox.fixtures;
		const result = await run({ resource: 'paymentMethod', operation: 'getMany', subscriptionId, returnAll: true });
		expectSucceeded(result);
		expectSent({ method: 'GET', path: `/subscriptions/${subscriptionId}/payment-methods` });
		expect(result.json.map((method) => method.payment_method_id)).toEqual(expect.arrayContaining([defaultPaymentMethodId, paymentMethodId]));
		expect(result.json.filter((method) => method.is_default)).toEqual([expect.objectContaining({ payment_method_id: defaultPaymentMethodId })]);
	});

	test("Set Up posts to the subscription's payment methods and returns the processor's checkout secrets", async () => {
		const { subscriptionId } = sandbox.fixtures;
		const result = await run({ resource: 'paymentMethod', operation: 'setUp', subscriptionId });
		expectSucceeded(result);
		expectSent({ method: 'POST', path: `/subscriptions/${subscriptionId}/payment-methods` });
		expect(result.json).toEqual([
			{
				processor_account_id: expect.stringMatching(/^acct_/),
				client_secret: expect.any(String),
				publishable_key: expect.stringMatching(/^pk_/),
				customer_session_client_secret: expect.any(String),
			},
		]);
	});
});

describe('Usage', () => {
	test('Create sends the entry with key/value properties and the API answers 201', async () => {
		const { subscriptionId, usageBrickId } = sandbox.fixtures;
		const result = await run({
			resource: 'usage',
			operation: 'create',
			transactionId: 'txn-n8n-0001',
			subscriptionId,
			brickId: usageBrickId,
			value: 120,
			time: '2026-09-14T10:30:00Z',
			propertiesInput: 'fields',
			propertiesUi: { pair: [{ key: 'endpoint', value: '/v1/search' }] },
		});
		expectSucceeded(result);
		const request = expectSent({
			method: 'POST',
			path: '/usage',
			body: {
				transaction_id: 'txn-n8n-0001',
				subscription_id: subscriptionId,
				brick_id: usageBrickId,
				value: 120,
				time: '2026-09-14T10:30:00Z',
				properties: { endpoint: '/v1/search' },
			},
		});
		expect(request.status).toBe(201);
		expect(result.json).toEqual([
			{
				transaction_id: 'txn-n8n-0001',
				subscription_id: subscriptionId,
				brick_id: usageBrickId,
				value: 120,
				time: '2026-09-14T10:30:00Z',
				properties: { endpoint: '/v1/search' },
			},
		]);
	});

	test('Create takes properties as JSON mapped from the input item and defaults the time to now', async () => {
		const { subscriptionId, usageBrickId } = sandbox.fixtures;
		const before = Date.now();
		const result = await run(
			{
				resource: 'usage',
				operation: 'create',
				transactionId: '={{ $json.txn }}',
				subscriptionId,
				brickId: usageBrickId,
				value: 3,
				propertiesInput: 'json',
				propertiesJson: '={{ $json.props }}',
			},
			[{ txn: 'txn-n8n-0002', props: { region: 'eu', batch: 7 } }],
		);
		expectSucceeded(result);
		const request = onlyRequest();
		expect(request.body).toMatchObject({ transaction_id: 'txn-n8n-0002', value: 3, properties: { region: 'eu', batch: 7 } });
		expect(Date.parse(String(request.body?.time))).toBeGreaterThanOrEqual(before - 1000);
		expect(request.status).toBe(201);
	});
});

describe('API rules as failures', () => {
	test.each([
		[0, 'Quantity in item 0: 0 is less than 1'],
		[1.5, 'Quantity in item 0: "1.5" is not a whole number'],
	])('a milestone quantity of %p is refused by the node, naming the field, and nothing is sent', async (quantity, message) => {
		const { subscriptionId, milestoneId } = sandbox.fixtures;
		const result = await run({ resource: 'subscriptionMilestone', operation: 'complete', subscriptionId, milestoneId, quantity, billOn: 'IMMEDIATELY' });
		expectRefusedBeforeSending(result, message);
	});

	test.each([
		['subscriptionRecast', 0, 'rows', 'Bricks in item 0: the Quantity of entry 1, 0, is less than 1'],
		['subscriptionRecast', 1.5, 'JSON', 'Bricks in item 0: the Quantity of entry 1, "1.5", is not a whole number'],
		// The sandbox would accept 0 on an upgrade (it removes the add-on); the node refuses it.
		['subscriptionUpgrade', 0, 'JSON', 'Bricks in item 0: the Quantity of entry 1, 0, is less than 1'],
		['subscriptionUpgrade', 1.5, 'rows', 'Bricks in item 0: the Quantity of entry 1, "1.5", is not a whole number'],
	])('%s: a brick quantity of %p given as %s is refused by the node and nothing is sent', async (resource, quantity, style, message) => {
		const { subscriptionId, seatsBrickId } = sandbox.fixtures;
		const bricks =
			style === 'rows'
				? { bricksInput: 'fields', bricksUi: { brick: [{ brickId: seatsBrickId, quantity }] } }
				: { bricksInput: 'json', bricksJson: '={{ $json.bricks }}' };
		const result = await run(
			{
				resource,
				operation: 'create',
				subscriptionId,
				startsAt: '2026-10-01',
				...(resource === 'subscriptionRecast' && { contractLength: 12, billingFrequency: 'MONTHLY' }),
				...bricks,
			},
			[{ bricks: [{ brick_id: seatsBrickId, quantity }] }],
		);
		expectRefusedBeforeSending(result, message);
	});

	test.each(['subscriptionUpgrade', 'subscriptionRecast'])(
		'%s: a plan ID with an empty bricks JSON array is refused before sending',
		async (resource) => {
			const { subscriptionId, planId } = sandbox.fixtures;
			const result = await run({
				resource,
				operation: 'create',
				subscriptionId,
				startsAt: '2026-10-01',
				...(resource === 'subscriptionRecast' && { contractLength: 12, billingFrequency: 'MONTHLY' }),
				bricksInput: 'json',
				bricksJson: '[]',
				additionalFields: { planId },
			});
			expectRefusedBeforeSending(result, 'Bricks in item 0: give at least one brick');
		},
	);

	test("completing a milestone past its total is the API's 400 and changes nothing", async () => {
		const { subscriptionId, milestoneId } = sandbox.fixtures;
		const result = await run({ resource: 'subscriptionMilestone', operation: 'complete', subscriptionId, milestoneId, quantity: 8, billOn: 'IMMEDIATELY' });
		expectApiError(result, 'ERR_BAD_REQUEST', 400, 'quantity: ');
		expect(onlyRequest().body).toEqual({ quantity: 8, bill_on: 'IMMEDIATELY' });

		const [milestone] = await readBack({ resource: 'subscriptionMilestone', operation: 'getMany', subscriptionId, returnAll: true });
		expect(milestone).toMatchObject({ quantity: 10, quantity_completed: 3 });
	});

	test("billing on the next invoice when no scheduled invoice is left is the API's 400", async () => {
		const { finishedMilestoneSubscriptionId: subscriptionId, finishedMilestoneId: milestoneId } = sandbox.fixtures;
		const result = await run({ resource: 'subscriptionMilestone', operation: 'complete', subscriptionId, milestoneId, quantity: 1, billOn: 'NEXT_INVOICE' });
		expectApiError(result, 'ERR_BAD_REQUEST', 400, 'bill_on: ');
		expectSent({
			method: 'POST',
			path: `/subscriptions/${subscriptionId}/milestones/${milestoneId}/complete`,
			body: { quantity: 1, bill_on: 'NEXT_INVOICE' },
		});
	});

	test("creating usage answers 201; a second entry with the same transaction ID is the API's 400", async () => {
		const { subscriptionId, usageBrickId } = sandbox.fixtures;
		const usage = (value: number) => ({
			resource: 'usage',
			operation: 'create',
			transactionId: 'txn-dup-1',
			subscriptionId,
			brickId: usageBrickId,
			value,
			time: '2026-09-14T10:30:00Z',
		});
		const first = await run(usage(10));
		expectSucceeded(first);
		expect(onlyRequest().status).toBe(201);

		const duplicate = await run(usage(11));
		expectApiError(duplicate, 'ERR_BAD_REQUEST', 400, 'transaction_id: ');
		expect(sandbox.requests.map((request) => request.body?.transaction_id)).toEqual(['txn-dup-1', 'txn-dup-1']);
	});

	test("deleting a usage entry that does not exist is the API's 404", async () => {
		const result = await run({ resource: 'usage', operation: 'delete', transactionId: 'txn-never-created' });
		expectApiError(result, 'ERR_NOT_FOUND', 404, 'txn-never-created');
		expectSent({ method: 'DELETE', path: '/usage', body: { transaction_id: 'txn-never-created' } });
	});

	test('a created upgrade is in stage BUILDING, can be signed and started once, then no longer', async () => {
		const { subscriptionId, addOnBrickId } = sandbox.fixtures;
		const created = await run({
			resource: 'subscriptionUpgrade',
			operation: 'create',
			subscriptionId,
			startsAt: '2026-10-01',
			bricksUi: { brick: [{ brickId: addOnBrickId, quantity: 3 }] },
		});
		expectSucceeded(created);
		const orderId = String(created.json[0].order_id);
		expect(await orderStage('subscriptionUpgrade', subscriptionId, orderId)).toBe('BUILDING');

		const sign = { resource: 'subscriptionUpgrade', operation: 'getSignUrl', subscriptionId, orderId, redirectUrl: 'https://example.com/x' };
		expectSucceeded(await run(sign));
		expectSucceeded(await run({ resource: 'subscriptionUpgrade', operation: 'start', subscriptionId, orderId }));
		expect(await orderStage('subscriptionUpgrade', subscriptionId, orderId)).toBe('CLOSED');
		const detail = await subscriptionDetail(subscriptionId);
		expect(detail.line_items).toEqual(expect.arrayContaining([expect.objectContaining({ brick_id: addOnBrickId, quantity: 3 })]));

		sandbox.clearRequests();
		expectApiError(await run(sign), 'ERR_BAD_REQUEST', 400, 'stage CLOSED');
		sandbox.clearRequests();
		// A second execution carries a new derived key: the API processes the start again and refuses it.
		const startAgain = await run({ resource: 'subscriptionUpgrade', operation: 'start', subscriptionId, orderId });
		expectApiError(startAgain, 'ERR_BAD_REQUEST', 400, 'stage CLOSED');
		expect(sandbox.requests.at(-1)?.headers[IDEMPOTENCY_HEADER]).toMatch(/^n8n-/);
	});

	test('a created recast is in stage BUILDING; once deleted it can be neither signed nor started', async () => {
		const { subscriptionId, seatsBrickId } = sandbox.fixtures;
		const created = await run({
			resource: 'subscriptionRecast',
			operation: 'create',
			subscriptionId,
			startsAt: '2026-10-01',
			contractLength: 12,
			billingFrequency: 'MONTHLY',
			bricksUi: { brick: [{ brickId: seatsBrickId, quantity: 5 }] },
		});
		expectSucceeded(created);
		const orderId = String(created.json[0].order_id);
		expect(await orderStage('subscriptionRecast', subscriptionId, orderId)).toBe('BUILDING');

		const deleted = await run({ resource: 'subscriptionRecast', operation: 'delete', subscriptionId, orderId });
		expectSucceeded(deleted);
		expect(deleted.json[0]).toMatchObject({ deleted: true, order_id: orderId });
		expect(await orderStage('subscriptionRecast', subscriptionId, orderId)).toBe('CLOSED_DELETE');

		sandbox.clearRequests();
		const sign = await run({ resource: 'subscriptionRecast', operation: 'getSignUrl', subscriptionId, orderId, redirectUrl: 'https://example.com/x' });
		expectApiError(sign, 'ERR_BAD_REQUEST', 400, 'stage CLOSED_DELETE');
		sandbox.clearRequests();
		const start = await run({ resource: 'subscriptionRecast', operation: 'start', subscriptionId, orderId });
		expectApiError(start, 'ERR_BAD_REQUEST', 400, 'stage CLOSED_DELETE');
		const detail = await subscriptionDetail(subscriptionId);
		expect(detail.billing_frequency).toBe('QUARTERLY');
	});
});
