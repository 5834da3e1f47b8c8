/**
 * Output settings and shapes as users meet them: each kind of result keeps its own Output and
 * Fields, Customer Create and Update give the same Simplified shape as Search, amounts say their
 * unit, and Simplified keeps every key when the API answers null. Runs go through n8n's engine against the sandbox; the resource switch
 * goes through n8n-workflow's getNodeParameters and the editor's own step for options, as the editor
 * does it.
 */
import { NodeHelpers, type IDataObject, type INodeParameters } from 'n8n-workflow';
import { SubscriptionBilling } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { runBilling, useSandbox } from './helpers/billing.cjs';
import { CUSTOMER_SIMPLIFIED } from './helpers/simplifiedKeys.cjs';

const sandbox = useSandbox();

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

describe('switching the resource in the editor', () => {
	const { description } = new SubscriptionBilling();

	/**
	 * What n8n's editor keeps when one parameter changes (NodeSettings → updateParameterByPath):
	 * options whose value the newly shown parameter does not offer are dropped, then the parameters
	 * are computed again with their defaults, and only what is shown is kept.
	 */
	function change(values: INodeParameters, parameter: string, value: string): INodeParameters {
		const node = { typeVersion: 1 };
		const updated: INodeParameters = { ...values, [parameter]: value };
		for (const property of description.properties) {
			if (
				!(property.name in updated) ||
				property.type !== 'options' ||
				!property.displayOptions?.show?.[parameter]
			)
				continue;
			const offered = (property.options as Array<{ value: unknown }>).some(
				(option) => option.value === updated[property.name],
			);
			if (!offered && NodeHelpers.displayParameter(updated, property, node, description))
				delete updated[property.name];
		}
		return NodeHelpers.getNodeParameters(
			description.properties,
			updated,
			true,
			false,
			node,
			description,
		) as INodeParameters;
	}

	/** Customer → Get Many with Selected Fields, as a user sets it up. */
	const customerSelected = () => ({
		...change({ resource: 'customer', operation: 'create' }, 'operation', 'getMany'),
		customerOutput: 'selected',
		customerFields: 'customer_id, name, address.city',
	});

	test("a customer list's Selected Fields do not follow to Subscription → Get: it starts at Simplified", () => {
		const customers = customerSelected();
		expect(customers).toMatchObject({
			customerOutput: 'selected',
			customerFields: 'customer_id, name, address.city',
		});
		const subscription = change(change(customers, 'resource', 'subscription'), 'operation', 'get');
		expect(subscription).toMatchObject({
			resource: 'subscription',
			operation: 'get',
			subscriptionOutput: 'simplified',
		});
		expect(subscription).not.toHaveProperty('subscriptionFields');
		expect(subscription).not.toHaveProperty('customerOutput');
		expect(subscription).not.toHaveProperty('customerFields');
		// and back: the customer's settings were left behind with the customer
		const back = change(change(subscription, 'resource', 'customer'), 'operation', 'getMany');
		expect(back).toMatchObject({ customerOutput: 'simplified' });
		expect(back).not.toHaveProperty('customerFields');
	});

	test('between operations returning the same kind of result, Output and Fields stay (Get Many → Search → Create)', () => {
		const customers = customerSelected();
		const search = change(customers, 'operation', 'search');
		expect(search).toMatchObject({
			customerOutput: 'selected',
			customerFields: 'customer_id, name, address.city',
		});
		expect(change(search, 'operation', 'create')).toMatchObject({
			customerOutput: 'selected',
			customerFields: 'customer_id, name, address.city',
		});
	});

	test('invoices and customers keep theirs apart too', () => {
		const invoices = {
			...change({ resource: 'invoice', operation: 'search' }, 'operation', 'search'),
			invoiceOutput: 'raw',
		};
		const customers = change(change(invoices, 'resource', 'customer'), 'operation', 'search');
		expect(customers).toMatchObject({ customerOutput: 'simplified' });
		expect(customers).not.toHaveProperty('invoiceOutput');
	});
});

describe('Output on lists and on Create, under the names each kind of result keeps', () => {
	test('Selected Fields on a customer list and Raw on an invoice list apply', async () => {
		const customers = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'getMany',
			limit: 2,
			customerOutput: 'selected',
			customerFields: 'name, address.city',
		});
		expect(customers.error).toBeUndefined();
		expect(customers.json[0]).toEqual({
			name: sandbox.fixtures.customerName,
			address: { city: expect.any(String) },
		});
		const invoices = await runBilling(sandbox, {
			resource: 'invoice',
			operation: 'getManyForCustomer',
			customerId: byId(sandbox.fixtures.customerId),
			limit: 1,
			invoiceOutput: 'raw',
		});
		expect(invoices.json[0]).toHaveProperty('line_items');
	});

	test('Raw on Customer Create returns the customer as the API sent it', async () => {
		const created = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'create',
			name: 'Raw Output Ltd',
			customerOutput: 'raw',
		});
		expect(created.error).toBeUndefined();
		expect(created.json[0]).toHaveProperty('address');
		expect(created.json[0]).toHaveProperty('subscriptions');
	});
});

