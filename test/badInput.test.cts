/**
 * Bad input never reaches the API: every case is refused before any request, with a message that
 * names the field, the value's problem and the item index. Values that n8n's editor would block
 * (an empty required field) are given through expressions, as a workflow mapping them would.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runBilling, useSandbox } from './helpers/billing.cjs';

const sandbox = useSandbox();

const UUID = '0b6c1b7e-2f1a-4c55-9d2e-0a1b2c3d4e5f';
const ID_RULE = 'is not an ID (an ID has only letters, digits and hyphens)';
const UUID_RULE = 'is not a UUID such as 0b6c1b7e-2f1a-4c55-9d2e-0a1b2c3d4e5f';
/** After a wrong ID: where the right one is found. */
const FIND = {
	Subscription:
		". Give the subscription_id from Customer → Search or Customer → Get (a customer's active_subscription_ids) or from an invoice",
	Customer:
		'. Give the customer_id from Customer → Search (by name or your own External ID) or Customer → Get Many',
	'Order ID':
		'. Give the order_id from Subscription Upgrade → Get Many (an upgrade) or Subscription Recast → Get Many (a recast)',
	Plan: '. Give the plan_id from Plan → Get Many',
	'Milestone ID': '. Give the milestone_id from Subscription Milestone → Get Many',
};
const NOT_HTTP_URL = 'is not an absolute http(s) URL';
const NOT_DATE = 'is not a date in the form YYYY-MM-DD, such as 2026-01-31';
const NOT_DATE_TIME = 'is not an ISO 8601 date-time with a time zone, such as 2026-01-31T12:00:00Z';
const SPLIT_OUT =
	'To run once per ID, turn the list into one item per ID first: a Split Out node on the field that holds the list (such as active_subscription_ids), then map the ID of each item here';
const long = (length: number) => `={{ "x".repeat(${length}) }}`;

// Valid parameters of each operation used below; each case replaces one of them with a bad value.
// Ids that are checked before sending need no real record: nothing is sent.
const sid = 'sub-1';
const base = {
	subscriptionGet: { resource: 'subscription', operation: 'get', subscriptionId: sid },
	signUrl: {
		resource: 'subscription',
		operation: 'getSignUrl',
		subscriptionId: sid,
		redirectUrl: 'https://example.com/done',
	},
	upgradeSignUrl: {
		resource: 'subscriptionUpgrade',
		operation: 'getSignUrl',
		subscriptionId: sid,
		orderId: UUID,
		redirectUrl: 'https://example.com/done',
	},
	customerInvoices: {
		resource: 'invoice',
		operation: 'getManyForCustomer',
		customerId: 'cus-1',
		returnAll: false,
		limit: 10,
	},
	invoiceSearch: { resource: 'invoice', operation: 'search', customerId: 'cus-1' },
	customerCreate: { resource: 'customer', operation: 'create', name: 'Acme' },
	customerUpdate: {
		resource: 'customer',
		operation: 'update',
		customerId: 'cus-1',
		updateFields: { name: 'Acme' },
	},
	customerSearch: {
		resource: 'customer',
		operation: 'search',
		searchFields: { name: 'Acme' },
		returnAll: false,
		limit: 10,
	},
	recastDelete: {
		resource: 'subscriptionRecast',
		operation: 'delete',
		subscriptionId: sid,
		orderId: UUID,
	},
	planGet: { resource: 'plan', operation: 'get', planId: 'plan-1' },
	milestoneComplete: {
		resource: 'subscriptionMilestone',
		operation: 'complete',
		subscriptionId: sid,
		milestoneId: 'ms-1',
		quantity: 1,
		billOn: 'IMMEDIATELY',
	},
	usageCreate: {
		resource: 'usage',
		operation: 'create',
		transactionId: 'txn-1',
		subscriptionId: sid,
		brickId: UUID,
		value: 3,
		time: '2026-09-10T10:00:00Z',
	},
	usageUpdate: { resource: 'usage', operation: 'update', transactionId: 'txn-1', value: 3 },
	upgradeCreate: {
		resource: 'subscriptionUpgrade',
		operation: 'create',
		subscriptionId: sid,
		startsAt: '2026-10-01',
		bricksInput: 'json',
		bricksJson: `[{"brick_id": "${UUID}", "quantity": 1}]`,
	},
	recastCreate: {
		resource: 'subscriptionRecast',
		operation: 'create',
		subscriptionId: sid,
		startsAt: '2026-10-01',
		contractLength: 12,
		billingFrequency: 'MONTHLY',
		bricksInput: 'json',
		bricksJson: `[{"brick_id": "${UUID}", "quantity": 1}]`,
	},
} satisfies Record<string, INodeParameters>;

