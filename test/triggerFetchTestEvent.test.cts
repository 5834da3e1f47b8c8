/**
 * Fetch Test Event at an account larger than it looks at: a bounded number of requests whatever the
 * number of customers (issue 44: it once read every customer's invoices, 9,900 requests at 10,000
 * customers), and an item that says what it looked at when it found nothing.
 */
import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from './helpers/billing.cjs';
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
