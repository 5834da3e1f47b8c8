/**
 * The output panel's hint after Customer → Get ran for many items: its condition evaluated as n8n's
 * editor evaluates it (the node's parameters and its input items), and the run it describes, sent
 * through n8n's engine to the sandbox, costing what the hint says.
 */
import { Workflow, type IDataObject, type INode, type INodeParameters } from 'n8n-workflow';
import { executionHints, MANY_CUSTOMER_LOOKUPS } from '../nodes/SubscriptionBilling/editor';
import { SubscriptionBilling } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { HarnessNodeTypes } from './harness/index.cjs';
import { runBilling, useSandbox } from './helpers/billing.cjs';

const sandbox = useSandbox({ seed: { customers: 2300, bigCustomerInvoices: 5 } });
const [hint] = executionHints;

/** Hints the output panel shows for a node with these parameters after a run on `inputs` items. */
function shownAfterRun(parameters: INodeParameters, inputs: number): string[] {
	const nodeType = new SubscriptionBilling();
	const node: INode = {
		id: 'n',
		name: 'Subscription Billing',
		type: nodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new HarnessNodeTypes([nodeType]),
	});
	const input = Array.from({ length: inputs }, (_, i) => ({ json: { id: `item-${i}` } }));
	return (nodeType.description.hints ?? [])
		.filter(
			(candidate) =>
				workflow.expression.getParameterValue(
					candidate.displayCondition ?? '={{ true }}',
					null,
					0,
					0,
					node.name,
					input,
					'manual',
					{},
				) === true,
		)
		.map((candidate) => candidate.message);
}

const customerGet = {
	resource: 'customer',
	operation: 'get',
	customerId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
};

test('the node declares the hint for the output panel, after a run', () => {
	expect(executionHints).toHaveLength(1);
	expect(hint).toMatchObject({
		location: 'outputPane',
		whenToDisplay: 'afterExecution',
		type: 'info',
	});
});

test.each([
	{
		title: 'Customer → Get on 10 items',
		parameters: customerGet,
		inputs: MANY_CUSTOMER_LOOKUPS,
		shown: true,
	},
	{ title: 'Customer → Get on 50 items', parameters: customerGet, inputs: 50, shown: true },
	{
		title: 'Customer → Get on 9 items',
		parameters: customerGet,
		inputs: MANY_CUSTOMER_LOOKUPS - 1,
		shown: false,
	},
	{ title: 'Customer → Get on one item', parameters: customerGet, inputs: 1, shown: false },
	{
		title: 'Customer → Get Many on 50 items',
		parameters: { resource: 'customer', operation: 'getMany' },
		inputs: 50,
		shown: false,
	},
	{
		title: 'Subscription → Get on 50 items',
		parameters: { resource: 'subscription', operation: 'get' },
		inputs: 50,
		shown: false,
	},
])('$title: hint shown $shown', ({ parameters, inputs, shown }) => {
	expect(shownAfterRun(parameters as INodeParameters, inputs)).toEqual(shown ? [hint.message] : []);
});

test('what the hint says: each item reads the customer list from its start up to its customer', async () => {
	const customers = [...(sandbox.state.customers as Map<string, IDataObject>).values()];
	const wanted = [customers[1500], customers[10], customers[2200]].map((customer) =>
		String(customer.customer_id),
	);
	const run = await runBilling(sandbox, customerGet, { items: wanted.map((id) => ({ id })) });
	expect(run.error).toBeUndefined();
	expect(run.json.map((customer) => customer.customer_id)).toEqual(wanted);
	const pages = (offsets: string[]) => offsets.map((offset) => `GET /api/v2/customers ${offset}`);
	const sent = sandbox.requests.map(
		(request) =>
			`${request.method} ${request.path} ${new URLSearchParams(request.rawQuery).get('offset') ?? 'first'}`,
	);
	// Items run side by side: each item's pages in order, the items' pages interleaved.
	expect(sent.sort()).toEqual(pages(['1000', '1000', '2000', 'first', 'first', 'first']).sort());
	expect(hint.message).toContain(
		'each item reads the customer list from its start until it finds its customer: one request per 1000 customers before it',
	);
});
