/**
 * What a user meets in n8n's editor: the "From list" searches of the resource locators (run the way
 * n8n's server runs them for the editor, through n8n-core's LoadOptionsContext), the "By ID" mode,
 * the Output modes, and the description itself (actions, operation names, tool use, subtitle and
 * parameters that must not collide).
 */
import { NodeHelpers, Workflow } from 'n8n-workflow';
import type {
	IDataObject,
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeParameterResourceLocator,
} from 'n8n-workflow';
import { SubscriptionBillingApi } from '../credentials/SubscriptionBillingApi.credentials';
import {
	resources,
	SubscriptionBilling,
} from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { runBilling, useSandbox } from './helpers/billing.cjs';
import {
	CUSTOMER_SIMPLIFIED,
	INVOICE_SIMPLIFIED,
	SUBSCRIPTION_SIMPLIFIED,
} from './helpers/simplifiedKeys.cjs';
import { HarnessNodeTypes, runListSearch } from './harness/index.cjs';
import { subscriptionLabel } from '../nodes/SubscriptionBilling/shared/listSearch';

const CUSTOMERS = 120; // more than two pages of 50
const sandbox = useSandbox({ seed: { customers: CUSTOMERS } });

function search(
	method: string,
	filter?: string,
	paginationToken?: string,
	apiKey = sandbox.apiKey,
) {
	return runListSearch({
		nodeType: new SubscriptionBilling(),
		credentialType: new SubscriptionBillingApi(),
		credentials: { apiKey, environment: 'production', productionBaseUrl: sandbox.baseUrl },
		method,
		filter,
		paginationToken,
		parameters: {
			resource: 'subscription',
			operation: 'get',
			subscriptionId: { __rl: true, mode: 'list', value: '' },
		},
		path: 'parameters.subscriptionId',
	});
}

/** The brick picker of a write of `resource` (the usage body's Brick, or an order's brick rows), as the editor runs it. */
function searchBricksOf(resource: string, filter?: string, parameters: INodeParameters = {}) {
	return runListSearch({
		nodeType: new SubscriptionBilling(),
		credentialType: new SubscriptionBillingApi(),
		credentials: {
			apiKey: sandbox.apiKey,
			environment: 'production',
			productionBaseUrl: sandbox.baseUrl,
		},
		method: 'searchBricks',
		filter,
		parameters: { resource, operation: 'create', ...parameters },
		path: resource === 'usage' ? 'parameters.brickId' : 'parameters.bricksUi.brick[0].brickId',
	});
}

function allCustomers(): IDataObject[] {
	return [...(sandbox.state.customers as Map<string, IDataObject>).values()];
}

