import type { IPollFunctions, WorkflowActivateMode } from 'n8n-workflow';
import { schedulerBudgetMs } from './schedulerBudget';
import { triggerKeyOf } from '../shared/keptInProcess';
import { keptPerTrigger, pollEnded } from './keptPerTrigger';

/** n8n starting, or a main taking over as leader: it activates every published workflow again. */
const STARTING: WorkflowActivateMode[] = ['init', 'leadershipChange'];

/** Whether n8n activated this trigger as it started (or took over as leader), not because it was published or edited. */
export function activatedAtStart(ctx: IPollFunctions): boolean {
	return STARTING.includes(ctx.getActivationMode());
}

/** The triggers this n8n process has polled (workflow and node). */
const polled = new Set<string>();
keptPerTrigger((key) => polled.delete(key));

/**
 * Whether this is the poll n8n runs as it starts for a trigger that goes on from its saved state
 * (`goesOn`, asked only then). n8n activates the published workflows one after another and awaits
 * each trigger's first poll, so every workflow after this one would wait for its reads (two
 * triggers in a pass at 10,000 customers held the next workflow 51 s). That poll reads nothing: the
 * scheduled polls go on from the saved state. A state the trigger would not go on from (none,
 * another version's, a selected family without its section) is polled then as at publishing, so
 * that a change before the first scheduled poll is reported. With durable cursors n8n runs no such
 * poll, and gives each scheduled poll a budget (trigger/schedulerBudget.ts): never taken for it.
 */
export function isStartupPoll(ctx: IPollFunctions, goesOn: () => boolean): boolean {
	const key = triggerKeyOf(ctx);
	if (polled.has(key)) return false;
	polled.add(key);
	const startup = activatedAtStart(ctx) && schedulerBudgetMs(ctx) === undefined && goesOn();
	if (startup) pollEnded(ctx, key);
	return startup;
}

/** How many triggers this process has polled (for tests: one entry per trigger, however often it is published). */
export function polledTriggers(): number {
	return polled.size;
}
