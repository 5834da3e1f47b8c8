import { getSubscriptionsContinuingOnFail, runBilling, useSandbox } from './helpers/billing.cjs';
import { operationTable, type OperationRow } from './helpers/operationTable.cjs';

const { startDeployment } = require('./sandbox/index.cjs') as {
	startDeployment: (
		sandbox: unknown,
		variant: object,
	) => Promise<{ baseUrl: string; close(): Promise<void> }>;
};

const sandbox = useSandbox();

test('a wrong API key fails with the API code and message, and the key is not in the error', async () => {
	const run = await runBilling(
		sandbox,
		{ resource: 'subscription', operation: 'get', subscriptionId: sandbox.fixtures.subscriptionId },
		{ apiKey: 'wrong-key-0123456789' },
	);
	expect(run.items).toHaveLength(0);
	expect(run.error?.message).toBe('ERR_UNAUTHORIZED: Invalid or missing API key.');
	expect(run.error?.description).toContain('HTTP 401 from GET /api/v2/subscriptions/');
	// What to check: the key and the environment of the credential.
	expect(run.error?.description).toMatch(
		/check the API Key of the Subscription Billing API credential, and that it belongs to the environment chosen in its Environment/,
	);
	expect(run.error?.httpCode).toBe('401');
	expect(JSON.stringify(run.error)).not.toContain('wrong-key-0123456789');
	expect(sandbox.requests[0].headers['x-service-key']).toBe('wrong-key-0123456789');
});

/** The description of the API's 404 for an unknown subscription ID as the node completes it: the request, the error id, the field, that nothing changed, where an ID is found. */
const UNKNOWN_SUBSCRIPTION = new RegExp(
	`^HTTP 404 from GET /api/v2/subscriptions/no-such-subscription; error id [0-9a-f-]{36}\\. ${escaped(
		'The API has no record with the ID "no-such-subscription" in Subscription, so nothing was changed. ' +
			"Give the subscription_id from Customer → Search or Customer → Get (a customer's active_subscription_ids) or from an invoice.",
	)}$`,
);

