import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from '../helpers/billing.cjs';
import { operationTable } from '../helpers/operationTable.cjs';

const sandbox = useSandbox();
const { subscriptionId, paymentMethodId, defaultPaymentMethodId, noPaymentMethodSubscriptionId } =
	sandbox.fixtures;

describe('Payment Method', () => {
	operationTable(sandbox, [
		{
			title: "Get Default returns the customer's default payment method",
			parameters: { resource: 'paymentMethod', operation: 'getDefault', subscriptionId },
			sends: [{ method: 'GET', path: `/subscriptions/${subscriptionId}/payment-methods/default` }],
			outputs: [
				{
					payment_method_id: defaultPaymentMethodId,
					is_default: true,
					type: 'card',
					card: { brand: expect.any(String), last4: expect.stringMatching(/^\d{4}$/) },
				},
			],
		},
		{
			title:
				"Get Default when the customer has none is the API's 404 about the payment method, not the ID: the node does not call the Subscription unknown",
			parameters: {
				resource: 'paymentMethod',
				operation: 'getDefault',
				subscriptionId: noPaymentMethodSubscriptionId,
			},
			sends: [
				{
					method: 'GET',
					path: `/subscriptions/${noPaymentMethodSubscriptionId}/payment-methods/default`,
					status: 404,
				},
			],
			fails: {
				message: `ERR_NOT_FOUND: The customer of subscription ${noPaymentMethodSubscriptionId} has no default payment method.`,
				description: `HTTP 404 from GET /api/v2/subscriptions/${noPaymentMethodSubscriptionId}/payment-methods/default`,
			},
		},
		{
			title: "Get Many lists the customer's payment methods, exactly one of them the default",
			parameters: {
				resource: 'paymentMethod',
				operation: 'getMany',
				subscriptionId,
				returnAll: true,
			},
			sends: [{ method: 'GET', path: `/subscriptions/${subscriptionId}/payment-methods` }],
			outputs: (methods: IDataObject[]) => {
				expect(methods.map((method) => method.payment_method_id)).toEqual(
					expect.arrayContaining([defaultPaymentMethodId, paymentMethodId]),
				);
				expect(methods.filter((method) => method.is_default)).toEqual([
					expect.objectContaining({ payment_method_id: defaultPaymentMethodId }),
				]);
			},
		},
		{
			title: "Set Default makes an attached payment method the customer's default",
			parameters: {
				resource: 'paymentMethod',
				operation: 'setDefault',
				subscriptionId,
				paymentMethodId,
			},
			sends: [
				{
					method: 'PUT',
					path: `/subscriptions/${subscriptionId}/payment-methods/default`,
					body: { payment_method_id: paymentMethodId },
				},
			],
			outputs: [{ subscription_id: subscriptionId, default_payment_method_id: paymentMethodId }],
		},
		{
			title:
				"Set Up posts to the subscription's payment methods and returns the processor's checkout secrets",
			parameters: { resource: 'paymentMethod', operation: 'setUp', subscriptionId },
			sends: [{ method: 'POST', path: `/subscriptions/${subscriptionId}/payment-methods` }],
			outputs: [
				{
					processor_account_id: expect.stringMatching(/^acct_/),
					client_secret: expect.any(String),
					publishable_key: expect.stringMatching(/^pk_/),
					customer_session_client_secret: expect.any(String),
				},
			],
		},
	]);
});
