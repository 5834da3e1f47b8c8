import {
	NodeConnectionTypes,
	type IDataObject,
	type INode,
	type INodeParameters,
} from 'n8n-workflow';
import { SubscriptionBillingApi } from '../credentials/SubscriptionBillingApi.credentials';
import { SubscriptionBilling } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { useSandbox } from './helpers/billing.cjs';
import { START_NODE_TYPE, runWorkflow } from './harness/index.cjs';

// A recast from creation to effect as one n8n workflow: four Subscription Billing nodes, each
// taking its IDs from the output of the nodes before it.

const sandbox = useSandbox();

const CREDENTIAL_ID = 'billing-credential';

function billingNode(name: string, position: number, parameters: INodeParameters): INode {
	return {
		id: `node-${position}`,
		name,
		type: 'subscriptionBilling',
		typeVersion: 1,
		position: [position * 200, 0],
		parameters: { faultHandling: { retryDelay: 5 }, ...parameters },
		credentials: { subscriptionBillingApi: { id: CREDENTIAL_ID, name: 'Sandbox' } },
	};
}

const link = (node: string) => ({ main: [[{ node, type: NodeConnectionTypes.Main, index: 0 }]] });

test('create recast → sign URL → start → get subscription: the subscription ends up with the recast terms', async () => {
	const { subscriptionId, seatsBrickId, addOnBrickId } = sandbox.fixtures;
	const recastBricks = [
		{ brick_id: seatsBrickId, quantity: 40, discount: { rate: 15, renews: true } },
		{ brick_id: addOnBrickId, quantity: 2 },
	];

	const result = await runWorkflow({
		nodeTypes: [new SubscriptionBilling()],
		credentialTypes: [new SubscriptionBillingApi()],
		credentials: {
			[CREDENTIAL_ID]: {
				apiKey: sandbox.apiKey,
				environment: 'production',
				productionBaseUrl: sandbox.baseUrl,
			},
		},
		startItems: [{ subscriptionId, bricks: recastBricks }],
		workflow: {
			nodes: [
				{
					id: 'start',
					name: 'Start',
					type: START_NODE_TYPE,
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				billingNode('Create Recast', 1, {
					resource: 'subscriptionRecast',
					operation: 'create',
					subscriptionId: '={{ $json.subscriptionId }}',
					startsAt: '2026-10-01',
					contractLength: 24,
					billingFrequency: 'ANNUALLY',
					bricksInput: 'json',
					bricksJson: '={{ $json.bricks }}',
				}),
				billingNode('Get Sign URL', 2, {
					resource: 'subscriptionRecast',
					operation: 'getSignUrl',
					subscriptionId: "={{ $('Start').item.json.subscriptionId }}",
					orderId: '={{ $json.order_id }}',
					redirectUrl: 'https://example.com/signed',
				}),
				billingNode('Start Recast', 3, {
					resource: 'subscriptionRecast',
					operation: 'start',
					subscriptionId: "={{ $('Start').item.json.subscriptionId }}",
					orderId: "={{ $('Create Recast').item.json.order_id }}",
				}),
				billingNode('Get Subscription', 4, {
					resource: 'subscription',
					operation: 'get',
					subscriptionId: '={{ $json.subscription_id }}',
					subscriptionOutput: 'raw',
				}),
			],
			connections: {
				Start: link('Create Recast'),
				'Create Recast': link('Get Sign URL'),
				'Get Sign URL': link('Start Recast'),
				'Start Recast': link('Get Subscription'),
			},
		},
	});

	for (const node of ['Create Recast', 'Get Sign URL', 'Start Recast', 'Get Subscription'])
		expect(result.errorOf(node)).toBeUndefined();
	expect(result.run.status).toBe('success');

	const orderId = String(result.outputOf('Create Recast')[0]?.json.order_id);
	expect(orderId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
	expect(result.outputOf('Get Sign URL').map((item) => item.json)).toEqual([
		{ url: expect.stringContaining(`recast-${orderId}`) },
	]);
	expect(result.outputOf('Start Recast').map((item) => item.json)).toEqual([
		{ subscription_id: subscriptionId },
	]);

	const subscriptions = result.outputOf('Get Subscription').map((item) => item.json);
	expect(subscriptions).toHaveLength(1);
	const subscription = subscriptions[0];
	expect(subscription).toMatchObject({
		subscription_id: subscriptionId,
		billing_frequency: 'ANNUALLY',
		renewal_contract_period: 24,
	});
	const lineItems = (subscription.line_items as IDataObject[]).map((item) => ({
		brick_id: item.brick_id,
		quantity: item.quantity,
		discount: item.discount,
	}));
	expect(lineItems).toEqual([
		{
			brick_id: seatsBrickId,
			quantity: 40,
			discount: [expect.objectContaining({ rate: '15.00', renews: true })],
		},
		{ brick_id: addOnBrickId, quantity: 2, discount: [] },
	]);

	const base = `/api/v2/subscriptions/${subscriptionId}/recast`;
	expect(
		sandbox.requests.map((request) => [
			request.method,
			request.path,
			request.rawQuery,
			request.status,
		]),
	).toEqual([
		['POST', base, '', 201],
		['POST', `${base}/${orderId}/sign`, '', 200],
		['POST', `${base}/${orderId}/start`, 'charge_immediately=no', 200],
		['GET', `/api/v2/subscriptions/${subscriptionId}`, '', 200],
	]);
	expect(sandbox.requests[0].body).toEqual({
		starts_at: '2026-10-01',
		contract_length: 24,
		billing_frequency: 'ANNUALLY',
		bricks: recastBricks,
	});
	expect(sandbox.requests[1].body).toEqual({ redirect_url: 'https://example.com/signed' });
	for (const request of sandbox.requests)
		expect(request.headers['x-service-key']).toBe(sandbox.apiKey);
});