function escaped(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe("a base URL without /api/v2, whose server answers 404 in the API's own error format", () => {
	const NO_API =
		"HTTP 404: no Subscription Billing API at this address; the credential's base URL must end in /api/v2";
	const advice = () =>
		`the credential's base URL ${sandboxOrigin()} does not end in /api/v2: set it to the API's address ending in /api/v2 (for example https://billing.example.com/api/v2)`;
	const sandboxOrigin = () => sandbox.baseUrl.replace(/\/api\/v2$/, '');

	test('Create or Update says what the credential test says, keeps what the server answered, and writes nothing', async () => {
		const parameters = {
			resource: 'customer',
			operation: 'upsert',
			externalId: 'EXT-NO-API',
			name: 'No API Ltd',
		};
		const run = await runBilling(sandbox, parameters, { baseUrl: sandboxOrigin() });
		expect(run.error?.message).toBe(NO_API);
		expect(run.error?.description).toBe(
			`HTTP 404 from POST /customers/search answered ERR_NOT_FOUND: Not found: /customers/search; ${advice()}`,
		);
		expect(
			sandbox.requests.map((request) => `${request.method} ${request.path} ${request.status}`),
		).toEqual(['POST /customers/search 404']);
		// the error item keeps the server's code and message to branch on
		const continued = await runBilling(sandbox, parameters, {
			baseUrl: sandboxOrigin(),
			continueErrorOutput: true,
		});
		expect(continued.errorItems[0].json.error).toMatchObject({
			message: NO_API,
			code: 'ERR_NOT_FOUND',
			status: 404,
			apiMessage: 'Not found: /customers/search',
		});
	});

	test("a Get says the same; with /api/v2 a missing subscription keeps the API's own message, code and error id", async () => {
		const get = {
			resource: 'subscription',
			operation: 'get',
			subscriptionId: 'no-such-subscription',
		};
		const wrong = await runBilling(sandbox, get, { baseUrl: `${sandboxOrigin()}/` });
		expect(wrong.error?.message).toBe(NO_API);
		const right = await runBilling(sandbox, get, { continueErrorOutput: true });
		expect(right.errorItems[0].json.error).toMatchObject({
			message: expect.stringMatching(/^ERR_NOT_FOUND: Subscription/),
			description: expect.stringMatching(UNKNOWN_SUBSCRIPTION),
			code: 'ERR_NOT_FOUND',
			errorId: expect.stringMatching(/^[0-9a-f-]{36}$/),
		});
	});
});

describe('a deployment whose 404 messages name no record ("Not found."): the node cannot tell which ID, and names each the request carried', () => {
	async function throughFront<T>(use: (baseUrl: string) => Promise<T>): Promise<T> {
		const front = await startDeployment(sandbox, { notFoundMessage: 'Not found.' });
		try {
			return await use(front.baseUrl);
		} finally {
			await front.close();
		}
	}

	test('Recast → Delete with an unknown order: the Subscription or the Order ID, with where each is found; the code, message and error id kept', async () => {
		const { subscriptionId } = sandbox.fixtures;
		const order = '0f0e0d0c-0b0a-4909-8807-060504030201';
		const run = await throughFront((baseUrl) =>
			runBilling(
				sandbox,
				{ resource: 'subscriptionRecast', operation: 'delete', subscriptionId, orderId: order },
				{ baseUrl },
			),
		);
		expect(run.error?.message).toBe('ERR_NOT_FOUND: Not found.');
		expect(run.error?.description).toBe(
			`HTTP 404 from DELETE /api/v2/subscriptions/${subscriptionId}/recast/${order}. The API has no record with the ID "${subscriptionId}" in Subscription or the ID "${order}" in Order ID, so nothing was changed. ` +
				"Give the subscription_id from Customer → Search or Customer → Get (a customer's active_subscription_ids) or from an invoice; or the order_id from Subscription Upgrade → Get Many (an upgrade) or Subscription Recast → Get Many (a recast).",
		);
		expect(
			sandbox.requests.map((request) => `${request.method} ${request.path} ${request.status}`),
		).toEqual([`DELETE /api/v2/subscriptions/${subscriptionId}/recast/${order} 404`]);
	});

	test('Subscription → Get: one ID, so the Subscription; the error id kept', async () => {
		const run = await throughFront((baseUrl) =>
			runBilling(
				sandbox,
				{ resource: 'subscription', operation: 'get', subscriptionId: 'no-such-subscription' },
				{ baseUrl },
			),
		);
		expect(run.error?.message).toBe('ERR_NOT_FOUND: Not found.');
		expect(run.error?.description).toMatch(UNKNOWN_SUBSCRIPTION);
	});
});

/** The API's own errors, each as the node surfaces it: the API's code and message, then the request, the error id and the next step. */
describe("the API's own errors", () => {
	const surfaced =
		(httpCode: string): OperationRow['then'] =>
		({ run }) => {
			expect(run.error?.httpCode).toBe(httpCode);
			expect(run.error?.context?.itemIndex).toBe(0);
			expect(JSON.stringify(run.error)).not.toContain(sandbox.apiKey);
		};
	const { subscriptionId, foreignPaymentMethodId, customerId, customerName } = sandbox.fixtures;
	operationTable(sandbox, [
		{
			title:
				'a missing subscription: ERR_NOT_FOUND and the error id, then the field holding the ID and where a valid one is found',
			parameters: {
				resource: 'subscription',
				operation: 'get',
				subscriptionId: 'no-such-subscription',
			},
			sends: [{ method: 'GET', path: '/subscriptions/no-such-subscription', status: 404 }],
			fails: {
				message: 'ERR_NOT_FOUND: Subscription no-such-subscription not found.',
				description: UNKNOWN_SUBSCRIPTION,
			},
			then: surfaced('404'),
		},
		{
			title:
				"a missing customer's invoices: ERR_NOT_FOUND, naming Customer and where a customer's ID is found",
			parameters: {
				resource: 'invoice',
				operation: 'getManyForCustomer',
				customerId: 'no-such-customer',
				returnAll: true,
			},
			sends: [
				{
					method: 'GET',
					path: '/customers/no-such-customer/invoices',
					query: { limit: '1000' },
					status: 404,
				},
			],
			fails: {
				message: 'ERR_NOT_FOUND: Customer no-such-customer not found.',
				description:
					'HTTP 404 from GET /api/v2/customers/no-such-customer/invoices. The API has no record with the ID "no-such-customer" in Customer, so nothing was changed. ' +
					'Give the customer_id from Customer → Search (by name or your own External ID) or Customer → Get Many.',
			},
			then: surfaced('404'),
		},
		{
			title:
				"a body the API rejects (another customer's payment method): ERR_BAD_REQUEST and its message",
			parameters: {
				resource: 'paymentMethod',
				operation: 'setDefault',
				subscriptionId,
				paymentMethodId: foreignPaymentMethodId,
			},
			sends: [
				{
					method: 'PUT',
					path: `/subscriptions/${subscriptionId}/payment-methods/default`,
					body: { payment_method_id: foreignPaymentMethodId },
					status: 400,
				},
			],
			fails: {
				message: `ERR_BAD_REQUEST: payment_method_id: Payment method '${foreignPaymentMethodId}' is not attached to customer ${customerId}.`,
				description: `HTTP 400 from PUT /api/v2/subscriptions/${subscriptionId}/payment-methods/default`,
			},
			then: surfaced('400'),
		},
		{
			title: "a duplicate customer name: the API's 400 with its message",
			parameters: { resource: 'customer', operation: 'create', name: customerName },
			sends: [{ method: 'POST', path: '/customers', body: { name: customerName }, status: 400 }],
			fails: {
				message: `ERR_BAD_REQUEST: name: A customer named '${customerName}' already exists.`,
				description: 'HTTP 400 from POST /api/v2/customers',
			},
			then: surfaced('400'),
		},
	]);
});

test('with Continue On Fail, failing items become error items paired with their input and the others go on', async () => {
	const { subscriptionId, pausedSubscriptionId, noPhasesSubscriptionId } = sandbox.fixtures;
	sandbox.setFaults({ rate: 1, kinds: ['422'], onlyPaths: new RegExp(pausedSubscriptionId) });
	const ids = [
		subscriptionId,
		'no-such-subscription',
		'../escape',
		pausedSubscriptionId,
		noPhasesSubscriptionId,
	];
	const run = await getSubscriptionsContinuingOnFail(sandbox, ids);
	expect(run.error).toBeUndefined();
	expect(run.items.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
	expect(run.json[0].subscription_id).toBe(subscriptionId);
	expect(run.json[4].subscription_id).toBe(noPhasesSubscriptionId);
	expect(run.json[1].error).toMatchObject({
		message: expect.stringMatching(/^ERR_NOT_FOUND: /),
		code: 'ERR_NOT_FOUND',
		status: 404,
	});
	expect(run.json[2].error).toMatchObject({
		message:
			'Subscription in item 2: "../escape" is not an ID (an ID has only letters, digits and hyphens). Give the subscription_id from Customer → Search or Customer → Get (a customer\'s active_subscription_ids) or from an invoice',
		code: null,
	});
	expect(run.json[3].error).toMatchObject({
		message:
			'ERR_UNPROCESSABLE: The request is well-formed but cannot be processed (injected fault).',
		code: 'ERR_UNPROCESSABLE',
		status: 422,
	});
	expect(sandbox.requests.map((request) => request.path).sort()).toEqual(
		[subscriptionId, 'no-such-subscription', pausedSubscriptionId, noPhasesSubscriptionId]
			.map((id) => `/api/v2/subscriptions/${id}`)
			.sort(),
	);
});

describe('error items carry the API error as fields (Continue On Fail, either output)', () => {
	const ids = () => [sandbox.fixtures.subscriptionId, 'no-such-subscription', 'a/b'];
	const getEach = {
		resource: 'subscription',
		operation: 'get',
		subscriptionId: '={{ $json.id }}',
		subscriptionOutput: 'raw',
	};
	const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

	test("Continue (using error output): the good item on the main output; each failed one on the error output with its input's fields, n8n's message and description, and the API's code, HTTP status, error id and message", async () => {
		const run = await runBilling(sandbox, getEach, {
			items: ids().map((id, n) => ({ id, row: n })),
			continueErrorOutput: true,
		});
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([
			expect.objectContaining({ subscription_id: sandbox.fixtures.subscriptionId }),
		]);
		const [notFound, invalid] = run.errorItems.map((item) => item.json);
		expect(run.errorItems).toHaveLength(2);
		expect(notFound).toEqual({
			id: 'no-such-subscription',
			row: 1,
			error: {
				message: expect.stringMatching(/^ERR_NOT_FOUND: /),
				description: expect.stringMatching(
					/^HTTP 404 from GET \/api\/v2\/subscriptions\/no-such-subscription; error id /,
				),
				code: 'ERR_NOT_FOUND',
				status: 404,
				errorId: expect.stringMatching(UUID),
				apiMessage: expect.any(String),
			},
		});
		expect(`ERR_NOT_FOUND: ${(notFound.error as { apiMessage: string }).apiMessage}`).toBe(
			(notFound.error as { message: string }).message,
		);
		// Refused before sending: the same fields, null where the API said nothing.
		expect(invalid).toEqual({
			id: 'a/b',
			row: 2,
			error: {
				message:
					'Subscription in item 2: "a/b" is not an ID (an ID has only letters, digits and hyphens). Give the subscription_id from Customer → Search or Customer → Get (a customer\'s active_subscription_ids) or from an invoice',
				description: expect.any(String),
				code: null,
				status: null,
				errorId: null,
				apiMessage: null,
			},
		});
		expect(run.errorItems.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		expect(sandbox.requests).toHaveLength(2);
	});

	test('Continue (using regular output): the same error object, paired with its input, in the main output', async () => {
		const run = await runBilling(sandbox, getEach, {
			items: ids().map((id) => ({ id })),
			continueOnFail: true,
		});
		expect(run.json[1]).toEqual({
			error: expect.objectContaining({
				code: 'ERR_NOT_FOUND',
				status: 404,
				errorId: expect.stringMatching(UUID),
				message: expect.stringMatching(/^ERR_NOT_FOUND: /),
			}),
		});
		expect(run.json[2].error).toMatchObject({ code: null, status: null });
	});

	test("an answer without the API's error format and a network failure fill what they can; the key is in none of it", async () => {
		const wrongKey = await runBilling(sandbox, getEach, {
			items: [{ id: sandbox.fixtures.subscriptionId }],
			continueErrorOutput: true,
			apiKey: 'sbx_wrong_key_0000',
		});
		expect(wrongKey.errorItems[0].json.error).toMatchObject({
			code: 'ERR_UNAUTHORIZED',
			status: 401,
			errorId: null,
			apiMessage: 'Invalid or missing API key.',
		});
		expect(JSON.stringify(wrongKey.errorItems)).not.toContain('sbx_wrong_key_0000');
		const refused = await runBilling(
			sandbox,
			{ ...getEach, faultHandling: { maxRetries: 0 } },
			{ items: [{ id: 'sub-1' }], continueErrorOutput: true, baseUrl: 'http://127.0.0.1:1/api/v2' },
		);
		expect(refused.errorItems[0].json.error).toMatchObject({
			message: 'The Subscription Billing API could not be reached',
			code: 'ECONNREFUSED',
			status: null,
			errorId: null,
		});
	});
});