interface Case {
	parameters: INodeParameters;
	message: string | RegExp;
	/** Input items (default one empty item). */
	items?: IDataObject[];
	/** The error's description, when not the one of a single item. */
	description?: string;
}

const cases: Record<string, Case> = {
	// Ids in the path: the contract's patterns, and anything that would change the path.
	"a list of two subscription IDs mapped into Subscription (a customer's active_subscription_ids)":
		{
			parameters: {
				...base.subscriptionGet,
				subscriptionId: '={{ $json.active_subscription_ids }}',
			},
			items: [{ active_subscription_ids: ['sub-1', 'sub-2'] }],
			message: `Subscription in item 0: received a list of 2 IDs ("sub-1", "sub-2"), and it takes one ID. ${SPLIT_OUT}`,
		},
	'a list of one customer ID mapped into Customer (Customer → Get)': {
		parameters: {
			resource: 'customer',
			operation: 'get',
			customerId: { __rl: true, mode: 'id', value: '={{ $json.ids }}' },
		},
		items: [{ ids: ['cus-1'] }],
		message: `Customer in item 0: received a list of 1 ID ("cus-1"), and it takes one ID. ${SPLIT_OUT}`,
	},
	"a list of subscription IDs mapped into a usage entry's Subscription": {
		parameters: { ...base.usageCreate, subscriptionId: '={{ $json.ids }}' },
		items: [{ ids: ['sub-1', 'sub-2', 'sub-3', 'sub-4'] }],
		message: `Subscription in item 0: received a list of 4 IDs ("sub-1", "sub-2", "sub-3", …), and it takes one ID. ${SPLIT_OUT}`,
	},
	'empty subscription ID': {
		parameters: { ...base.subscriptionGet, subscriptionId: '={{ "" }}' },
		message: `Subscription in item 0: is empty${FIND.Subscription}`,
	},
	'blank subscription ID': {
		parameters: { ...base.subscriptionGet, subscriptionId: '={{ "   " }}' },
		message: `Subscription in item 0: is empty${FIND.Subscription}`,
	},
	'subscription ID with ../': {
		parameters: { ...base.subscriptionGet, subscriptionId: '../customers' },
		message: `Subscription in item 0: "../customers" ${ID_RULE}${FIND.Subscription}`,
	},
	'subscription ID ..': {
		parameters: { ...base.subscriptionGet, subscriptionId: '..' },
		message: `Subscription in item 0: ".." ${ID_RULE}${FIND.Subscription}`,
	},
	'subscription ID with /': {
		parameters: { ...base.subscriptionGet, subscriptionId: 'sub/invoices' },
		message: `Subscription in item 0: "sub/invoices" ${ID_RULE}${FIND.Subscription}`,
	},
	'subscription ID with ?': {
		parameters: { ...base.subscriptionGet, subscriptionId: 'sub?limit=1' },
		message: `Subscription in item 0: "sub?limit=1" ${ID_RULE}${FIND.Subscription}`,
	},
	'subscription ID with #': {
		parameters: { ...base.subscriptionGet, subscriptionId: 'sub#x' },
		message: `Subscription in item 0: "sub#x" ${ID_RULE}${FIND.Subscription}`,
	},
	'subscription ID with %2F': {
		parameters: { ...base.subscriptionGet, subscriptionId: 'a%2Fb' },
		message: `Subscription in item 0: "a%2Fb" ${ID_RULE}${FIND.Subscription}`,
	},
	'subscription ID with a space': {
		parameters: { ...base.subscriptionGet, subscriptionId: 'sub 1' },
		message: `Subscription in item 0: "sub 1" ${ID_RULE}${FIND.Subscription}`,
	},
	'subscription ID with a newline': {
		parameters: { ...base.subscriptionGet, subscriptionId: '={{ "sub\\n1" }}' },
		message: `Subscription in item 0: "sub\n1" ${ID_RULE}${FIND.Subscription}`,
	},
	'customer ID with ../ (invoice list)': {
		parameters: { ...base.customerInvoices, customerId: '../../plans' },
		message: `Customer in item 0: "../../plans" ${ID_RULE}${FIND.Customer}`,
	},
	'empty customer ID (customer update)': {
		parameters: { ...base.customerUpdate, customerId: '={{ "" }}' },
		message: `Customer in item 0: is empty${FIND.Customer}`,
	},
	'customer ID with / (customer update)': {
		parameters: { ...base.customerUpdate, customerId: 'cus/1' },
		message: `Customer in item 0: "cus/1" ${ID_RULE}${FIND.Customer}`,
	},
	'order ID that is not a UUID': {
		parameters: { ...base.recastDelete, orderId: 'order-1' },
		message: `Order ID in item 0: "order-1" ${UUID_RULE}${FIND['Order ID']}`,
	},
	'order ID with ../': {
		parameters: { ...base.recastDelete, orderId: `../${UUID}` },
		message: `Order ID in item 0: "../${UUID}" ${UUID_RULE}${FIND['Order ID']}`,
	},
	'plan ID with ?': {
		parameters: { ...base.planGet, planId: 'plan?x' },
		message: `Plan in item 0: "plan?x" ${ID_RULE}${FIND.Plan}`,
	},
	'milestone ID with %2F': {
		parameters: { ...base.milestoneComplete, milestoneId: 'ms%2F1' },
		message: `Milestone ID in item 0: "ms%2F1" ${ID_RULE}${FIND['Milestone ID']}`,
	},
	// Ids in a body follow the same patterns.
	'subscription ID in a usage body with a space': {
		parameters: { ...base.usageCreate, subscriptionId: 'sub 1' },
		message: `Subscription in item 0: "sub 1" ${ID_RULE}${FIND.Subscription}`,
	},
	'customer ID in an invoice search body with /': {
		parameters: { ...base.invoiceSearch, customerId: 'cus/1' },
		message: `Customer in item 0: "cus/1" ${ID_RULE}${FIND.Customer}`,
	},
	'empty customer ID in an invoice search body': {
		parameters: { ...base.invoiceSearch, customerId: '={{ "" }}' },
		message: 'Customer in item 0: is required',
	},
	'invoice ID that is not a UUID': {
		parameters: {
			...base.invoiceSearch,
			invoiceIdsInput: 'fields',
			invoiceIdsUi: { entry: [{ value: 'INV-1' }] },
		},
		message: `Invoice IDs in item 0: entry 1, "INV-1", ${UUID_RULE}`,
	},
	// Lengths and required fields.
	'external ID of 256 characters (create)': {
		parameters: { ...base.customerCreate, additionalFields: { externalId: long(256) } },
		message: 'External ID in item 0: is 256 characters long, at most 255 are allowed',
	},
	'processor customer ID of 256 characters (create)': {
		parameters: { ...base.customerCreate, additionalFields: { processorCustomerId: long(256) } },
		message: 'Processor Customer ID in item 0: is 256 characters long, at most 255 are allowed',
	},
	'external ID of 300 characters (update)': {
		parameters: { ...base.customerUpdate, updateFields: { externalId: long(300) } },
		message: 'External ID in item 0: is 300 characters long, at most 255 are allowed',
	},
	'processor customer ID of 256 characters (search)': {
		parameters: { ...base.customerSearch, searchFields: { processorCustomerId: long(256) } },
		message: 'Processor Customer ID in item 0: is 256 characters long, at most 255 are allowed',
	},
	'empty customer name': {
		parameters: { ...base.customerCreate, name: '={{ "" }}' },
		message: 'Name in item 0: is required',
	},
	'search with no search field': {
		parameters: { ...base.customerSearch, searchFields: {} },
		message:
			'Search Fields in item 0: give at least one of External ID, Name, Processor Customer ID',
	},
	'search whose only field is empty': {
		parameters: { ...base.customerSearch, searchFields: { name: '={{ "" }}' } },
		message:
			'Search Fields in item 0: give at least one of External ID, Name, Processor Customer ID',
	},
	'update with no field': {
		parameters: { ...base.customerUpdate, updateFields: {} },
		message:
			'Update Fields in item 0: give at least one of Name, Legal Name, External ID, Processor Customer ID, Tax ID, Address',
	},
	'empty transaction ID': {
		parameters: { ...base.usageUpdate, transactionId: '={{ "" }}' },
		message: 'Transaction ID in item 0: is required',
	},
	// JSON fields.
	'usage properties that are not JSON': {
		parameters: { ...base.usageCreate, propertiesInput: 'json', propertiesJson: '{"region": eu}' },
		message: /^Properties \(JSON\) in item 0: is not valid JSON \(.+\)$/,
	},
	'usage properties that are a JSON list': {
		parameters: { ...base.usageUpdate, propertiesInput: 'json', propertiesJson: '["eu"]' },
		message: 'Properties (JSON) in item 0: must be a JSON object',
	},
	'bricks that are not JSON': {
		parameters: { ...base.recastCreate, bricksJson: `[{"brick_id": "${UUID}", }]` },
		message: /^Bricks \(JSON\) in item 0: is not valid JSON \(.+\)$/,
	},
	'bricks that are a JSON object': {
		parameters: { ...base.upgradeCreate, bricksJson: '{}' },
		message: 'Bricks (JSON) in item 0: must be a JSON array',
	},
	'a brick without quantity': {
		parameters: { ...base.upgradeCreate, bricksJson: `[{"brick_id": "${UUID}"}]` },
		message: 'Bricks in item 0: entry 1 has no Quantity, which is required',
	},
	'a brick with a field the API does not take (copied from Plan → Get)': {
		parameters: {
			...base.upgradeCreate,
			bricksJson: `[{"brick_id": "${UUID}", "quantity": 1, "brick_name": "Seats"}]`,
		},
		message:
			'Bricks in item 0: entry 1 has "brick_name", which is not one of its fields (brick_id, quantity, discount)',
	},
	'a discount with a field the API does not take': {
		parameters: {
			...base.recastCreate,
			bricksJson: `[{"brick_id": "${UUID}", "quantity": 1}, {"brick_id": "${UUID}", "quantity": 2, "discount": {"rate": "10", "amount": 5}}]`,
		},
		message:
			'Bricks in item 0: the discount of entry 2 has "amount", which is not one of its fields (rate, renews)',
	},
	'no bricks at all': {
		parameters: { ...base.upgradeCreate, bricksInput: 'fields', bricksUi: {} },
		message: 'Bricks in item 0: give at least one brick',
	},
	'metadata that is not JSON': {
		parameters: { ...base.upgradeCreate, metadataInput: 'json', metadataJson: '{"source": ' },
		message: /^Metadata \(JSON\) in item 0: is not valid JSON \(.+\)$/,
	},
	'metadata row without a key': {
		parameters: {
			...base.recastCreate,
			metadataInput: 'fields',
			metadataUi: { pair: [{ key: '', value: 'x' }] },
		},
		message: 'Metadata in item 0: row 1 has no key: give each pair a key, or remove the row',
	},
	// Numbers.
	'usage value that is not a number': {
		parameters: { ...base.usageUpdate, value: '={{ "abc" }}' },
		message: 'Value in item 0: "abc" is not a number',
	},
	'usage value that is not a whole number (create)': {
		parameters: { ...base.usageCreate, value: '={{ 1.5 }}' },
		message: 'Value in item 0: "1.5" is not a whole number',
	},
	'milestone quantity that is text': {
		parameters: { ...base.milestoneComplete, quantity: '={{ "two" }}' },
		message: 'Quantity in item 0: "two" is not a whole number',
	},
	'contract length that is text': {
		parameters: { ...base.recastCreate, contractLength: '={{ "twelve" }}' },
		message: 'Contract Length (Months) in item 0: "twelve" is not a whole number',
	},
	'adjustment credit that is text': {
		parameters: { ...base.recastCreate, additionalFields: { adjustmentCredit: '={{ "ten" }}' } },
		message: 'Adjustment Credit in item 0: "ten" is not a number',
	},
	'limit that is text': {
		parameters: { ...base.customerInvoices, limit: '={{ "abc" }}' },
		message: 'Limit in item 0: "abc" is not a whole number of at least 1',
	},
	'limit of 0': {
		parameters: { ...base.customerInvoices, limit: '={{ 0 }}' },
		message: 'Limit in item 0: "0" is not a whole number of at least 1',
	},
	'max retries of 11': {
		parameters: { ...base.subscriptionGet, faultHandling: { maxRetries: '={{ 11 }}' } },
		message: 'Max Retries in item 0: "11" is not a whole number from 0 to 10',
	},
	'negative retry delay': {
		parameters: { ...base.subscriptionGet, faultHandling: { retryDelay: '={{ -1 }}' } },
		message:
			'Retry Delay (Milliseconds) in item 0: "-1" is not a number of milliseconds of at least 0',
	},
	'request timeout of 0': {
		parameters: { ...base.subscriptionGet, requestOptions: { timeout: '={{ 0 }}' } },
		message: 'Timeout in item 0: "0" is not a number of milliseconds of at least 1',
	},
	'request timeout that is text': {
		parameters: { ...base.usageCreate, requestOptions: { timeout: '={{ "abc" }}' } },
		message: 'Timeout in item 0: "abc" is not a number of milliseconds of at least 1',
	},
	'items per batch that is not whole': {
		parameters: {
			...base.usageCreate,
			requestOptions: { batching: { batch: { batchSize: '={{ 1.5 }}', batchInterval: 10 } } },
		},
		message: 'Items per Batch in item 0: "1.5" is not a whole number of at least -1',
	},
	'negative batch interval': {
		parameters: {
			...base.subscriptionGet,
			requestOptions: { batching: { batch: { batchSize: 1, batchInterval: '={{ -5 }}' } } },
		},
		message: 'Batch Interval (ms) in item 0: "-5" is not a number of milliseconds of at least 0',
	},
	// Dates and date-times.
	'start date with slashes': {
		parameters: { ...base.upgradeCreate, startsAt: '2026/10/01' },
		message: `Starts At in item 0: "2026/10/01" ${NOT_DATE}`,
	},
	'start date day first': {
		parameters: { ...base.recastCreate, startsAt: '01-10-2026' },
		message: `Starts At in item 0: "01-10-2026" ${NOT_DATE}`,
	},
	'start date that does not exist': {
		parameters: { ...base.upgradeCreate, startsAt: '2026-02-30' },
		message:
			'Starts At in item 0: "2026-02-30" is not a real calendar date: February 2026 has 28 days',
	},
	'milestone due date with month 13': {
		parameters: { ...base.milestoneComplete, invoiceDates: { dueAt: '2026-13-01' } },
		message: 'Due At in item 0: "2026-13-01" is not a real calendar date: there is no month 13',
	},
	'usage time on a day that does not exist': {
		parameters: { ...base.usageCreate, time: '2026-04-31T10:00:00Z' },
		message:
			'Time in item 0: "2026-04-31T10:00:00Z" is not a real date-time: April 2026 has 30 days',
	},
	'usage time at an hour that does not exist': {
		parameters: { ...base.usageCreate, time: '2026-04-30T25:00:00Z' },
		message:
			'Time in item 0: "2026-04-30T25:00:00Z" is not a real date-time: its time of day does not exist',
	},
	'empty invoice number entry': {
		parameters: {
			...base.invoiceSearch,
			invoiceNumbersInput: 'fields',
			invoiceNumbersUi: { entry: [{ value: '' }] },
		},
		message:
			'Invoice Numbers in item 0: entry 1 is empty: give its Invoice Number or remove the entry',
	},
	'invoice number entry that is not text': {
		parameters: {
			...base.invoiceSearch,
			invoiceNumbersInput: 'json',
			invoiceNumbersJson: '[{"number": 1}]',
		},
		message: 'Invoice Numbers in item 0: entry 1 is an object, not text',
	},
	'a brick that is not an object': {
		parameters: { ...base.upgradeCreate, bricksJson: '["seats"]' },
		message:
			'Bricks in item 0: entry 1, "seats", is not a JSON object such as {"brick_id": "…", "quantity": 1}',
	},
	'usage time without a time': {
		parameters: { ...base.usageCreate, time: '2026-09-10' },
		message: `Time in item 0: "2026-09-10" ${NOT_DATE_TIME}`,
	},
	'usage time without a time zone': {
		parameters: { ...base.usageCreate, time: '2026-09-10T10:00:00' },
		message: `Time in item 0: "2026-09-10T10:00:00" ${NOT_DATE_TIME}`,
	},
	// Redirect URLs.
	'redirect URL without a scheme': {
		parameters: { ...base.signUrl, redirectUrl: 'example.com/done' },
		message: `Redirect URL in item 0: "example.com/done" ${NOT_HTTP_URL}`,
	},
	'relative redirect URL': {
		parameters: { ...base.signUrl, redirectUrl: '/done' },
		message: `Redirect URL in item 0: "/done" ${NOT_HTTP_URL}`,
	},
	'javascript: redirect URL': {
		parameters: { ...base.signUrl, redirectUrl: 'javascript:alert(1)' },
		message: `Redirect URL in item 0: "javascript:alert(1)" ${NOT_HTTP_URL}`,
	},
	'ftp redirect URL': {
		parameters: { ...base.upgradeSignUrl, redirectUrl: 'ftp://example.com/done' },
		message: `Redirect URL in item 0: "ftp://example.com/done" ${NOT_HTTP_URL}`,
	},
	'empty redirect URL': {
		parameters: { ...base.upgradeSignUrl, redirectUrl: '={{ "" }}' },
		message: 'Redirect URL in item 0: is required',
	},
	// Fault handling options of writes.
	'custom idempotency key left empty': {
		parameters: {
			...base.usageUpdate,
			faultHandling: { idempotency: 'custom', idempotencyKey: '={{ "" }}' },
		},
		message: 'Idempotency Key in item 0: is empty',
	},
	'custom idempotency key of 256 characters': {
		parameters: {
			...base.customerCreate,
			faultHandling: { idempotency: 'custom', idempotencyKey: long(256) },
		},
		message: 'Idempotency Key in item 0: is 256 characters long, at most 255 are allowed',
	},
	// The item index is the index of the bad item; the good items are not sent either (execute/runGate.ts).
	'bad ID in the third item': {
		parameters: { ...base.subscriptionGet, subscriptionId: '={{ $json.id }}' },
		items: [
			{ id: 'FIXTURE:subscriptionId' },
			{ id: 'FIXTURE:noPhasesSubscriptionId' },
			{ id: '../../customers' },
		],
		message: `Subscription in item 2: "../../customers" ${ID_RULE}${FIND.Subscription}`,
		description:
			'Nothing was sent to the API for any of the 3 items: every item is checked before the first request. Correct the value and run again.',
	},
	'bad value in the second item': {
		parameters: {
			...base.usageUpdate,
			transactionId: '={{ $json.txn }}',
			value: '={{ $json.value }}',
		},
		items: [
			{ txn: 'FIXTURE:usageTransactionId', value: 5 },
			{ txn: 'FIXTURE:usageTransactionId', value: 'five' },
		],
		message: 'Value in item 1: "five" is not a number',
		description:
			'Nothing was sent to the API for any of the 2 items: every item is checked before the first request. Correct the value and run again.',
	},
};

