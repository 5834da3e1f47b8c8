import type { IPollFunctions } from 'n8n-workflow';

/**
 * One trigger in this n8n process: its workflow and node IDs (n8n keeps a node's ID through edits
 * and renames). What the trigger keeps in process memory between polls is kept under it.
 */
export const triggerKeyOf = (ctx: Pick<IPollFunctions, 'getWorkflow' | 'getNode'>): string =>
	`${ctx.getWorkflow().id ?? ''} ${ctx.getNode().id}`;
