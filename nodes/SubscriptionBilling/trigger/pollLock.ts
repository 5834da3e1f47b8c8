import type { IPollFunctions } from 'n8n-workflow';

/** Polls in progress in this n8n process, per trigger (workflow and node), with their start time. */
const running = new Map<string, Date>();

/**
 * Runs one poll of a trigger unless another poll of the same trigger is still running: then this
 * one reads nothing, emits nothing and says so in n8n's log. Two polls reading the same state
 * would otherwise emit the same items twice. Fetch Test Event (manual) changes no state: not held.
 */
export async function exclusivePoll<T>(ctx: IPollFunctions, poll: () => Promise<T>): Promise<T | null> {
	if (ctx.getMode() === 'manual') return await poll();
	const key = `${ctx.getWorkflow().id ?? ''} ${ctx.getNode().id}`;
	const since = running.get(key);
	if (since) {
		ctx.logger.warn(
			`Subscription Billing Trigger "${ctx.getNode().name}": poll skipped, the previous poll of this trigger (started ${since.toISOString()}) is still running. Poll less often, or lower Requests Per Poll.`,
			{ workflowId: ctx.getWorkflow().id, node: ctx.getNode().name },
		);
		return null;
	}
	running.set(key, new Date());
	try {
		return await poll();
	} finally {
		running.delete(key);
	}
}
