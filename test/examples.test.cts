/**
 * Every example the editor shows (placeholders, "By ID" placeholders, the "e.g." values in
 * descriptions) is one the node accepts: each is collected from the built description and run
 * through n8n's engine in the field it belongs to, where n8n's own checks (a locator's regex) and
 * the node's validators must let it through to the API. A new example without a run here fails
 * the coverage test, so none goes unchecked.
 */
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';
import { SubscriptionBillingApi } from '../credentials/SubscriptionBillingApi.credentials';
import { SubscriptionBilling } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { checkedBaseUrl } from '../nodes/SubscriptionBilling/shared/apiCredentials';
import { runBilling, useSandbox } from './helpers/billing.cjs';

const sandbox = useSandbox();

interface Example {
	/** Where the example is: the parameter path, `[id]` for a locator's By ID mode. */
	path: string;
	resource: string;
	operation: string;
	value: string;
}

/** The value an example text shows: "e.g. 10 for 10%" → "10", a JSON list or object whole. */
function exampleIn(text: string, kind: 'placeholder' | 'description'): string | undefined {
	if (kind === 'placeholder') return text.replace(/^e\.g\. /, '');
	const match = /e\.g\. (\[.*\]|\{.*\}|-?\d+(\.\d+)?)/.exec(text);
	return match?.[1];
}

function collect(properties: INodeProperties[], prefix = '', show: IDataObject = {}): Example[] {
	const found: Example[] = [];
	for (const property of properties) {
		const path = `${prefix}${property.name}`;
		const shown = (property.displayOptions?.show as IDataObject | undefined) ?? show;
		const add = (where: string, text: string | undefined, kind: 'placeholder' | 'description') => {
			const value = text === undefined ? undefined : exampleIn(text, kind);
			if (value === undefined) return;
			for (const resource of (shown.resource as string[] | undefined) ?? ['']) {
				for (const operation of (shown.operation as string[] | undefined) ?? ['']) {
					found.push({ path: where, resource, operation, value });
				}
			}
		};
		// A collection's placeholder is its "Add field" button, not an example.
		if (!['collection', 'fixedCollection', 'options', 'notice'].includes(property.type))
			add(path, property.placeholder, 'placeholder');
		add(path, property.description, 'description');
		add(path, property.hint, 'description');
		for (const mode of property.modes ?? [])
			add(`${path}[${mode.name}]`, mode.placeholder, 'placeholder');
		for (const option of (property.options ?? []) as Array<
			INodeProperties & { values?: INodeProperties[] }
		>) {
			if (option.values) found.push(...collect(option.values, `${path}.${option.name}.`, shown));
			else if ('type' in option) found.push(...collect([option], `${path}.`, shown));
		}
	}
	return found;
}

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const upgrade = (extra: INodeParameters): INodeParameters => ({
	resource: 'subscriptionUpgrade',
	operation: 'create',
	subscriptionId: sandbox.fixtures.subscriptionId,
	startsAt: '2026-10-01',
	bricksInput: 'fields',
	bricksUi: { brick: [{ brickId: sandbox.fixtures.addOnBrickId, quantity: 1 }] },
	...extra,
});

/** Output and Fields under the names one kind of result keeps them. */
function renamed(
	{ output, fields, ...parameters }: INodeParameters,
	outputName: string,
	fieldsName: string,
): INodeParameters {
	return { ...parameters, [outputName]: output, [fieldsName]: fields };
}

