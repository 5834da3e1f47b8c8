/**
 * The pickers that depend on the chosen subscription (Milestone ID, and the Order ID of upgrades
 * and recasts), run the way n8n's server runs a "From list" search for the editor, and an order ID
 * given in capitals: the same UUID, sent in the lowercase the API's path pattern requires.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { SubscriptionBillingApi } from '../credentials/SubscriptionBillingApi.credentials';
import { SubscriptionBilling } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { runListSearch } from './harness/index.cjs';
import { freshParameters } from './helpers/editorParameters.cjs';
import { runBilling, useSandbox } from './helpers/billing.cjs';

const sandbox = useSandbox();

const byList = (value: string) => ({ __rl: true, mode: 'list', value });

/** The picker `method` of a fresh node of `resource`/`operation` with the subscription `subscriptionId` chosen. */
function pick(
	method: string,
	resource: string,
	operation: string,
	subscriptionId: unknown,
	filter?: string,
) {
	const parameters: INodeParameters = {
		...freshParameters(resource, operation),
		subscriptionId: subscriptionId as INodeParameters[string],
	};
	return runListSearch({
		nodeType: new SubscriptionBilling(),
		credentialType: new SubscriptionBillingApi(),
		credentials: {
			apiKey: sandbox.apiKey,
			environment: 'production',
			productionBaseUrl: sandbox.baseUrl,
		},
		method,
		filter,
		parameters,
		path: method === 'searchMilestones' ? 'parameters.milestoneId' : 'parameters.orderId',
	});
}

function state(name: string): IDataObject[] {
	return [...(sandbox.state[name] as Map<string, IDataObject>).values()];
}

const ORDER_PICKERS = [
	{
		picker: 'Upgrade Order ID',
		method: 'searchUpgradeOrders',
		resource: 'subscriptionUpgrade',
		operation: 'start',
		what: 'upgrade orders',
		pathPart: 'upgrade',
		fixture: 'upgradeOrderId',
		orderType: 'UPGRADE',
	},
	{
		picker: 'Recast Order ID',
		method: 'searchRecastOrders',
		resource: 'subscriptionRecast',
		operation: 'start',
		what: 'recast orders',
		pathPart: 'recast',
		fixture: 'recastOrderId',
		orderType: 'RECAST',
	},
];
const PICKERS = [
	{
		picker: 'Milestone ID',
		method: 'searchMilestones',
		resource: 'subscriptionMilestone',
		operation: 'complete',
		what: 'milestones',
	},
	...ORDER_PICKERS,
];
const REFUSED = [
	{
		chosen: 'no subscription',
		subscription: byList(''),
		says: (what: string) =>
			`Choose the Subscription first: the list shows that subscription's ${what}`,
	},
	{
		chosen: 'a subscription given as an expression',
		subscription: '={{ $json.subscription_id }}',
		says: (what: string) =>
			`The Subscription is an expression, so its ${what} cannot be listed here: give the ID (By ID), or pick the Subscription from the list`,
	},
	{
		chosen: 'a subscription that is not an ID',
		subscription: byList('../plans'),
		says: () =>
			'The Subscription "../plans" is not an ID (an ID has only letters, digits and hyphens)',
	},
];

test.each(PICKERS.flatMap((picker) => REFUSED.map((refused) => ({ ...picker, ...refused }))))(
	'$picker picker with $chosen: says what to do, and asks the API nothing',
	async ({ method, resource, operation, subscription, says, what }) => {
		await expect(pick(method, resource, operation, subscription)).rejects.toThrow(says(what));
		expect(sandbox.requests).toHaveLength(0);
	},
);

