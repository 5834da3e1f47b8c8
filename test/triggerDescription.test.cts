/**
 * The trigger as the editor shows it: the canvas subtitle (evaluated by n8n's expression engine the
 * way the editor evaluates it), the parameters a node added fresh from the panel shows and stores
 * in each version, and the cost said for every event.
 */
import { NodeHelpers, Workflow, type INode, type INodeParameters, type INodeProperties } from 'n8n-workflow';
import { SubscriptionBillingTrigger } from '../nodes/SubscriptionBilling/SubscriptionBillingTrigger.node';
import { CUSTOMER_LIST_EVENTS, INVOICE_FAMILY_EVENTS } from '../nodes/SubscriptionBilling/trigger/events/types';
import { HarnessNodeTypes } from './harness/node-types.cjs';
import { ensureN8nCoreEnvironment } from './harness/environment.cjs';

const trigger = new SubscriptionBillingTrigger();
const { description } = trigger;

function node(typeVersion: number, parameters: INodeParameters): INode {
	return { id: 't', name: 'Subscription Billing Trigger', type: description.name, typeVersion, position: [0, 0], parameters };
}

/** What the editor stores for a node added fresh from the panel, then with `set` changed. */
function stored(typeVersion: number, set: INodeParameters = {}): INodeParameters {
	return NodeHelpers.getNodeParameters(description.properties, set, true, false, node(typeVersion, set), description) ?? {};
}

function shown(typeVersion: number, set: INodeParameters): string[] {
	const values = stored(typeVersion, set);
	return description.properties.filter((property: INodeProperties) => NodeHelpers.displayParameter(values, property, node(typeVersion, values), description)).map((property) => property.name);
}

function subtitle(typeVersion: number, set: INodeParameters): unknown {
	ensureN8nCoreEnvironment();
	const parameters = stored(typeVersion, set);
	const workflow = new Workflow({ nodes: [node(typeVersion, parameters)], connections: {}, active: false, nodeTypes: new HarnessNodeTypes([trigger]) });
	return workflow.expression.getSimpleParameterValue(node(typeVersion, parameters), description.subtitle, 'internal', {});
}

describe('canvas subtitle: the names the editor shows, not internal values', () => {
	test.each([
		[1, {}, 'Invoice Paid'],
		[1, { event: 'subscriptionStatusChanged' }, 'Subscription Status Changed'],
		[2, { events: ['invoicePaymentFailed', 'subscriptionEndingSoon'] }, 'Invoice Payment Failed, Subscription Ending Soon'],
		[2, {}, 'No event chosen'],
	])('version %s, %j: %s', (typeVersion, set, expected) => {
		expect(subtitle(typeVersion, set as INodeParameters)).toBe(expected);
	});
});