/** For each place an example appears, the run that puts the example there. */
const runs: Record<string, (example: Example) => INodeParameters> = {
	fields: ({ resource, operation, value }) => ({
		resource,
		operation,
		output: 'selected',
		fields: value,
		...(resource === 'subscription' && { subscriptionId: sandbox.fixtures.subscriptionId }),
		...(operation === 'getManyForCustomer' && { customerId: sandbox.fixtures.customerId }),
		...(operation === 'getManyForSubscription' && {
			subscriptionId: sandbox.fixtures.subscriptionId,
		}),
		...(resource === 'invoice' &&
			operation === 'search' && { customerId: sandbox.fixtures.customerId }),
		...(resource === 'customer' && operation === 'search' && { searchFields: { name: 'acme' } }),
		...(resource === 'customer' &&
			['get', 'update'].includes(operation) && { customerId: sandbox.fixtures.customerId }),
		...(resource === 'customer' && operation === 'update' && { updateFields: { taxId: 'DE123' } }),
		...(resource === 'customer' &&
			['create', 'upsert'].includes(operation) && { name: `Example ${Date.now()}` }),
		...(resource === 'customer' && operation === 'upsert' && { externalId: 'EXT-EXAMPLE-1' }),
	}),
	customerFields: (example) => renamed(runs.fields(example), 'customerOutput', 'customerFields'),
	invoiceFields: (example) => renamed(runs.fields(example), 'invoiceOutput', 'invoiceFields'),
	subscriptionFields: (example) =>
		renamed(runs.fields(example), 'subscriptionOutput', 'subscriptionFields'),
	'customerId[id]': ({ value }) => ({
		resource: 'invoice',
		operation: 'getManyForCustomer',
		customerId: byId(value),
	}),
	'subscriptionId[id]': ({ value }) => ({
		resource: 'subscription',
		operation: 'get',
		subscriptionId: byId(value),
	}),
	'planId[id]': ({ value }) => ({ resource: 'plan', operation: 'get', planId: byId(value) }),
	'additionalFields.planId[id]': ({ value }) =>
		upgrade({ additionalFields: { planId: byId(value) } }),
	'bricksUi.brick.brickId[id]': ({ value }) =>
		upgrade({ bricksUi: { brick: [{ brickId: byId(value), quantity: 1 }] } }),
	'bricksUi.brick.discountRate': ({ value }) =>
		upgrade({
			bricksUi: {
				brick: [{ brickId: sandbox.fixtures.addOnBrickId, quantity: 1, discountRate: value }],
			},
		}),
	'brickId[id]': ({ value }) => ({
		resource: 'usage',
		operation: 'create',
		transactionId: 'txn-example',
		subscriptionId: sandbox.fixtures.subscriptionId,
		brickId: byId(value),
		value: 1,
		time: '2026-09-10T10:00:00Z',
	}),
	'orderId[id]': ({ resource, value }) => ({
		resource,
		operation: 'getSignUrl',
		subscriptionId: sandbox.fixtures.subscriptionId,
		orderId: byId(value),
		redirectUrl: 'https://example.com/done',
	}),
	'milestoneId[id]': ({ value }) => ({ ...milestone({}), milestoneId: byId(value) }),
	redirectUrl: ({ resource, value }) => ({
		resource,
		operation: 'getSignUrl',
		subscriptionId: sandbox.fixtures.subscriptionId,
		redirectUrl: value,
		...(resource !== 'subscription' && { orderId: sandbox.fixtures.upgradeOrderId }),
	}),
	paymentMethodId: ({ value }) => ({
		resource: 'paymentMethod',
		operation: 'setDefault',
		subscriptionId: sandbox.fixtures.subscriptionId,
		paymentMethodId: value,
	}),
	startsAt: ({ resource, value }) =>
		resource === 'subscriptionUpgrade'
			? upgrade({ startsAt: value })
			: upgrade({ resource, startsAt: value, contractLength: 12, billingFrequency: 'MONTHLY' }),
	'invoiceDates.dueAt': ({ value }) => milestone({ dueAt: value }),
	'invoiceDates.issuedAt': ({ value }) => milestone({ issuedAt: value }),
	'invoiceDates.serviceDate': ({ value }) => milestone({ serviceDate: value }),
	invoiceNumbersJson: ({ value }) => ({
		resource: 'invoice',
		operation: 'search',
		customerId: sandbox.fixtures.customerId,
		invoiceNumbersInput: 'json',
		invoiceNumbersJson: value,
	}),
	invoiceIdsJson: ({ value }) => ({
		resource: 'invoice',
		operation: 'search',
		customerId: sandbox.fixtures.customerId,
		invoiceIdsInput: 'json',
		invoiceIdsJson: value,
	}),
	bricksJson: ({ value }) => upgrade({ bricksInput: 'json', bricksJson: value }),
	discountCouponsJson: ({ value }) =>
		upgrade({ discountCouponsInput: 'json', discountCouponsJson: value }),
	metadataJson: ({ value }) => upgrade({ metadataInput: 'json', metadataJson: value }),
	propertiesJson: ({ value }) => ({
		resource: 'usage',
		operation: 'update',
		transactionId: sandbox.fixtures.usageTransactionId,
		value: 1,
		propertiesInput: 'json',
		propertiesJson: value,
	}),
	quantity: ({ value }) => ({ ...milestone({}), quantity: Number(value) }),
	contractLength: ({ value }) =>
		upgrade({
			resource: 'subscriptionRecast',
			contractLength: Number(value),
			billingFrequency: 'MONTHLY',
		}),
	'bricksUi.brick.quantity': ({ resource, value }) =>
		upgrade({
			resource,
			contractLength: 12,
			billingFrequency: 'MONTHLY',
			bricksUi: { brick: [{ brickId: sandbox.fixtures.addOnBrickId, quantity: Number(value) }] },
		}),
	value: ({ operation, value }) => ({
		resource: 'usage',
		operation,
		transactionId:
			operation === 'create' ? 'txn-example-value' : sandbox.fixtures.usageTransactionId,
		...(operation === 'create' && {
			subscriptionId: sandbox.fixtures.subscriptionId,
			brickId: sandbox.fixtures.usageBrickId,
			time: '2026-09-10T10:00:00Z',
		}),
		value: Number(value),
	}),
	'faultHandling.idempotencyKey': ({ value }) => ({
		resource: 'customer',
		operation: 'create',
		name: 'Example Key Ltd',
		faultHandling: { idempotency: 'custom', idempotencyKey: value },
	}),
};