describe('Milestone ID picker', () => {
	test("lists the chosen subscription's milestones by brick name and progress, reading only that subscription's list", async () => {
		const { subscriptionId, milestoneId } = sandbox.fixtures;
		const page = await pick(
			'searchMilestones',
			'subscriptionMilestone',
			'complete',
			byList(subscriptionId),
		);
		const expected = state('milestones').filter(
			(milestone) => milestone.subscription_id === subscriptionId,
		);
		expect(expected.length).toBeGreaterThan(0);
		expect(page.results.map((result) => result.value).sort()).toEqual(
			expected.map((milestone) => milestone.milestone_id).sort(),
		);
		const milestone = sandbox.state.milestones as Map<string, IDataObject>;
		const first = milestone.get(milestoneId)!;
		const brickName = (sandbox.state.bricks as Map<string, IDataObject>).get(
			first.brick_id as string,
		)!.brick_name;
		expect(page.results.find((result) => result.value === milestoneId)?.name).toBe(
			`${brickName} · ${first.quantity_completed} of ${first.quantity} completed`,
		);
		expect(
			sandbox.requests.map((request) => `${request.method} ${request.path} ${request.rawQuery}`),
		).toEqual([`GET /api/v2/subscriptions/${subscriptionId}/milestones `]);
	});

	test('the milestone picked from the list completes that milestone', async () => {
		const { subscriptionId, milestoneId } = sandbox.fixtures;
		const page = await pick(
			'searchMilestones',
			'subscriptionMilestone',
			'complete',
			byList(subscriptionId),
		);
		const picked = page.results.find((result) => result.value === milestoneId)!;
		sandbox.clearRequests();
		const run = await runBilling(sandbox, {
			resource: 'subscriptionMilestone',
			operation: 'complete',
			subscriptionId: byList(subscriptionId),
			milestoneId: { ...byList(String(picked.value)), cachedResultName: picked.name },
			quantity: 1,
			billOn: 'NEXT_INVOICE',
		});
		expect(run.error).toBeUndefined();
		expect(
			sandbox.requests.map((request) => `${request.method} ${request.path} ${request.status}`),
		).toEqual([
			`POST /api/v2/subscriptions/${subscriptionId}/milestones/${milestoneId}/complete 200`,
		]);
	});
});

describe.each(ORDER_PICKERS)(
	'$picker picker',
	({ resource, method, operation, pathPart, fixture, orderType }) => {
		test("lists the chosen subscription's orders by stage, start and creation date", async () => {
			const { subscriptionId } = sandbox.fixtures;
			const page = await pick(method, resource, operation, byList(subscriptionId));
			const expected = state('orders').filter(
				(order) => order.order_type === orderType && order.subscription_id === subscriptionId,
			);
			expect(expected.length).toBeGreaterThan(0);
			expect(page.results.map((result) => result.value).sort()).toEqual(
				expected.map((order) => order.order_id).sort(),
			);
			const order = expected.find((entry) => entry.order_id === sandbox.fixtures[fixture])!;
			expect(page.results.find((result) => result.value === order.order_id)?.name).toBe(
				`${order.stage} · starts ${String(order.starts_at).slice(0, 10)} · created ${String(order.created_at).slice(0, 10)}`,
			);
			expect(
				sandbox.requests.map((request) => `${request.method} ${request.path} ${request.rawQuery}`),
			).toEqual([`GET /api/v2/subscriptions/${subscriptionId}/${pathPart} `]);
		});

		test('typing narrows the list to the orders whose label matches', async () => {
			const { subscriptionId } = sandbox.fixtures;
			const page = await pick(method, resource, operation, byList(subscriptionId), 'building');
			expect(page.results.length).toBeGreaterThan(0);
			for (const result of page.results) expect(result.name).toMatch(/^BUILDING · /);
		});

		test('an order ID in capitals is the same UUID: accepted, and sent in lowercase', async () => {
			const { subscriptionId } = sandbox.fixtures;
			const orderId = sandbox.fixtures[fixture];
			const run = await runBilling(sandbox, {
				resource,
				operation: 'getSignUrl',
				subscriptionId,
				orderId: { __rl: true, mode: 'id', value: orderId.toUpperCase() },
				redirectUrl: 'https://example.com/signed',
			});
			expect(run.error).toBeUndefined();
			expect(
				sandbox.requests.map((request) => `${request.method} ${request.path} ${request.status}`),
			).toEqual([`POST /api/v2/subscriptions/${subscriptionId}/${pathPart}/${orderId}/sign 200`]);
		});
	},
);
