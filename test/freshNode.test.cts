/**
 * A node added fresh from the nodes panel, with the parameters exactly as the editor stores them
 * (n8n's own defaults for the fields shown, as the number boxes keep them), never sends a value the
 * user did not give. For every operation that is not a GET:
 * - run untouched, it is refused before anything is sent, naming the field: by n8n's engine for the
 *   fields the editor marks as missing ("The workflow has issues"), by the node for the others;
 * - with the fields the editor marks as missing filled in (what a user must do before the editor
 *   runs it at all), every required field the editor lets through untouched is refused in turn,
 *   and once those are given too, the request goes out: no other field was filled in for the user.
 */
import type { INodeParameters } from 'n8n-workflow';
import { editorIssues, freshParameters, nonGetOperations } from './helpers/editorParameters.cjs';
import { runBilling, useSandbox, type BillingRun } from './helpers/billing.cjs';

const sandbox = useSandbox();

const NOTHING_SENT = 'Nothing was sent to the API for this item. Correct the value and run again.';
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** The first field each operation's fresh node is refused for (path ids first, then the body's rules). */
const UNTOUCHED: Record<string, string> = {
	'customer.create': 'Name',
	'customer.search': 'Search Fields',
	'customer.update': 'Customer',
	'customer.upsert': 'Name',
	'invoice.search': 'Customer',
	'paymentMethod.setDefault': 'Subscription',
	'paymentMethod.setUp': 'Subscription',
	'subscription.getSignUrl': 'Subscription',
	'subscriptionMilestone.complete': 'Subscription',
	'subscriptionRecast.create': 'Subscription',
	'subscriptionRecast.delete': 'Subscription',
	'subscriptionRecast.getSignUrl': 'Subscription',
	'subscriptionRecast.start': 'Subscription',
	'subscriptionUpgrade.create': 'Subscription',
	'subscriptionUpgrade.getSignUrl': 'Subscription',
	'subscriptionUpgrade.start': 'Subscription',
	'usage.create': 'Transaction ID',
	'usage.delete': 'Transaction ID',
	'usage.update': 'Transaction ID',
};

/**
 * Required fields the editor does not mark when left untouched (a number box left empty, a list of
 * rows with none, a collection that needs one field), in the order the node checks them, each with
 * the value a user would then give.
 */
function unmarked(): Record<string, Array<[string, INodeParameters]>> {
	const bricks = {
		bricksUi: { brick: [{ brickId: byId(sandbox.fixtures.addOnBrickId), quantity: 1 }] },
	};
	return {
		'customer.search': [['Search Fields', { searchFields: { name: 'acme' } }]],
		'customer.update': [['Update Fields', { updateFields: { legalName: 'Acme Corporation Ltd' } }]],
		'subscriptionMilestone.complete': [['Quantity', { quantity: 1 }]],
		'subscriptionRecast.create': [
			['Bricks', bricks],
			['Contract Length (Months)', { contractLength: 12 }],
		],
		'subscriptionUpgrade.create': [['Bricks', bricks]],
		'usage.create': [['Value', { value: 5 }]],
		'usage.update': [['Value', { value: 5 }]],
	};
}

/** What a user gives a field the editor marks as missing. */
function given(resource: string, operation: string, name: string): INodeParameters[string] {
	const f = sandbox.fixtures;
	const values: Record<string, INodeParameters[string]> = {
		name: 'Fresh Node Ltd',
		externalId: 'EXT-FRESH-1',
		customerId: byId(f.customerId),
		subscriptionId: byId(
			resource === 'subscription' ? f.openOrderSubscriptionId : f.subscriptionId,
		),
		paymentMethodId: f.paymentMethodId,
		milestoneId: byId(f.milestoneId),
		billOn: 'NEXT_INVOICE',
		startsAt: '2026-10-01',
		billingFrequency: 'MONTHLY',
		orderId: byId(resource === 'subscriptionUpgrade' ? f.upgradeOrderId : f.recastOrderId),
		redirectUrl: 'https://example.com/done',
		transactionId: operation === 'create' ? 'txn-fresh-node' : f.usageTransactionId,
		brickId: byId(f.usageBrickId),
	};
	if (!(name in values))
		throw new Error(`no value for the marked field ${name} of ${resource} → ${operation}`);
	return values[name];
}

function expectRefused(run: BillingRun, field: string): void {
	expect(run.error?.message).toMatch(new RegExp(`^${field.replace(/[()]/g, '\\$&')} in item 0: `));
	expect(run.error?.description).toBe(NOTHING_SENT);
	expect(run.items).toHaveLength(0);
	expect(sandbox.requests).toHaveLength(0);
}

const operations = nonGetOperations();

test('every operation that is not a GET is covered', () => {
	expect(operations.map(([resource, operation]) => `${resource}.${operation}`).sort()).toEqual(
		Object.keys(UNTOUCHED).sort(),
	);
});

describe.each(operations)('%s → %s added fresh from the nodes panel', (resource, operation) => {
	const key = `${resource}.${operation}`;

	test('run untouched: refused before sending, naming the field (n8n names the fields it marks; the node names the rest)', async () => {
		const parameters = freshParameters(resource, operation) as INodeParameters & {
			resource: string;
			operation: string;
		};
		if (Object.keys(editorIssues(parameters)).length > 0) {
			await expect(runBilling(sandbox, parameters)).rejects.toThrow(
				new RegExp(
					`^The workflow has issues and cannot be executed .*Parameter \\\\"${UNTOUCHED[key]}\\\\" is required`,
				),
			);
			expect(sandbox.requests).toHaveLength(0);
		} else {
			expectRefused(await runBilling(sandbox, parameters), UNTOUCHED[key]);
		}
	});

	test('with the marked fields filled in: each required field left untouched is refused, then the request goes out', async () => {
		const parameters = freshParameters(resource, operation);
		for (const name of Object.keys(editorIssues(parameters)))
			parameters[name] = given(resource, operation, name);
		expect(editorIssues(parameters)).toEqual({});
		for (const [field, change] of unmarked()[key] ?? []) {
			sandbox.clearRequests();
			expectRefused(
				await runBilling(
					sandbox,
					parameters as INodeParameters & { resource: string; operation: string },
				),
				field,
			);
			Object.assign(parameters, change);
		}
		sandbox.clearRequests();
		const run = await runBilling(
			sandbox,
			parameters as INodeParameters & { resource: string; operation: string },
		);
		expect(run.error?.description ?? '').not.toBe(NOTHING_SENT);
		expect(sandbox.requests.length).toBeGreaterThan(0);
	});
});
