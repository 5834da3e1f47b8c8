import { useSandbox } from '../helpers/billing.cjs';
import { operationTable } from '../helpers/operationTable.cjs';

const sandbox = useSandbox();
const { subscriptionId, openOrderSubscriptionId } = sandbox.fixtures;

describe('Subscription', () => {
	operationTable(sandbox, [
		{
			title: 'Get returns the full subscription detail',
			parameters: {
				resource: 'subscription',
				operation: 'get',
				subscriptionId,
				subscriptionOutput: 'raw',
			},
			sends: [{ method: 'GET', path: `/subscriptions/${subscriptionId}` }],
			outputs: [
				expect.objectContaining({
					subscription_id: subscriptionId,
					line_items: expect.any(Array),
					billing_schedule: expect.any(Array),
				}),
			],
		},
		{
			title: 'Get Management URL returns the billing portal URL and its expiry',
			parameters: { resource: 'subscription', operation: 'getManagementUrl', subscriptionId },
			sends: [{ method: 'GET', path: `/subscriptions/${subscriptionId}/billing-portal` }],
			outputs: [
				{
					url: expect.stringContaining(`/portal/${subscriptionId}`),
					url_expires_at: expect.stringMatching(/Z$/),
				},
			],
		},
		{
			title: 'Get Sign URL posts the redirect URL and returns the signing URL, which returns to it',
			parameters: {
				resource: 'subscription',
				operation: 'getSignUrl',
				subscriptionId: openOrderSubscriptionId,
				redirectUrl: 'https://example.com/thank-you',
			},
			sends: [
				{
					method: 'POST',
					path: `/subscriptions/${openOrderSubscriptionId}/sign`,
					body: { redirect_url: 'https://example.com/thank-you' },
				},
			],
			outputs: [
				{
					url: expect.stringContaining(
						`redirect_url=${encodeURIComponent('https://example.com/thank-you')}`,
					),
				},
			],
		},
		{
			title:
				'Get Sign URL with the redirect URL left empty (it is optional) sends an empty JSON object',
			parameters: {
				resource: 'subscription',
				operation: 'getSignUrl',
				subscriptionId: openOrderSubscriptionId,
			},
			sends: [
				{
					method: 'POST',
					path: `/subscriptions/${openOrderSubscriptionId}/sign`,
					contentType: 'application/json',
					rawBody: '{}',
					body: {},
					status: 200,
				},
			],
			outputs: [
				{
					url: expect.stringMatching(new RegExp(`/sign/subscription-${openOrderSubscriptionId}$`)),
				},
			],
		},
		{
			title:
				'Get Sign URL with a redirect URL expression that gives nothing is the same as leaving it empty',
			parameters: {
				resource: 'subscription',
				operation: 'getSignUrl',
				subscriptionId: openOrderSubscriptionId,
				redirectUrl: '={{ $json.returnTo }}',
			},
			items: [{}],
			sends: [
				{
					method: 'POST',
					path: `/subscriptions/${openOrderSubscriptionId}/sign`,
					rawBody: '{}',
					body: {},
				},
			],
			outputs: [{ url: expect.any(String) }],
		},
	]);
});