describe('Resource locator "From list" searches (LoadOptionsContext, as the editor runs them)', () => {
	test('customers without a filter: the first page of 50, labelled by name and external ID, with a token for more', async () => {
		const page = await search('searchCustomers');
		expect(page.results).toHaveLength(50);
		expect(page.paginationToken).toBeDefined();
		expect(page.results[0]).toEqual({
			name: `${sandbox.fixtures.customerName} (${sandbox.fixtures.customerExternalId})`,
			value: sandbox.fixtures.customerId,
		});
		expect(sandbox.requests).toHaveLength(1);
		const [request] = sandbox.requests;
		expect(request.method).toBe('GET');
		expect(request.path).toBe('/api/v2/customers');
		expect(request.query).toEqual({ limit: '50', offset: '0' });
		expect(request.headers['x-service-key']).toBe(sandbox.apiKey);
	});

	test('following the pagination token gives the next pages without overlap, until the last has no token', async () => {
		const seen: string[] = [];
		const tokens: unknown[] = [];
		let token: string | undefined;
		for (let pages = 0; pages < 5; pages++) {
			const page = await search('searchCustomers', undefined, token);
			seen.push(...page.results.map((result) => String(result.value)));
			tokens.push(page.paginationToken);
			if (page.paginationToken === undefined) break;
			// The editor sends the token back as it got it (JSON).
			token = JSON.parse(JSON.stringify(page.paginationToken)) as string;
		}
		expect(tokens).toHaveLength(3);
		expect(tokens[2]).toBeUndefined();
		expect(new Set(seen).size).toBe(seen.length);
		expect(new Set(seen)).toEqual(new Set(allCustomers().map((customer) => customer.customer_id)));
		expect(sandbox.requests.map((request) => request.query.offset)).toEqual(['0', '50', '100']);
	});

	test("typing 'acme' searches by name through POST /customers/search and lists only Acme customers", async () => {
		const page = await search('searchCustomers', 'acme');
		const acme = allCustomers().filter((customer) => /acme/i.test(String(customer.name)));
		expect(acme.length).toBeGreaterThan(5);
		expect(page.results.map((result) => result.value).sort()).toEqual(
			acme.map((customer) => customer.customer_id).sort(),
		);
		for (const result of page.results) expect(result.name).toMatch(/acme/i);
		expect(page.paginationToken).toBeUndefined(); // fewer than a page
		expect(sandbox.requests).toHaveLength(1);
		const [request] = sandbox.requests;
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/api/v2/customers/search');
		expect(request.body).toEqual({ name: 'acme' });
		expect(request.query).toEqual({ limit: '50', offset: '0' });
	});

	test('subscriptions are labelled customer first, then what tells them apart (own name, status, end), within what the field shows', async () => {
		const page = await search('searchSubscriptions');
		const byId = new Map(page.results.map((result) => [result.value, result.name]));
		expect(byId.get(sandbox.fixtures.subscriptionId)).toBe(
			'Acme Corporation · Growth · ACTIVE · to 2027-12-31',
		);
		expect(byId.get(sandbox.fixtures.pausedSubscriptionId)).toBe(
			'Acme Corporation · Growth · PAUSED · to 2026-12-31',
		);
		for (const name of byId.values()) {
			expect(name).toMatch(/^[^·]+ · [^·]+ · [A-Z_]+ · (\S+ )?to \S+$/);
			const customerName = name.split(' · ')[0];
			expect(name.split(customerName)).toHaveLength(2); // the customer's name appears once
			// the customer and the subscription's own name fit the picked field (about 36 characters)
			if (customerName.length < 20)
				expect(name.split(' · ').slice(0, 2).join(' · ').length).toBeLessThanOrEqual(36);
		}
		// One GET /customers page of 50 customers, with a token for more.
		expect(page.paginationToken).toBe(50);
		expect(
			sandbox.requests.map(
				(request) => `${request.method} ${request.path} ${JSON.stringify(request.query)}`,
			),
		).toEqual(['GET /api/v2/customers {"limit":"50","offset":"0"}']);
	});

	test('two subscriptions of one customer alike in name, status and end are told apart by their start', () => {
		const alike = [
			{
				subscription_id: 'a',
				name: 'Growth',
				status: 'ACTIVE',
				starts_at: '2025-01-01',
				ends_at: '2027-12-31',
			},
			{
				subscription_id: 'b',
				name: 'Growth',
				status: 'ACTIVE',
				starts_at: '2026-01-01',
				ends_at: '2027-12-31',
			},
			{
				subscription_id: 'c',
				name: 'Growth',
				status: 'PAUSED',
				starts_at: '2026-01-01',
				ends_at: '2027-12-31',
			},
		];
		expect(
			alike.map((subscription) => subscriptionLabel(subscription, 'Acme Corporation', alike)),
		).toEqual([
			'Acme Corporation · Growth · ACTIVE · 2025-01-01 to 2027-12-31',
			'Acme Corporation · Growth · ACTIVE · 2026-01-01 to 2027-12-31',
			'Acme Corporation · Growth · PAUSED · to 2027-12-31',
		]);
	});

	test("typing a subscription's or plan's name finds subscriptions by their own names, across customers", async () => {
		const page = await search('searchSubscriptions', 'STARTER');
		const expected = [...(sandbox.state.subscriptions as Map<string, IDataObject>).values()]
			.filter((subscription) => /starter/i.test(String(subscription.name)))
			.map((subscription) => subscription.subscription_id);
		expect(expected.length).toBeGreaterThan(1);
		expect(page.results.map((result) => result.value).sort()).toEqual([...expected].sort());
		for (const result of page.results) expect(result.name).toMatch(/^[^·]+ · Starter · /);
		expect(page.paginationToken).toBeUndefined();
		// The API has no subscription search: the customer list is read in pages of 1000 and filtered.
		expect(
			sandbox.requests.map(
				(request) => `${request.method} ${request.path} ${JSON.stringify(request.query)}`,
			),
		).toEqual(['GET /api/v2/customers {"limit":"1000","offset":"0"}']);
	});

	test("typing a customer's name lists all of that customer's subscriptions", async () => {
		const page = await search('searchSubscriptions', 'acme corporation');
		const ids = page.results.map((result) => result.value);
		expect(ids).toEqual(
			expect.arrayContaining([
				sandbox.fixtures.subscriptionId,
				sandbox.fixtures.noPhasesSubscriptionId,
				sandbox.fixtures.pausedSubscriptionId,
				sandbox.fixtures.openOrderSubscriptionId,
			]),
		);
		expect(ids).toHaveLength(4);
		for (const result of page.results) expect(result.name).toMatch(/^Acme Corporation · /);
	});

	test("every typed word must match somewhere in a subscription's label, in any order", async () => {
		const labels = async (filter: string) =>
			(await search('searchSubscriptions', filter)).results.map((result) => result.name);
		const acmeGrowth = await labels('acme growth');
		expect(acmeGrowth).toEqual(
			expect.arrayContaining([
				'Acme Corporation · Growth · ACTIVE · to 2027-12-31',
				'Acme Corporation · Growth · PAUSED · to 2026-12-31',
			]),
		);
		for (const name of acmeGrowth) expect(name).toMatch(/acme.* · Growth · /i);
		expect(await labels('Growth   ACME')).toEqual(acmeGrowth);
		expect(await labels('acme corporation paused')).toEqual([
			'Acme Corporation · Growth · PAUSED · to 2026-12-31',
		]);
		expect(await labels('acme nosuchplan')).toEqual([]);
	});

	test("bricks for a chosen subscription: its own bricks first, marked, then the other plans' bricks", async () => {
		const { subscriptionId } = sandbox.fixtures;
		const subscription = (sandbox.state.subscriptions as Map<string, IDataObject>).get(
			subscriptionId,
		)!;
		const own = new Set(
			(subscription.line_items as IDataObject[]).map((item) => String(item.brick_id)),
		);
		const brickSearch = (resource: string, filter?: string) =>
			searchBricksOf(resource, filter, {
				subscriptionId: { __rl: true, mode: 'list', value: subscriptionId },
			});
		const page = await brickSearch('subscriptionUpgrade');
		const marked = page.results.filter((result) => result.name.endsWith(' · on this subscription'));
		expect(marked.map((result) => result.value).sort()).toEqual([...own].sort());
		expect(page.results.slice(0, marked.length)).toEqual(marked);
		expect(
			page.results.slice(marked.length).some((result) => result.name.includes('Enterprise')),
		).toBe(true);
		expect(sandbox.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			`GET /api/v2/subscriptions/${subscriptionId}`,
			'GET /api/v2/plans',
		]);
		// Usage: the subscription's usage brick first; typing narrows by every word
		const usage = await brickSearch('usage');
		expect(usage.results.map((result) => result.name)).toEqual([
			'API Calls · USAGE · Growth · on this subscription',
			'Storage GB · USAGE · Enterprise',
		]);
		expect(
			(await brickSearch('usage', 'usage enterprise')).results.map((result) => result.name),
		).toEqual(['Storage GB · USAGE · Enterprise']);
	});

	test('bricks: the bricks of every plan, labelled with type and plan; Usage lists only usage bricks', async () => {
		const brickSearch = (resource: string, filter?: string) => searchBricksOf(resource, filter);
		const bricks = [...(sandbox.state.bricks as Map<string, IDataObject>).values()];
		const all = await brickSearch('subscriptionUpgrade');
		expect(all.results.map((result) => result.value).sort()).toEqual(
			bricks.map((brick) => brick.brick_id).sort(),
		);
		expect(all.results).toContainEqual({
			name: 'API Calls · USAGE · Growth',
			value: sandbox.fixtures.usageBrickId,
		});
		expect(all.results).toContainEqual({
			name: 'Platform Seats · RECURRING · Growth',
			value: sandbox.fixtures.seatsBrickId,
		});
		const usage = await brickSearch('usage');
		expect(usage.results.map((result) => result.name).sort()).toEqual([
			'API Calls · USAGE · Growth',
			'Storage GB · USAGE · Enterprise',
		]);
		const seats = await brickSearch('subscriptionRecast', 'seats');
		expect(seats.results.map((result) => result.name).sort()).toEqual([
			'Enterprise Seats · RECURRING · Enterprise',
			'Platform Seats · RECURRING · Growth',
			'Starter Seats · RECURRING · Starter',
		]);
		expect(
			sandbox.requests.map(
				(request) => `${request.method} ${request.path} ${JSON.stringify(request.query)}`,
			),
		).toEqual(Array(3).fill('GET /api/v2/plans {"limit":"1000","offset":"0"}'));
	});

	test('a brick picked From list (in the rows of an upgrade, and for a usage entry) is sent as its ID', async () => {
		const { subscriptionId, addOnBrickId, usageBrickId } = sandbox.fixtures;
		const upgrade = await runBilling(sandbox, {
			resource: 'subscriptionUpgrade',
			operation: 'create',
			subscriptionId,
			startsAt: '2026-10-01',
			bricksInput: 'fields',
			bricksUi: {
				brick: [
					{
						brickId: {
							__rl: true,
							mode: 'list',
							value: addOnBrickId,
							cachedResultName: 'Premium Support · RECURRING · Growth',
						},
						quantity: 1,
					},
				],
			},
		});
		expect(upgrade.error).toBeUndefined();
		expect(sandbox.requests[0].body).toEqual({
			starts_at: '2026-10-01',
			bricks: [{ brick_id: addOnBrickId, quantity: 1 }],
		});
		const usage = await runBilling(sandbox, {
			resource: 'usage',
			operation: 'create',
			transactionId: 'txn-picked-brick',
			subscriptionId,
			brickId: {
				__rl: true,
				mode: 'list',
				value: usageBrickId,
				cachedResultName: 'API Calls · USAGE · Growth',
			},
			value: 7,
			time: '2026-09-10T10:00:00Z',
		});
		expect(usage.error).toBeUndefined();
		expect(sandbox.requests[1].body).toMatchObject({
			transaction_id: 'txn-picked-brick',
			brick_id: usageBrickId,
			value: 7,
		});
		expect(usage.json[0]).toMatchObject({
			transaction_id: 'txn-picked-brick',
			brick_id: usageBrickId,
		});
	});

	test('plans are filtered by name (case-insensitive) and all plans are listed without a filter', async () => {
		const growth = await search('searchPlans', 'GROW');
		expect(growth.results).toEqual([{ name: 'Growth', value: sandbox.fixtures.planId }]);
		const all = await search('searchPlans');
		expect(all.results.map((plan) => plan.name).sort()).toEqual([
			'Enterprise',
			'Growth',
			'Starter',
		]);
		expect(all.paginationToken).toBeUndefined();
		expect(
			sandbox.requests.every(
				(request) => request.method === 'GET' && request.path === '/api/v2/plans',
			),
		).toBe(true);
	});

	test('a wrong API key gives a clear error instead of an empty list, without the key in it', async () => {
		const failure = search('searchCustomers', undefined, undefined, 'sbx_wrong_key_0000');
		await expect(failure).rejects.toThrow('ERR_UNAUTHORIZED: Invalid or missing API key.');
		const error = (await failure.catch((caught: unknown) => caught)) as Error & {
			description?: string;
			httpCode?: string;
		};
		expect(error.httpCode).toBe('401');
		expect(error.description).toBe(
			'HTTP 401 from GET /api/v2/customers; the API did not accept the key: check the API Key of the Subscription Billing API credential, and that it belongs to the environment chosen in its Environment (Production or Staging)',
		);
		expect(`${error.message} ${error.description ?? ''}`).not.toContain('sbx_wrong_key_0000');
		expect(sandbox.requests).toHaveLength(1); // a 401 is not retried
	});
});

