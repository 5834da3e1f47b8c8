import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from '../helpers/billing.cjs';
import { operationTable, readBack, UUID } from '../helpers/operationTable.cjs';

const sandbox = useSandbox();
const {
	subscriptionId,
	milestoneId,
	milestoneBrickId,
	finishedMilestoneSubscriptionId,
	finishedMilestoneId,
} = sandbox.fixtures;
const completePath = `/subscriptions/${subscriptionId}/milestones/${milestoneId}/complete`;
const complete = (fields: IDataObject) => ({
	resource: 'subscriptionMilestone',
	operation: 'complete',
	subscriptionId,
	milestoneId,
	...fields,
});

describe('Subscription Milestone', () => {
	operationTable(sandbox, [
		{
			title: 'Get Many lists the milestones with the quantity contracted and completed',
			parameters: {
				resource: 'subscriptionMilestone',
				operation: 'getMany',
				subscriptionId,
				returnAll: true,
			},
			sends: [{ method: 'GET', path: `/subscriptions/${subscriptionId}/milestones` }],
			outputs: [
				expect.objectContaining({
					milestone_id: milestoneId,
					brick_id: milestoneBrickId,
					quantity: 10,
					quantity_completed: 3,
				}),
			],
		},
		{
			title:
				'Complete billed immediately sends the quantity and the invoice dates and raises an invoice',
			parameters: complete({
				quantity: 2,
				billOn: 'IMMEDIATELY',
				invoiceDates: { issuedAt: '2026-10-01', dueAt: '2026-10-31', serviceDate: '2026-09-30' },
			}),
			sends: [
				{
					method: 'POST',
					path: completePath,
					body: {
						quantity: 2,
						bill_on: 'IMMEDIATELY',
						issued_at: '2026-10-01',
						due_at: '2026-10-31',
						service_date: '2026-09-30',
					},
				},
			],
			outputs: [
				expect.objectContaining({
					milestone_id: milestoneId,
					quantity_completed: 5,
					quantity_remaining: 5,
					bill_on: 'IMMEDIATELY',
					invoice_id: expect.stringMatching(UUID),
				}),
			],
		},
		{
			title:
				'Complete on the next invoice sends no invoice dates (a leftover value, shown only for Immediately, is not sent) and bills on the next scheduled invoice',
			parameters: complete({
				quantity: 1,
				billOn: 'NEXT_INVOICE',
				invoiceDates: { issuedAt: '2026-10-01' },
			}),
			sends: [
				{ method: 'POST', path: completePath, body: { quantity: 1, bill_on: 'NEXT_INVOICE' } },
			],
			outputs: [
				expect.objectContaining({
					quantity_completed: 4,
					bill_on: 'NEXT_INVOICE',
					invoice_id: null,
					next_invoice_starts_at: expect.any(String),
				}),
			],
		},
		{
			title: 'Complete may take the completed total exactly to the milestone total',
			parameters: complete({ quantity: 7, billOn: 'IMMEDIATELY' }),
			sends: [
				{ method: 'POST', path: completePath, body: { quantity: 7, bill_on: 'IMMEDIATELY' } },
			],
			outputs: [
				expect.objectContaining({ quantity: 10, quantity_completed: 10, quantity_remaining: 0 }),
			],
		},
		{
			title: "Complete past the milestone's total is the API's 400 and changes nothing",
			parameters: complete({ quantity: 8, billOn: 'IMMEDIATELY' }),
			sends: [
				{
					method: 'POST',
					path: completePath,
					status: 400,
					body: { quantity: 8, bill_on: 'IMMEDIATELY' },
				},
			],
			fails: { message: /^ERR_BAD_REQUEST: .*quantity: /s, description: /HTTP 400/ },
			then: async () => {
				const [milestone] = await readBack(sandbox, {
					resource: 'subscriptionMilestone',
					operation: 'getMany',
					subscriptionId,
					returnAll: true,
				});
				expect(milestone).toMatchObject({ quantity: 10, quantity_completed: 3 });
			},
		},
		{
			title: "Complete on the next invoice when no scheduled invoice is left is the API's 400",
			parameters: {
				resource: 'subscriptionMilestone',
				operation: 'complete',
				subscriptionId: finishedMilestoneSubscriptionId,
				milestoneId: finishedMilestoneId,
				quantity: 1,
				billOn: 'NEXT_INVOICE',
			},
			sends: [
				{
					method: 'POST',
					path: `/subscriptions/${finishedMilestoneSubscriptionId}/milestones/${finishedMilestoneId}/complete`,
					status: 400,
					body: { quantity: 1, bill_on: 'NEXT_INVOICE' },
				},
			],
			fails: { message: /^ERR_BAD_REQUEST: .*bill_on: /s, description: /HTTP 400/ },
		},
		{
			title:
				"Complete of a milestone ID the subscription does not have is the API's 404, naming Milestone ID and where a milestone's ID is found; nothing is completed",
			parameters: complete({
				milestoneId: 'no-such-milestone',
				quantity: 1,
				billOn: 'IMMEDIATELY',
			}),
			sends: [
				{
					method: 'POST',
					path: `/subscriptions/${subscriptionId}/milestones/no-such-milestone/complete`,
					status: 404,
					body: { quantity: 1, bill_on: 'IMMEDIATELY' },
				},
			],
			fails: {
				message: `ERR_NOT_FOUND: Milestone no-such-milestone not found for subscription ${subscriptionId}.`,
				description:
					`HTTP 404 from POST /api/v2/subscriptions/${subscriptionId}/milestones/no-such-milestone/complete. The API has no record with the ID "no-such-milestone" in Milestone ID, so nothing was changed. ` +
					'Give the milestone_id from Subscription Milestone → Get Many.',
			},
			then: async () => {
				const [milestone] = await readBack(sandbox, {
					resource: 'subscriptionMilestone',
					operation: 'getMany',
					subscriptionId,
					returnAll: true,
				});
				expect(milestone).toMatchObject({ quantity: 10, quantity_completed: 3 });
			},
		},
		...(
			[
				[0, 'Quantity in item 0: 0 is less than 1'],
				[1.5, 'Quantity in item 0: "1.5" is not a whole number'],
			] as const
		).map(([quantity, message]) => ({
			title: `Complete with a quantity of ${quantity} is refused by the node, naming the field, and nothing is sent`,
			parameters: complete({ quantity, billOn: 'IMMEDIATELY' }),
			sends: [],
			fails: { message },
		})),
	]);
});
