import type { IExecutePaginationFunctions } from 'n8n-workflow';

/** What reading one item's list cost: requests sent and results read. */
export interface CostReport {
	kind: 'lookup' | 'list';
	requests: number;
	results: number;
	/** Set by the run that collects the reports. */
	itemIndex?: number;
	/** Whether Return All asked for every page. */
	returnAll?: boolean;
}

/** Where a custom operation's item context takes the costs of its item (see customOperation.ts). */
export const runCost = Symbol('subscriptionBillingRunCost');

/** Tells the run what the item's requests cost, when the run collects it (a routed run does not). */
export function noteCost(ctx: IExecutePaginationFunctions, cost: CostReport): void {
	const collect = (ctx as unknown as Record<symbol, ((cost: CostReport) => void) | undefined>)[runCost];
	if (typeof collect === 'function') collect(cost);
}