describe('one shape for customers across Search, Create and Update', () => {
	test('Create and Update give the Simplified shape of Search by default, with the same values', async () => {
		const created = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'create',
			name: 'Onboarded Corp',
			additionalFields: {
				externalId: 'crm-4711',
				address: { line1: 'Main St 1', city: 'Springfield', country: 'US' },
			},
		});
		expect(created.error).toBeUndefined();
		expect(Object.keys(created.json[0]).sort()).toEqual(CUSTOMER_SIMPLIFIED);
		expect(created.json[0]).toMatchObject({
			name: 'Onboarded Corp',
			external_id: 'crm-4711',
			country: 'US',
			all_subscriptions_count: 0,
		});

		const updated = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'update',
			customerId: byId(String(created.json[0].customer_id)),
			updateFields: { taxId: 'DE123456789' },
		});
		expect(updated.error).toBeUndefined();
		const found = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'search',
			searchFields: { externalId: 'crm-4711' },
		});
		expect(updated.json).toEqual(found.json);
		expect(updated.json[0]).toMatchObject({ tax_id: 'DE123456789', country: 'US' });
	});
});

describe('amounts say their unit', () => {
	test('Subscription Simplified: renewal_total_cents is the API renewal_total, in cents; grand_total as the API gives it', async () => {
		const run = await runBilling(sandbox, {
			resource: 'subscription',
			operation: 'get',
			subscriptionId: byId(sandbox.fixtures.noPhasesSubscriptionId),
		});
		const raw = await runBilling(sandbox, {
			resource: 'subscription',
			operation: 'get',
			subscriptionId: byId(sandbox.fixtures.noPhasesSubscriptionId),
			subscriptionOutput: 'raw',
		});
		expect(run.json[0].renewal_total_cents).toBe(raw.json[0].renewal_total);
		expect(Number.isInteger(run.json[0].renewal_total_cents)).toBe(true);
		expect(run.json[0].grand_total).toBe(raw.json[0].grand_total);
		expect(run.json[0]).not.toHaveProperty('renewal_total');
	});
});

describe('Simplified keeps every key when the API answers null (issue 19 §7)', () => {
	test('Subscription Get with customer: null gives customer_id and customer_name as null', async () => {
		sandbox.world.nullSubscriptionCustomer({
			subscription_id: sandbox.fixtures.noPhasesSubscriptionId,
		});
		const get = (extra: IDataObject = {}) =>
			runBilling(sandbox, {
				resource: 'subscription',
				operation: 'get',
				subscriptionId: byId(sandbox.fixtures.noPhasesSubscriptionId),
				...extra,
			});
		const raw = await get({ subscriptionOutput: 'raw' });
		expect(raw.json[0].customer).toBeNull();
		const simplified = await get();
		expect(simplified.error).toBeUndefined();
		expect(simplified.json[0]).toMatchObject({
			subscription_id: sandbox.fixtures.noPhasesSubscriptionId,
			customer_id: null,
			customer_name: null,
		});
		const normal = await runBilling(sandbox, {
			resource: 'subscription',
			operation: 'get',
			subscriptionId: byId(sandbox.fixtures.subscriptionId),
		});
		expect(Object.keys(simplified.json[0]).sort()).toEqual(Object.keys(normal.json[0]).sort());
	});

	test('customers with address: null (and no external ID) keep country and every other key, in lists and on Create', async () => {
		const { customer_id } = sandbox.world.createCustomer({ name: 'Nowhere Ltd' });
		const created = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'create',
			name: 'No Address GmbH',
		});
		const listed = await runBilling(sandbox, {
			resource: 'customer',
			operation: 'getMany',
			returnAll: true,
		});
		const nowhere = listed.json.find((customer) => customer.customer_id === customer_id);
		for (const customer of [nowhere, created.json[0]]) {
			expect(Object.keys(customer ?? {}).sort()).toEqual(CUSTOMER_SIMPLIFIED);
			expect(customer).toMatchObject({
				country: null,
				external_id: null,
				tax_id: null,
				all_subscriptions_count: 0,
			});
		}
	});
});
