/**
 * The trigger as the editor shows it: the canvas subtitle (evaluated by n8n's expression engine the
 * way the editor evaluates it), the parameters a node added fresh from the panel shows and stores
 * and the cost said for every event.
 */
import {
	NodeHelpers,
	Workflow,
	type INode,
	type INodeParameters,
	type INodeProperties,
} from 'n8n-workflow';
import { SubscriptionBillingTrigger } from '../nodes/SubscriptionBilling/SubscriptionBillingTrigger.node';
import {
	CUSTOMER_LIST_EVENTS,
	INVOICE_FAMILY_EVENTS,
} from '../nodes/SubscriptionBilling/trigger/events/catalog';
import { HarnessNodeTypes } from './harness/node-types.cjs';
import { ensureN8nCoreEnvironment } from './harness/environment.cjs';

const trigger = new SubscriptionBillingTrigger();
const { description } = trigger;

function node(parameters: INodeParameters): INode {
	return {
		id: 't',
		name: 'Subscription Billing Trigger',
		type: description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
}

/** What the editor stores for a node added fresh from the panel, then with `set` changed. */
function stored(set: INodeParameters = {}): INodeParameters {
	return (
		NodeHelpers.getNodeParameters(
			description.properties,
			set,
			true,
			false,
			node(set),
			description,
		) ?? {}
	);
}

function shown(set: INodeParameters): string[] {
	const values = stored(set);
	return description.properties
		.filter((property: INodeProperties) =>
			NodeHelpers.displayParameter(values, property, node(values), description),
		)
		.map((property) => property.name);
}

function subtitle(set: INodeParameters): unknown {
	ensureN8nCoreEnvironment();
	const parameters = stored(set);
	const workflow = new Workflow({
		nodes: [node(parameters)],
		connections: {},
		active: false,
		nodeTypes: new HarnessNodeTypes([trigger]),
	});
	return workflow.expression.getSimpleParameterValue(
		node(parameters),
		description.subtitle,
		'internal',
		{},
	);
}

describe('canvas subtitle: the names the editor shows, not internal values', () => {
	test.each([
		[{ events: ['subscriptionStatusChanged'] }, 'Subscription Status Changed'],
		[
			{ events: ['invoicePaymentFailed', 'subscriptionEndingSoon'] },
			'Invoice Payment Failed, Subscription Ending Soon',
		],
		[{}, 'No event chosen'],
	])('%j: %s', (set, expected) => {
		expect(subtitle(set as INodeParameters)).toBe(expected);
	});
});

describe('added fresh from the panel', () => {
	test('one version; it asks for Events and watches All Customers, saying the cost', () => {
		expect(description.version).toBe(1);
		expect(stored()).toMatchObject({ events: [] });
		expect(stored({ events: ['invoicePaid'] })).toMatchObject({ scope: 'all' });
		expect(shown({ events: ['invoicePaid'] })).toEqual([
			'firstPollNotice',
			'events',
			'scope',
			'invoicesFrom',
			'lookBackDays',
			'requestsPerPoll',
			'allCustomersNotice',
		]);
	});

	test('the invoice events report from publishing unless a date and time is chosen, which the editor then asks for; customer and subscription events have no such setting', () => {
		expect(stored({ events: ['invoicePaid'] })).toMatchObject({ invoicesFrom: 'publishing' });
		expect(stored({ events: ['invoicePaid'] })).not.toHaveProperty('invoicesFromDate');
		const chosen = { events: ['invoicePaid'], invoicesFrom: 'date' };
		expect(shown(chosen)).toContain('invoicesFromDate');
		expect(stored(chosen)).toMatchObject({ invoicesFromDate: '' });
		expect(
			NodeHelpers.getNodeParametersIssues(description.properties, node(stored(chosen)), description)
				?.parameters,
		).toHaveProperty('invoicesFromDate');
		expect(shown({ events: ['newCustomer', 'subscriptionUpdated'] })).not.toContain('invoicesFrom');
		const from = description.properties.find((property) => property.name === 'invoicesFrom')!;
		expect(from.description).toMatch(
			/^Publishing: .* For New Invoice, Invoice Paid, Invoice Payment Failed and Invoice Overdue only: customer and subscription events start at publishing/,
		);
	});

	test('One Customer without a customer: a notice says why Fetch Test Event and activation are unavailable, until one is chosen', () => {
		const empty = {
			events: ['newInvoice'],
			scope: 'customer',
			customerId: { __rl: true, mode: 'list', value: '' },
		};
		expect(shown(empty)).toEqual([
			'firstPollNotice',
			'events',
			'scope',
			'customerId',
			'customerNeededNotice',
			'invoicesFrom',
			'lookBackDays',
			'oneCustomerNotice',
		]);
		const notice = description.properties.find(
			(property) => property.name === 'customerNeededNotice',
		)!;
		expect(notice.displayName).toMatch(
			/until then n8n cannot run Fetch Test Event or activate the workflow/,
		);
		expect(
			shown({ ...empty, customerId: { __rl: true, mode: 'list', value: 'abc' } }),
		).not.toContain('customerNeededNotice');
	});

	test('the settings of each event appear when it is selected', () => {
		expect(shown({ events: ['subscriptionStatusChanged'] })).toContain('statuses');
		expect(shown({ events: ['subscriptionEndingSoon'] })).toContain('endingSoonDays');
		expect(shown({ events: ['subscriptionRenewalDue'] })).toEqual(
			expect.arrayContaining(['renewalDueDays', 'renewalCostNotice']),
		);
		expect(shown({ events: ['subscriptionUpdated'] })).toContain('subscriptionDetails');
		expect(shown({ events: ['newCustomer'] })).toEqual(['firstPollNotice', 'events']);
		expect(stored({ events: ['subscriptionEndingSoon', 'subscriptionRenewalDue'] })).toMatchObject({
			endingSoonDays: 30,
			renewalDueDays: 30,
		});
	});

	test('Subscription Reads Per Poll appears once whenever subscriptions are read, and only then', () => {
		const count = (set: INodeParameters) =>
			shown(set).filter((name) => name === 'subscriptionReadsPerPoll').length;
		expect(count({ events: ['subscriptionRenewalDue'] })).toBe(1);
		expect(count({ events: ['subscriptionUpdated'] })).toBe(0);
		expect(count({ events: ['subscriptionUpdated'], subscriptionDetails: true })).toBe(1);
		expect(
			count({
				events: ['subscriptionUpdated', 'subscriptionRenewalDue'],
				subscriptionDetails: true,
			}),
		).toBe(1);
		expect(count({ events: ['subscriptionEndingSoon', 'invoicePaid'] })).toBe(0);
		expect(stored({ events: ['subscriptionRenewalDue'] })).toMatchObject({
			subscriptionReadsPerPoll: 1000,
		});
		expect(stored({ events: ['subscriptionUpdated'], subscriptionDetails: true })).toMatchObject({
			subscriptionReadsPerPoll: 1000,
		});
	});

	test('Only Changes To says that none chosen means every change', () => {
		const statuses = description.properties.find((property) => property.name === 'statuses')!;
		expect(statuses.hint).toBe('None chosen: every status change is emitted');
	});
});

test("the nodes panel lists every event as a trigger (it reads the first 'event' or 'events' parameter)", () => {
	const first = description.properties.find((property) =>
		['event', 'events'].includes(property.name.toLowerCase()),
	)!;
	expect(first.name).toBe('events');
	expect(first.type).toBe('multiOptions');
	expect(first.options).toHaveLength(CUSTOMER_LIST_EVENTS.length + INVOICE_FAMILY_EVENTS.length);
});

test('every event is offered with its cost per poll', () => {
	const events = description.properties.find((property) => property.name === 'events')!;
	const options = events.options as Array<{ value: string; description: string }>;
	expect(options.map((option) => option.value).sort()).toEqual(
		[...CUSTOMER_LIST_EVENTS, ...INVOICE_FAMILY_EVENTS].sort(),
	);
	for (const option of options) expect(option.description).toMatch(/ Cost: .*request/);
});
