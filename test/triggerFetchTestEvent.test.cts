/**
 * Fetch Test Event at an account larger than it looks at: a bounded number of requests whatever the
 * number of customers (issue 44: it once read every customer's invoices, 9,900 requests at 10,000
 * customers), and an item that says what it looked at when it found nothing.
 */
import type { IDataObject } from 'n8n-workflow';
import { runBilling, useSandbox } from './helpers/billing.cjs';
import { activeTrigger, apiRequests } from './helpers/trigger.cjs';
import {
	CUSTOMER_LIST_EVENTS,
	INVOICE_FAMILY_EVENTS,
} from '../nodes/SubscriptionBilling/trigger/events/catalog';

const sandbox = useSandbox();
const CUSTOMERS = 1_030;

// (after useSandbox's own beforeEach, which seeds a fresh world for each test)
beforeEach(() => {
	for (let n = (sandbox.state.customers as Map<string, unknown>).size; n < CUSTOMERS; n++)
		sandbox.world.createCustomer({ name: `Customer ${n}` });
	sandbox.clearRequests();
});

const customers = () => [...(sandbox.state.customers as Map<string, unknown>).keys()];

test('every event, All Customers, no failed payment anywhere: the 1,000 customers listed last and the newest invoices of the last 20, in 22 requests; the notice says so', async () => {
	const trigger = activeTrigger(sandbox, {
		events: ['newCustomer', 'invoicePaymentFailed'],
		scope: 'all',
	});
	const manual = await trigger.fetchTestEvent();
	expect(manual.error).toBeUndefined();
	const newest = customers().at(-1);
	expect(manual.items?.map((item) => item.event)).toEqual(['newCustomer', 'invoicePaymentFailed']);
	expect((manual.items![0].customer as IDataObject).customer_id).toBe(newest);
	expect(String(manual.items![1].no_example)).toContain(
		'found no invoice with a failed payment in the newest 100 invoices of each of the 20 customers listed last (of 1,030)',
	);
	const last20 = customers().slice(-20).reverse();
	expect(apiRequests(sandbox)).toEqual([
		'GET /customers?limit=1',
		'GET /customers?offset=30&limit=1000',
		...last20.map((id) => `GET /customers/${id}/invoices?ordering=-issued_at&limit=100`),
	]);
	expect(trigger.nodeStaticData).toEqual({});
});

test('a customer-list event with nothing among the customers looked at says which customers', async () => {
	const trigger = activeTrigger(sandbox, { events: ['subscriptionPaused'] });
	const manual = await trigger.fetchTestEvent();
	expect(manual.items).toEqual([
		{
			event: 'subscriptionPaused',
			no_example: expect.stringContaining(
				'Fetch Test Event found no paused subscription in the 1,000 customers listed last (of 1,030); to see one here,',
			),
		},
	]);
	expect(apiRequests(sandbox)).toEqual([
		'GET /customers?limit=1',
		'GET /customers?offset=30&limit=1000',
	]);
});

test('every event with Compare Detail Fields: at most 43 requests, one item per event', async () => {
	const events = [...CUSTOMER_LIST_EVENTS, ...INVOICE_FAMILY_EVENTS];
	const trigger = activeTrigger(sandbox, { events, scope: 'all', subscriptionDetails: true });
	const manual = await trigger.fetchTestEvent();
	expect(manual.error).toBeUndefined();
	expect(manual.items?.map((item) => item.event)).toEqual(events);
	expect(apiRequests(sandbox).length).toBeLessThanOrEqual(43);
});

describe('a dunning workflow tested in the editor where failed payments are rare (10,000 customers, one failed payment in the middle)', () => {
	const CUSTOMER_GET = {
		resource: 'customer',
		operation: 'get',
		customerId: { __rl: true, mode: 'id', value: '={{ $json.customer_id }}' },
	};
	let failing: string;

	beforeEach(() => {
		for (let n = customers().length; n < 10_000; n++)
			sandbox.world.createCustomer({ name: `Customer ${n}` });
		failing = customers()[6_742];
		const invoice = sandbox.world.issueInvoice({ customer_id: failing, amount: 40 });
		sandbox.world.failPayment({ invoice_id: invoice.invoice_id });
		sandbox.clearRequests();
	});

	test('All Customers finds none among the customers it looks at: its item says so and how to test on a customer who has one; the next step names that item as the cause and sends nothing', async () => {
		const trigger = activeTrigger(sandbox, {
			events: ['invoicePaymentFailed', 'invoicePaid'],
			scope: 'all',
		});
		const manual = await trigger.fetchTestEvent();
		expect(manual.items?.map((item) => Object.keys(item))).toEqual([
			['event', 'no_example'],
			['event', 'no_example'],
		]);
		expect(String(manual.items![0].no_example)).toContain(
			'found no invoice with a failed payment in the newest 100 invoices of each of the 20 customers listed last (of 10,000)',
		);
		expect(String(manual.items![0].no_example)).toContain(
			'To test the steps after the trigger on a customer who has one: set Invoices Of to One Customer, choose that customer and fetch again, pin the item',
		);
		expect(apiRequests(sandbox).length).toBeLessThanOrEqual(22);

		sandbox.clearRequests();
		const next = await runBilling(sandbox, CUSTOMER_GET, { items: manual.items! });
		expect(next.error?.message).toBe(
			`Customer in item 0: is empty: item 0 is not an event but the trigger's note "Invoice Payment Failed: no example to show": Fetch Test Event found none to show, so the item has no IDs. Its no_example says where it looked and how to test this step with a real event (and 1 more invalid: item 1)`,
		);
		expect(next.error?.message).not.toContain('Customer → Search');
		expect(sandbox.requests).toEqual([]);
	});

	test('the way the item gives: One Customer with the customer whose payment failed fetches the real failure, which the next step takes', async () => {
		const trigger = activeTrigger(sandbox, {
			events: ['invoicePaymentFailed'],
			scope: 'customer',
			customerId: { __rl: true, mode: 'id', value: failing },
		});
		const manual = await trigger.fetchTestEvent();
		expect(manual.items).toEqual([
			expect.objectContaining({ event: 'invoicePaymentFailed', customer_id: failing }),
		]);
		expect(apiRequests(sandbox)).toEqual([
			`GET /customers/${failing}/invoices?ordering=-issued_at&limit=100`,
		]);
		// the item pinned on the trigger: the next step's test run takes it
		const next = await runBilling(sandbox, CUSTOMER_GET, { items: manual.items! });
		expect(next.error).toBeUndefined();
		expect(next.json.map((customer) => customer.customer_id)).toEqual([failing]);
	});
});
