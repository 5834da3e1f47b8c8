/**
 * What the n8n process keeps per trigger (docs/trigger.md, what the n8n process keeps per trigger):
 * one state per trigger however often it is published and unpublished, replaced by each poll, and
 * none once its next poll is overdue (trigger/keptPerTrigger.ts); the trigger's request budget goes
 * once idle.
 */
import type { IDataObject } from 'n8n-workflow';
import {
	cachedOrigins,
	heldBudgets,
	KEEP_IDLE_MS,
	pollBudgetOwner,
} from '../nodes/SubscriptionBilling/shared/requestBudget';
import { OVERDUE_GRACE_MS } from '../nodes/SubscriptionBilling/trigger/keptPerTrigger';
import { heldPollStates, REPLACED_KEPT } from '../nodes/SubscriptionBilling/trigger/pollLock';
import { polledTriggers } from '../nodes/SubscriptionBilling/trigger/startupPoll';
import { useSandbox } from './helpers/billing.cjs';
import { moveClock, untilChecked } from './helpers/clock.cjs';
import { activeTrigger } from './helpers/trigger.cjs';

const sandbox = useSandbox();
const parameters = { events: ['newCustomer', 'invoicePaid'], scope: 'all', requestsPerPoll: 10 };
const CYCLES = 50;

/** Published with what n8n saved (none the first time), its activation poll and one scheduled poll; then unpublished. */
async function publishedOnce(
	workflowId: string,
	saved: IDataObject | undefined,
	between: () => void = () => {},
): Promise<{ saved: IDataObject; reported: string[] }> {
	const trigger = activeTrigger(sandbox, parameters, saved, {
		nodeId: 'trigger-node',
		workflow: { id: workflowId, name: `Workflow ${workflowId}` },
	});
	const reported: string[] = [];
	for (const run of [() => trigger.activate(), () => (between(), trigger.poll())]) {
		const { items, error } = await run();
		if (error) throw error;
		reported.push(
			...(items ?? []).map((item) => `${String(item.event)} ${String(item.customer_id)}`),
		);
	}
	return { saved: trigger.saved, reported };
}

test(`a trigger published and unpublished ${CYCLES} times keeps one state in the process, none once its next poll is overdue; its budget gone once idle; other triggers add one each`, async () => {
	let saved: IDataObject | undefined;
	const reported: string[] = [];
	const created: string[] = [];
	let rateLimited = 0;
	for (let cycle = 0; cycle < CYCLES; cycle++) {
		// The last publishing meets the API's rate limit: its budget learns a 429 and is kept when idle.
		if (cycle === CYCLES - 1) sandbox.setLimits({ maxInFlight: 3, ratePerSecond: 20, burst: 5 });
		try {
			const published = await publishedOnce('workflow-a', saved, () => {
				if (cycle % 3 === 1)
					created.push(sandbox.world.createCustomer({ name: `Cycle ${cycle}` }).customer_id);
			});
			saved = published.saved;
			reported.push(...published.reported);
		} finally {
			if (cycle === CYCLES - 1) {
				const stats = sandbox.limits.stats();
				rateLimited = stats.limited + stats.rejectedInFlight;
			}
			sandbox.setLimits(null);
		}
	}
	// The polls did real work: each customer created while published reported once.
	expect(reported.sort()).toEqual(created.map((id) => `newCustomer ${id}`).sort());

	const { replacedKept, running } = heldPollStates();
	expect([...replacedKept.keys()]).toEqual(['workflow-a trigger-node']);
	// Replaced, not accumulated: 100 polls, the marks of the last REPLACED_KEPT states kept.
	expect(replacedKept.get('workflow-a trigger-node')).toBe(REPLACED_KEPT);
	expect(running).toBe(0);
	expect(polledTriggers()).toBe(1);
	expect(cachedOrigins()).toBe(1);

	const budgetOfA = pollBudgetOwner('workflow-a trigger-node');
	expect(rateLimited).toBeGreaterThan(0);
	expect(heldBudgets(budgetOfA)).toBe(1);
	// A budget that learned something is kept KEEP_IDLE_MS after its last use, swept when a budget is made.
	moveClock(KEEP_IDLE_MS + 1000);
	await publishedOnce('workflow-b', undefined);
	await publishedOnce('workflow-c', undefined);
	expect(heldBudgets(budgetOfA)).toBe(0);
	expect(heldPollStates().replacedKept.size).toBe(3);
	expect(heldPollStates().running).toBe(0);
	expect(polledTriggers()).toBe(3);

	// Unpublished, polled every minute (n8n's default): overdue 2 minutes and OVERDUE_GRACE_MS later,
	// forgotten at the next check (every CHECK_EVERY_MS); a trigger polled since is kept.
	moveClock(2 * 60_000 + OVERDUE_GRACE_MS + 1000);
	await publishedOnce('workflow-d', undefined);
	expect(await untilChecked(() => heldPollStates().replacedKept.size === 1)).toBe(true);
	expect([...heldPollStates().replacedKept.keys()]).toEqual(['workflow-d trigger-node']);
	expect(polledTriggers()).toBe(1);
	for (const workflow of ['workflow-a', 'workflow-b', 'workflow-c'])
		expect(heldBudgets(pollBudgetOwner(`${workflow} trigger-node`))).toBe(0);
	// And once the last one is unpublished and overdue, none.
	moveClock(2 * 60_000 + OVERDUE_GRACE_MS + 1000);
	expect(await untilChecked(() => heldPollStates().replacedKept.size === 0)).toBe(true);
	expect(heldPollStates()).toEqual({ replacedKept: new Map(), running: 0 });
	expect(polledTriggers()).toBe(0);
	expect(heldBudgets()).toBe(0);
});
