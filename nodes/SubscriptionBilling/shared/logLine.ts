import type { LogMetadata } from 'n8n-workflow';
import type { TransportContext } from './requestBudget';

/** Node types whose lines name them so (the others are the action node's). */
const TRIGGER_TYPE = 'subscriptionBillingTrigger';

/**
 * Writes one line to n8n's log, naming the node and its workflow (several workflows may keep a
 * node's default name), and gives n8n's logger the workflow's ID and the node, as n8n's own nodes
 * do. Every log line of this package is written here.
 */
export function logLine(
	ctx: TransportContext,
	level: 'debug' | 'info' | 'warn',
	message: string,
	metadata: LogMetadata = {},
): void {
	if (!('getNode' in ctx)) {
		ctx.logger[level](`Subscription Billing credential test: ${message}`, metadata);
		return;
	}
	const node = ctx.getNode();
	const { id, name } = ctx.getWorkflow();
	const kind =
		node.type.split('.').pop() === TRIGGER_TYPE
			? 'Subscription Billing Trigger'
			: 'Subscription Billing';
	ctx.logger[level](
		`${kind} "${node.name}" in workflow "${name ?? ''}" (${id ?? 'not saved'}): ${message}`,
		{ ...metadata, workflowId: id, node: node.name },
	);
}