describe('Resource locator "By ID" and "From list" values in a run', () => {
	const get = (subscriptionId: INodeParameterResourceLocator) =>
		runBilling(sandbox, {
			resource: 'subscription',
			operation: 'get',
			subscriptionId,
			subscriptionOutput: 'raw',
		});

	test("an invalid By ID value is refused by n8n before the run, with the mode's validation message on the field", async () => {
		// n8n checks the locator's regex (checkReadyForExecution) before executing anything.
		await expect(get({ __rl: true, mode: 'id', value: 'bad/id' })).rejects.toThrow(
			'{"Subscription Billing":{"parameters":{"subscriptionId":["Only letters, digits and hyphens"]}}}',
		);
		await expect(get({ __rl: true, mode: 'list', value: '' })).rejects.toThrow(
			'Parameter \\"Subscription\\" is required.',
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('an invalid By ID value from an expression fails in the node before anything is sent, naming the field', async () => {
		const run = await runBilling(
			sandbox,
			{
				resource: 'subscription',
				operation: 'get',
				subscriptionId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			},
			{ items: [{ id: 'bad/id' }, { id: '' }] },
		);
		expect(run.error?.message).toBe(
			'Subscription in item 0: "bad/id" is not an ID (an ID has only letters, digits and hyphens). Give the subscription_id from Customer → Search or Customer → Get (a customer\'s active_subscription_ids) or from an invoice (and 1 more invalid: item 1)',
		);
		expect(run.error?.description).toMatch(
			/Nothing was sent.*Invalid: .*; Subscription in item 1: is empty\./,
		);
		const empty = await runBilling(
			sandbox,
			{
				resource: 'subscription',
				operation: 'get',
				subscriptionId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			},
			{ items: [{ id: sandbox.fixtures.subscriptionId }, { id: '' }], continueOnFail: true },
		);
		expect(empty.json[1].error).toMatchObject({
			message:
				"Subscription in item 1: is empty. Give the subscription_id from Customer → Search or Customer → Get (a customer's active_subscription_ids) or from an invoice",
		});
		expect(sandbox.requests.map((request) => request.path)).toEqual([
			`/api/v2/subscriptions/${sandbox.fixtures.subscriptionId}`,
		]);
	});

	test('a valid By ID value gets the subscription', async () => {
		const run = await get({ __rl: true, mode: 'id', value: sandbox.fixtures.subscriptionId });
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(1);
		expect(run.json[0].subscription_id).toBe(sandbox.fixtures.subscriptionId);
		expect(sandbox.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			`GET /api/v2/subscriptions/${sandbox.fixtures.subscriptionId}`,
		]);
	});

	test('a value picked From list (as the editor stores it, with its cached label) gets the subscription', async () => {
		const page = await search('searchSubscriptions', sandbox.fixtures.customerName);
		const picked = page.results.find(
			(result) => result.value === sandbox.fixtures.pausedSubscriptionId,
		);
		expect(picked).toBeDefined();
		sandbox.clearRequests();
		const run = await get({
			__rl: true,
			mode: 'list',
			value: String(picked!.value),
			cachedResultName: picked!.name,
		});
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({
			subscription_id: sandbox.fixtures.pausedSubscriptionId,
			status: 'PAUSED',
		});
		expect(sandbox.requests[0].path).toBe(
			`/api/v2/subscriptions/${sandbox.fixtures.pausedSubscriptionId}`,
		);
	});
});

describe('Output modes', () => {
	async function apiGet(path: string): Promise<IDataObject> {
		const response = await fetch(`${sandbox.baseUrl}${path}`, {
			headers: { 'X-SERVICE-KEY': sandbox.apiKey },
		});
		return (await response.json()) as IDataObject;
	}

	const getSubscription = (id: string, extra: INodeParameters = {}) =>
		runBilling(sandbox, {
			resource: 'subscription',
			operation: 'get',
			subscriptionId: { __rl: true, mode: 'id', value: id },
			...extra,
		});

	test('Subscription Get, Simplified (the default): exactly the documented fields, customer name and current pause computed', async () => {
		// The clock is the sandbox world's day (test/clock.js): the current pause is judged by it.
		const paused = await getSubscription(sandbox.fixtures.pausedSubscriptionId);
		expect(paused.error).toBeUndefined();
		expect(paused.json).toHaveLength(1);
		expect(Object.keys(paused.json[0]).sort()).toEqual(SUBSCRIPTION_SIMPLIFIED);
		const raw = await apiGet(`/subscriptions/${sandbox.fixtures.pausedSubscriptionId}`);
		expect(paused.json[0]).toMatchObject({
			subscription_id: sandbox.fixtures.pausedSubscriptionId,
			status: 'PAUSED',
			stage: raw.stage,
			billing_frequency: 'MONTHLY',
			customer_id: sandbox.fixtures.customerId,
			customer_name: sandbox.fixtures.customerName,
			current_pause: { paused_at: '2026-05-01T00:00:00Z', resume_at: null },
		});
		// A past and an upcoming pause, none current.
		const active = await getSubscription(sandbox.fixtures.subscriptionId);
		expect(active.json[0].current_pause).toBeNull();
		expect(active.json[0].status).toBe('ACTIVE');
	});

	test('Subscription Get, Raw: the full object as the API returns it', async () => {
		const run = await getSubscription(sandbox.fixtures.subscriptionId, {
			subscriptionOutput: 'raw',
		});
		expect(run.error).toBeUndefined();
		const raw = await apiGet(`/subscriptions/${sandbox.fixtures.subscriptionId}`);
		expect(Object.keys(raw).length).toBeGreaterThan(25);
		expect(run.json).toEqual([raw]);
	});

	test('Subscription Get, Selected Fields: only the named fields, a dotted path kept nested ($json.customer.name)', async () => {
		const run = await getSubscription(sandbox.fixtures.subscriptionId, {
			subscriptionOutput: 'selected',
			subscriptionFields:
				'subscription_id, customer.name, customer.address.city, customer.address.zip, purchase_order',
		});
		expect(run.error).toBeUndefined();
		const raw = await apiGet(`/subscriptions/${sandbox.fixtures.subscriptionId}`);
		const customer = raw.customer as IDataObject;
		expect(run.json).toEqual([
			{
				subscription_id: sandbox.fixtures.subscriptionId,
				customer: {
					name: sandbox.fixtures.customerName,
					address: {
						city: (customer.address as IDataObject).city,
						zip: (customer.address as IDataObject).zip,
					},
				},
				purchase_order: raw.purchase_order,
			},
		]);
		expect(raw.purchase_order).toEqual({ code: expect.any(String) });
	});

	test('Selected Fields: a documented field this result does not carry is null; a path inside a selected object adds nothing', async () => {
		// The subscription without phases: the contract says `phases` is then omitted.
		const run = await getSubscription(sandbox.fixtures.noPhasesSubscriptionId, {
			subscriptionOutput: 'selected',
			subscriptionFields: 'phases, customer, customer.name, status',
		});
		expect(run.error).toBeUndefined();
		const raw = await apiGet(`/subscriptions/${sandbox.fixtures.noPhasesSubscriptionId}`);
		expect(raw).not.toHaveProperty('phases');
		expect(run.json).toEqual([{ phases: null, customer: raw.customer, status: raw.status }]);
	});

	test('Customer Get Many, Selected Fields: address.city comes out as {address: {city}} on every customer', async () => {
		const run = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'getMany',
			limit: 3,
			customerOutput: 'selected',
			customerFields: 'name,address.city',
		});
		expect(run.error).toBeUndefined();
		const customers = allCustomers().slice(0, 3);
		expect(run.json).toEqual(
			customers.map((customer) => ({
				name: customer.name,
				address: { city: (customer.address as IDataObject | null)?.city ?? null },
			})),
		);
		expect(run.json[0]).toEqual({
			name: sandbox.fixtures.customerName,
			address: { city: expect.any(String) },
		});
	});

	test.each([
		[
			'empty (from an expression)',
			'={{ "" }}',
			'Fields in item 0: is empty: name the subscription fields to return, e.g. subscription_id, status, customer.name',
		],
		[
			'only commas and spaces',
			' , ,',
			'Fields: is empty: name the subscription fields to return, e.g. subscription_id, status, customer.name',
		],
		[
			'a misspelt name',
			'subscription_id, stauts',
			'Fields: "stauts" is not a field of a subscription (its fields: subscription_id, status, stage, transaction_method, starts_at, ends_at, renews_at, terminates_at, time_zone, billing_frequency, currency, payment_terms, auto_renews, renewal_total, renewal_contract_period, sub_total, grand_total, grand_total_details, line_items, billing_schedule, customer, crm_account_id, crm_opportunity_id, point_of_contact, signatory_user, accounts_payable_emails, products, pauses, phases, metadata, attributed_to, purchase_order)',
		],
		[
			'an unknown name inside an object',
			'customer.adress.city',
			'Fields: "customer.adress.city" is not a field of customer (its fields: customer_id, name, legal_name, external_id, address, processor_customer_id, tax_id, subscriptions)',
		],
		[
			'a path into a list',
			'line_items.brick_name',
			'Fields: "line_items.brick_name": line_items is a list, which is selected whole (line_items)',
		],
		[
			'a path into a single value',
			'status.name',
			'Fields: "status.name": status is a single value, with no fields inside',
		],
	])(
		'Selected Fields %s: refused before sending, naming Fields (and the item, for a value an expression gives)',
		async (_case, fields, message) => {
			const run = await getSubscription(sandbox.fixtures.subscriptionId, {
				subscriptionOutput: 'selected',
				subscriptionFields: fields,
			});
			expect(run.error?.message).toBe(message);
			expect(run.error?.description).toBe(
				`Nothing was sent to the API${fields.startsWith('=') ? ' for this item. Correct the value' : '. Correct the setting'} and run again.`,
			);
			expect(sandbox.requests).toHaveLength(0);
		},
	);

	test('Selected Fields left empty in the editor: n8n marks Fields as required and runs nothing', async () => {
		await expect(
			getSubscription(sandbox.fixtures.subscriptionId, {
				subscriptionOutput: 'selected',
				subscriptionFields: '',
			}),
		).rejects.toThrow(
			'{"Subscription Billing":{"parameters":{"subscriptionFields":["Parameter \\"Fields\\" is required."]}}}',
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	test('Selected Fields on a list: an unknown name is refused for the customer and the invoice lists too, naming the item when an expression gives it', async () => {
		const customers = await runBilling(
			sandbox,
			{
				resource: 'customer',
				operation: 'search',
				searchFields: { name: 'acme' },
				customerOutput: 'selected',
				customerFields: '={{ $json.fields }}',
			},
			{ items: [{ fields: 'name' }, { fields: 'name, invoice_number' }], continueOnFail: true },
		);
		expect(customers.json[0]).toEqual({ name: expect.stringMatching(/acme/i) });
		expect(customers.json.at(-1)?.error).toMatchObject({
			message: expect.stringMatching(
				/^Fields in item 1: "invoice_number" is not a field of a customer \(its fields: customer_id, name,/,
			),
		});
		const invoices = await runBilling(sandbox, {
			resource: 'invoice',
			operation: 'getManyForCustomer',
			customerId: sandbox.fixtures.customerId,
			invoiceOutput: 'selected',
			invoiceFields: 'invoice_number, address.city',
		});
		expect(invoices.error?.message).toMatch(
			/^Fields: "address.city" is not a field of an? invoice/,
		);
		expect(sandbox.requests.map((request) => request.path)).toEqual(['/api/v2/customers/search']);
	});

	test('Invoice Get Many for Customer, Simplified: the documented fields on every invoice', async () => {
		const run = await runBilling(sandbox, {
			resource: 'invoice',
			operation: 'getManyForCustomer',
			customerId: { __rl: true, mode: 'id', value: sandbox.fixtures.customerId },
			limit: 5,
		});
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(5);
		for (const invoice of run.json) {
			expect(Object.keys(invoice).sort()).toEqual(INVOICE_SIMPLIFIED);
			expect(invoice.customer_id).toBe(sandbox.fixtures.customerId);
			expect(invoice.customer_name).toBe(sandbox.fixtures.customerName);
			expect(invoice.invoice_number).toMatch(/^INV-/);
		}
	});

	test('Customer Search, Simplified: the documented fields, with country and the active subscriptions', async () => {
		const run = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'search',
			searchFields: { name: 'acme corp' },
		});
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(1);
		const [customer] = run.json;
		expect(Object.keys(customer).sort()).toEqual(CUSTOMER_SIMPLIFIED);
		expect(customer).toMatchObject({
			customer_id: sandbox.fixtures.customerId,
			name: sandbox.fixtures.customerName,
			external_id: sandbox.fixtures.customerExternalId,
			processor_customer_id: sandbox.fixtures.processorCustomerId,
			country: 'US',
			all_subscriptions_count: 4,
			active_subscriptions_count: 2,
		});
		expect(customer.active_subscription_ids).toEqual(
			expect.arrayContaining([
				sandbox.fixtures.subscriptionId,
				sandbox.fixtures.noPhasesSubscriptionId,
			]),
		);
		expect(customer.active_subscription_ids).toHaveLength(2);
		expect(customer.active_subscription_ids).not.toContain(sandbox.fixtures.pausedSubscriptionId);
		expect(sandbox.requests[0].body).toEqual({ name: 'acme corp' });
	});
});

describe('Description', () => {
	const { description } = new SubscriptionBilling();
	const properties = description.properties;
	const operationPickers = properties.filter((property) => property.name === 'operation');

	test('the resource picker offers every resource, and there is one operation picker per resource', () => {
		const resourcePicker = properties.find((property) => property.name === 'resource');
		expect(resourcePicker?.options).toEqual(resources.map(({ name, value }) => ({ name, value })));
		expect(operationPickers.map((picker) => picker.displayOptions?.show?.resource)).toEqual(
			resources.map((resource) => [resource.value]),
		);
	});

	test.each(resources.map((resource) => [resource.name, resource] as const))(
		'%s: the operation options are exactly the expected names, each with an action and a description',
		(_name, resource) => {
			const pickers = operationPickers.filter(
				(candidate) => candidate.displayOptions?.show?.resource?.[0] === resource.value,
			);
			const options = (pickers[0]?.options ?? []) as INodePropertyOptions[];
			expect(options.map((option) => option.name).sort()).toEqual(
				resource.operations.map((operation) => operation.name).sort(),
			);
			expect(options.map((option) => option.value).sort()).toEqual(
				resource.operations.map((operation) => operation.value).sort(),
			);
			expect(options.map((option) => option.name)).toEqual(
				[...options.map((option) => option.name)].sort((a, b) => a.localeCompare(b)),
			);
			// a read where the first is a write
			expect(pickers).toHaveLength(1);
			expect(pickers[0].default).toBe(resource.startOperation ?? options[0].value);
			for (const option of options) {
				expect(option.action).toEqual(expect.stringMatching(/^[A-Z].{4,}$/));
				expect(option.description).toEqual(expect.stringMatching(/^[A-Z].{9,}$/));
			}
			// Actions are what the nodes panel and the AI tool list show: they must differ.
			expect(new Set(options.map((option) => option.action)).size).toBe(options.length);
		},
	);

	test('each resource starts on a read where it has one', () => {
		const starts = Object.fromEntries(
			resources.map((resource) => {
				const picker = operationPickers.find(
					(candidate) => candidate.displayOptions?.show?.resource?.[0] === resource.value,
				);
				const option = (picker?.options as INodePropertyOptions[]).find(
					(candidate) => candidate.value === picker?.default,
				) as INodePropertyOptions & {
					routing: { request: { method: string } };
				};
				return [resource.value, option.routing.request.method];
			}),
		);
		expect(starts).toEqual({
			customer: 'GET',
			invoice: 'GET',
			paymentMethod: 'GET',
			plan: 'GET',
			subscription: 'GET',
			subscriptionMilestone: 'GET',
			subscriptionRecast: 'GET',
			subscriptionUpgrade: 'GET',
			usage: 'POST', // no read: Create, Delete, Update
		});
	});

	test('Output and Fields are shown for exactly the operations whose definition returns that kind of result', () => {
		const returning = resources.flatMap((resource) =>
			resource.operations.flatMap((operation) =>
				operation.output
					? [`${resource.value}.${operation.value} ${operation.output.parameters.output}`]
					: [],
			),
		);
		const outputNames = new Set(
			resources.flatMap((resource) =>
				resource.operations.flatMap((operation) => operation.output?.parameters.output ?? []),
			),
		);
		const shown = properties
			.filter((property) => outputNames.has(property.name))
			.flatMap((property) => {
				const show = property.displayOptions?.show ?? {};
				return (show.resource ?? []).flatMap((resource) =>
					(show.operation ?? []).map(
						(operation) => `${String(resource)}.${String(operation)} ${property.name}`,
					),
				);
			});
		expect(returning.length).toBeGreaterThan(0);
		expect(shown.sort()).toEqual(returning.sort());
		for (const output of outputNames) {
			const fields = properties.filter(
				(property) => property.displayOptions?.show?.[output]?.[0] === 'selected',
			);
			expect(fields.map((field) => field.displayOptions?.show?.operation)).toEqual(
				properties
					.filter((property) => property.name === output)
					.map((property) => property.displayOptions?.show?.operation),
			);
		}
	});

	// The agreed names are the README's operations table (test/readme.test.cts holds the definitions to it).
	test("each resource's operation picker lists its operations by name, in alphabetical order", () => {
		const expected = Object.fromEntries(
			resources.map((resource) => [
				resource.value,
				resource.operations.map((operation) => operation.name).sort((a, b) => a.localeCompare(b)),
			]),
		);
		const shown = Object.fromEntries(
			operationPickers.map((picker) => [
				picker.displayOptions?.show?.resource?.[0] as string,
				((picker.options ?? []) as INodePropertyOptions[]).map((option) => option.name),
			]),
		);
		expect(shown).toEqual(expected);
	});

	test('usable as a tool, with a subtitle showing operation and resource as the pickers name them', () => {
		expect(description.usableAsTool).toBe(true);
		// as the editor computes a canvas subtitle: the expression, evaluated for the node's parameters
		const subtitle = (parameters: INodeParameters) => {
			const node: INode = {
				id: 'n',
				name: 'Subscription Billing',
				type: description.name,
				typeVersion: 1,
				position: [0, 0],
				parameters,
			};
			const workflow = new Workflow({
				nodes: [node],
				connections: {},
				active: false,
				nodeTypes: new HarnessNodeTypes([new SubscriptionBilling()]),
			});
			return workflow.expression.getSimpleParameterValue(
				node,
				description.subtitle,
				'internal',
				{},
			);
		};
		const shown = resources.flatMap((resource) =>
			resource.operations.map((operation) =>
				subtitle({ resource: resource.value, operation: operation.value }),
			),
		);
		expect(shown).toEqual(
			resources.flatMap((resource) =>
				resource.operations.map((operation) => `${operation.name}: ${resource.name}`),
			),
		);
		expect(subtitle({ resource: 'invoice', operation: 'getManyForCustomer' })).toBe(
			'Get Many for Customer: Invoice',
		);
		expect(subtitle({ resource: 'subscriptionRecast', operation: 'getMany' })).toBe(
			'Get Many: Subscription Recast',
		);
	});

	test('no two parameters share a name and the same display conditions', () => {
		const keys = properties.map(
			(property) => `${property.name} ${JSON.stringify(property.displayOptions ?? {})}`,
		);
		const duplicates = keys.filter((key, index) => keys.indexOf(key) !== index);
		expect(duplicates).toEqual([]);
	});

	test('for every resource and operation, at most one parameter of each name is displayed', () => {
		const node: INode = {
			id: 'n',
			name: 'Subscription Billing',
			type: description.name,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const collisions: string[] = [];
		let combinations = 0;
		for (const resource of resources) {
			for (const operation of resource.operations) {
				// Defaults, and then the values that reveal the conditional fields.
				for (const extra of [
					{},
					{
						subscriptionOutput: 'selected',
						customerOutput: 'selected',
						invoiceOutput: 'selected',
						returnAll: false,
						faultHandling: { idempotency: 'custom' },
					},
				]) {
					const values = {
						resource: resource.value,
						operation: operation.value,
						...extra,
					} as INodeParameters;
					const visible = properties.filter((property: INodeProperties) =>
						NodeHelpers.displayParameter(values, property, node, description),
					);
					const names = visible.map((property) => property.name);
					for (const name of new Set(
						names.filter((candidate, index) => names.indexOf(candidate) !== index),
					)) {
						collisions.push(`${resource.value}/${operation.value}: ${name}`);
					}
					combinations++;
				}
			}
		}
		expect(combinations).toBeGreaterThan(40);
		expect(collisions).toEqual([]);
	});
});