describe('added fresh from the panel', () => {
	test('version 2 is what the panel adds; it asks for Events and watches All Customers, saying the cost', () => {
		expect(description.version).toEqual([1, 2]);
		expect(stored(2)).toMatchObject({ events: [] });
		expect(stored(2, { events: ['invoicePaid'] })).toMatchObject({ scope: 'all' });
		expect(shown(2, { events: ['invoicePaid'] })).toEqual(['firstPollNotice', 'events', 'scope', 'lookBackDays', 'requestsPerPoll', 'allCustomersNotice']);
		expect(shown(1, {})).toEqual(['firstPollNotice', 'event', 'scope', 'customerId', 'customerNeededNotice', 'lookBackDays', 'oneCustomerNotice']);
	});

	test('One Customer without a customer: a notice says why Fetch Test Event and activation are unavailable, until one is chosen', () => {
		const empty = { events: ['newInvoice'], scope: 'customer', customerId: { __rl: true, mode: 'list', value: '' } };
		expect(shown(2, empty)).toEqual(['firstPollNotice', 'events', 'scope', 'customerId', 'customerNeededNotice', 'lookBackDays', 'oneCustomerNotice']);
		const notice = description.properties.find((property) => property.name === 'customerNeededNotice')!;
		expect(notice.displayName).toMatch(/until then n8n cannot run Fetch Test Event or activate the workflow/);
		expect(shown(2, { ...empty, customerId: { __rl: true, mode: 'list', value: 'abc' } })).not.toContain('customerNeededNotice');
		expect(shown(1, { event: 'newInvoice' })).toContain('customerNeededNotice');
	});

	test('version 1 keeps its single Event, its options and its One Customer default (saved workflows omit defaults)', () => {
		expect(stored(1)).toMatchObject({ event: 'invoicePaid', scope: 'customer' });
		expect(stored(1)).not.toHaveProperty('events');
		const eventParameter = description.properties.find((property) => property.name === 'event')!;
		expect(eventParameter.options?.map((option) => (option as { value: string }).value)).toEqual(['invoiceOverdue', 'invoicePaid', 'newCustomer', 'newInvoice', 'newSubscription', 'subscriptionStatusChanged']);
	});

	test('the settings of each event appear when it is selected', () => {
		expect(shown(2, { events: ['subscriptionStatusChanged'] })).toContain('statuses');
		expect(shown(2, { events: ['subscriptionEndingSoon'] })).toContain('endingSoonDays');
		expect(shown(2, { events: ['subscriptionRenewalDue'] })).toEqual(expect.arrayContaining(['renewalDueDays', 'renewalCostNotice']));
		expect(shown(2, { events: ['subscriptionUpdated'] })).toContain('subscriptionDetails');
		expect(shown(2, { events: ['newCustomer'] })).toEqual(['firstPollNotice', 'events']);
		expect(stored(2, { events: ['subscriptionEndingSoon', 'subscriptionRenewalDue'] })).toMatchObject({ endingSoonDays: 30, renewalDueDays: 30 });
	});

	test('Subscription Reads Per Poll appears once whenever subscriptions are read, and only then', () => {
		const count = (set: INodeParameters) => shown(2, set).filter((name) => name === 'subscriptionReadsPerPoll').length;
		expect(count({ events: ['subscriptionRenewalDue'] })).toBe(1);
		expect(count({ events: ['subscriptionUpdated'] })).toBe(0);
		expect(count({ events: ['subscriptionUpdated'], subscriptionDetails: true })).toBe(1);
		expect(count({ events: ['subscriptionUpdated', 'subscriptionRenewalDue'], subscriptionDetails: true })).toBe(1);
		expect(count({ events: ['subscriptionEndingSoon', 'invoicePaid'] })).toBe(0);
		expect(stored(2, { events: ['subscriptionRenewalDue'] })).toMatchObject({ subscriptionReadsPerPoll: 1000 });
		expect(stored(2, { events: ['subscriptionUpdated'], subscriptionDetails: true })).toMatchObject({ subscriptionReadsPerPoll: 1000 });
	});

	test('Only Changes To says that none chosen means every change', () => {
		const statuses = description.properties.find((property) => property.name === 'statuses')!;
		expect(statuses.hint).toBe('None chosen: every status change is emitted');
	});
});

test("the nodes panel lists every event as a trigger of version 2 (it reads the first 'event' or 'events' parameter)", () => {
	const first = description.properties.find((property) => ['event', 'events'].includes(property.name.toLowerCase()))!;
	expect(first.name).toBe('events');
	expect(first.type).toBe('multiOptions');
	expect(first.options).toHaveLength(CUSTOMER_LIST_EVENTS.length + INVOICE_FAMILY_EVENTS.length);
});

test('every event is offered in version 2 with its cost per poll', () => {
	const events = description.properties.find((property) => property.name === 'events')!;
	const options = events.options as Array<{ value: string; description: string }>;
	expect(options.map((option) => option.value).sort()).toEqual([...CUSTOMER_LIST_EVENTS, ...INVOICE_FAMILY_EVENTS].sort());
	for (const option of options) expect(option.description).toMatch(/ Cost: .*request/);
});