function milestone(invoiceDates: INodeParameters): INodeParameters {
	return {
		resource: 'subscriptionMilestone',
		operation: 'complete',
		subscriptionId: sandbox.fixtures.subscriptionId,
		milestoneId: sandbox.fixtures.milestoneId,
		quantity: 1,
		billOn: 'IMMEDIATELY',
		invoiceDates,
	};
}

const examples = collect(new SubscriptionBilling().description.properties);
const distinct = [
	...new Map(
		examples.map((example) => [`${example.path} ${example.resource} ${example.value}`, example]),
	).values(),
];

test('the description shows examples, and every one has a run below', () => {
	expect(distinct.length).toBeGreaterThan(25);
	expect(
		distinct
			.filter((example) => !runs[example.path])
			.map((example) => `${example.path}: ${example.value}`),
	).toEqual([]);
});

test.each(
	distinct.map(
		(example) =>
			[`${example.resource}/${example.operation} ${example.path}`, example.value, example] as const,
	),
)('%s: %s is accepted and sent', async (_where, _value, example) => {
	const parameters = runs[example.path](example);
	const run = await runBilling(sandbox, parameters);
	// The node's input errors say "Nothing was sent"; an API answer (a 404 for an example ID) is fine.
	expect(run.error?.description ?? '').not.toMatch(/Nothing was sent/);
	expect(sandbox.requests.length).toBeGreaterThan(0);
});

test("the credential's base URL placeholders are addresses the node accepts", () => {
	const node = {
		id: 'n',
		name: 'Subscription Billing',
		type: 'subscriptionBilling',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: {},
	};
	const placeholders = new SubscriptionBillingApi().properties
		.filter((property) => /BaseUrl$/.test(property.name))
		.map((property) => property.placeholder);
	expect(placeholders).toHaveLength(2);
	for (const placeholder of placeholders)
		expect(
			checkedBaseUrl(node, exampleIn(placeholder as string, 'placeholder') as string, 0).protocol,
		).toBe('https:');
});
