import type { IPollFunctions } from 'n8n-workflow';

/**
 * n8n's default poll budget: what PollContext's `getPollBudgetMs()` answers for a poll no scheduler
 * times (n8n-core 2.41). Only a shorter budget is one n8n enforces.
 */
export const N8N_DEFAULT_POLL_BUDGET_MS = 5 * 60_000;

/**
 * The time n8n's scheduler gives this poll before abandoning it (durable cursors, n8n 2.36+: about
 * 36 s by default); undefined for a poll n8n lets run to its end (every other poll, and n8n-core
 * releases whose PollContext has no `getPollBudgetMs`).
 */
export function schedulerBudgetMs(ctx: IPollFunctions): number | undefined {
	const budget = (ctx as IPollFunctions & { getPollBudgetMs?: () => number }).getPollBudgetMs?.();
	return typeof budget === 'number' && budget < N8N_DEFAULT_POLL_BUDGET_MS ? budget : undefined;
}
