import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from '../helpers/billing.cjs';
import { operationTable } from '../helpers/operationTable.cjs';

const sandbox = useSandbox();
const { planId, otherPlanId, seatsBrickId, usageBrickId } = sandbox.fixtures;
const createdDates = (plans: IDataObject[]) => plans.map((plan) => String(plan.created_at));

describe('Plan', () => {
	operationTable(sandbox, [
		{
			title: 'Get returns the plan with its bricks',
			parameters: { resource: 'plan', operation: 'get', planId },
			sends: [{ method: 'GET', path: `/plans/${planId}` }],
			outputs: [
				expect.objectContaining({
					plan_id: planId,
					plan_name: expect.any(String),
					bricks: expect.arrayContaining([
						{ brick_id: seatsBrickId, brick_name: expect.any(String), brick_type: 'RECURRING' },
						{ brick_id: usageBrickId, brick_name: expect.any(String), brick_type: 'USAGE' },
					]),
				}),
			],
		},
		{
			title:
				'Get Many left at the default sort sends ordering=-created_at and the plans come newest first',
			parameters: { resource: 'plan', operation: 'getMany', returnAll: true },
			sends: [{ method: 'GET', path: '/plans', query: { ordering: '-created_at', limit: '1000' } }],
			outputs: (plans) => {
				expect(plans.length).toBeGreaterThan(1);
				expect(createdDates(plans)).toEqual([...createdDates(plans)].sort().reverse());
			},
		},
		{
			title:
				'Get Many sorted Oldest First sends ordering=created_at and returns every plan with its bricks, oldest first',
			parameters: {
				resource: 'plan',
				operation: 'getMany',
				ordering: 'created_at',
				returnAll: true,
			},
			sends: [{ method: 'GET', path: '/plans', query: { ordering: 'created_at', limit: '1000' } }],
			outputs: (plans) => {
				expect(plans.map((plan) => plan.plan_id)).toEqual(
					expect.arrayContaining([planId, otherPlanId]),
				);
				expect(createdDates(plans)).toEqual([...createdDates(plans)].sort());
				for (const plan of plans) expect((plan.bricks as IDataObject[]).length).toBeGreaterThan(0);
			},
		},
		{
			title:
				'Get Many sorted Oldest First with a limit of 2 sends both, and the two plans come oldest first',
			parameters: { resource: 'plan', operation: 'getMany', ordering: 'created_at', limit: 2 },
			sends: [{ method: 'GET', path: '/plans', query: { ordering: 'created_at', limit: '2' } }],
			outputs: (plans) => {
				expect(plans).toHaveLength(2);
				expect(createdDates(plans)).toEqual([...createdDates(plans)].sort());
			},
		},
	]);
});