test('the table holds at least 40 cases', () => {
	expect(Object.keys(cases).length).toBeGreaterThanOrEqual(40);
});

test.each(Object.entries(cases))(
	'%s: refused before sending, naming field, problem and item',
	async (_name, testCase) => {
		const fixture = (value: unknown) =>
			typeof value === 'string' && value.startsWith('FIXTURE:')
				? String(sandbox.fixtures[value.slice(8) as keyof typeof sandbox.fixtures])
				: value;
		const items = testCase.items?.map(
			(item) =>
				Object.fromEntries(
					Object.entries(item).map(([key, value]) => [key, fixture(value)]),
				) as IDataObject,
		);
		const run = await runBilling(sandbox, testCase.parameters, { items });
		expect(run.items).toHaveLength(0);
		expect(run.error).toBeDefined();
		if (typeof testCase.message === 'string') expect(run.error?.message).toBe(testCase.message);
		else expect(run.error?.message).toMatch(testCase.message);
		expect(run.error?.description).toBe(
			testCase.description ??
				'Nothing was sent to the API for this item. Correct the value and run again.',
		);
		expect(sandbox.requests).toHaveLength(0);
	},
);

test('with Continue On Fail, each bad item is an error item paired with its input, the good ones are sent', async () => {
	const { subscriptionId, noPhasesSubscriptionId } = sandbox.fixtures;
	const run = await runBilling(
		sandbox,
		{ ...base.subscriptionGet, subscriptionId: '={{ $json.id }}' },
		{
			items: [{ id: subscriptionId }, { id: 'a/b' }, { id: '' }, { id: noPhasesSubscriptionId }],
			continueOnFail: true,
		},
	);
	expect(run.error).toBeUndefined();
	expect(run.items.map((item) => item.pairedItem)).toEqual([
		{ item: 0 },
		{ item: 1 },
		{ item: 2 },
		{ item: 3 },
	]);
	expect(run.json[1].error).toMatchObject({
		message: `Subscription in item 1: "a/b" ${ID_RULE}${FIND.Subscription}`,
		code: null,
		status: null,
	});
	expect(run.json[2].error).toMatchObject({
		message: `Subscription in item 2: is empty${FIND.Subscription}`,
	});
	expect([run.json[0].subscription_id, run.json[3].subscription_id]).toEqual([
		subscriptionId,
		noPhasesSubscriptionId,
	]);
	expect(sandbox.requests.map((request) => request.path).sort()).toEqual(
		[
			`/api/v2/subscriptions/${subscriptionId}`,
			`/api/v2/subscriptions/${noPhasesSubscriptionId}`,
		].sort(),
	);
});

test('unambiguous values are converted, not refused: a number as text, an ID as a number', async () => {
	const { usageTransactionId } = sandbox.fixtures;
	const update = await runBilling(sandbox, {
		...base.usageUpdate,
		transactionId: usageTransactionId,
		value: '={{ " 12 " }}',
	});
	expect(update.error).toBeUndefined();
	expect(sandbox.requests[0].body).toMatchObject({ transaction_id: usageTransactionId, value: 12 });
	sandbox.clearRequests();
	const create = await runBilling(sandbox, {
		...base.customerCreate,
		name: 'Numeric Ltd',
		additionalFields: { externalId: '={{ 4711 }}' },
	});
	expect(create.error).toBeUndefined();
	expect(sandbox.requests[0].body).toMatchObject({ name: 'Numeric Ltd', external_id: '4711' });
});
