import type { IDataObject, INodeParameters, INodeType } from 'n8n-workflow';
import { SubscriptionBillingApi } from '../../credentials/SubscriptionBillingApi.credentials';
import { SubscriptionBillingTrigger } from '../../nodes/SubscriptionBilling/SubscriptionBillingTrigger.node';
import { Poller } from '../harness/index.cjs';
import type { TriggerState } from '../../nodes/SubscriptionBilling/trigger/state/triggerState';
import type { ReceivedRequest, Sandbox } from './billing.cjs';
import { moveClock } from './clock.cjs';

/** The node as a workflow stores it: its id (default: one of its own per poller) and name (default: the node's default name). */
interface TriggerNode {
	nodeId?: string;
	nodeName?: string;
	/** The trigger as another n8n process loaded it (`triggerOfNewProcess`); default: this test's. */
	nodeType?: INodeType;
	/** n8n 2.41 with durable cursors: every successful scheduled poll's state is saved (harness/poll.cts). */
	durableCursors?: boolean;
	/** With durable cursors, what a scheduled poll's `getPollBudgetMs()` answers (harness/poll.cts). */
	pollBudgetMs?: number;
	/** The workflow's ID and name (default: the harness's). */
	workflow?: { id: string; name: string };
}

/**
 * The trigger loaded afresh, with its own module state, as an n8n process that has just started
 * has it: no memory of earlier polls (trigger/pollLock.ts) or of the API's rate limit.
 */
export function triggerOfNewProcess(): INodeType {
	let nodeType: INodeType | undefined;
	jest.isolateModules(() => {
		const loaded = require('../../nodes/SubscriptionBilling/SubscriptionBillingTrigger.node') as {
			SubscriptionBillingTrigger: new () => INodeType;
		};
		nodeType = new loaded.SubscriptionBillingTrigger();
	});
	return nodeType!;
}

/**
 * The trigger in an active workflow against the sandbox; each `poll()` is one scheduled poll.
 * Without `staticData` it is published a second after what the test set up: the API's times are to
 * the second, and a change in the second of publishing counts as made after it (docs/trigger.md).
 */
export function activeTrigger(
	sandbox: Sandbox,
	parameters: INodeParameters,
	staticData?: IDataObject,
	{ nodeId, nodeName, nodeType, durableCursors, pollBudgetMs, workflow }: TriggerNode = {},
): Poller {
	if (!staticData) moveClock(1000);
	return new Poller({
		nodeId,
		nodeName,
		workflow,
		durableCursors,
		pollBudgetMs,
		nodeType: nodeType ?? new SubscriptionBillingTrigger(),
		credentialType: new SubscriptionBillingApi(),
		credentials: {
			apiKey: sandbox.apiKey,
			environment: 'production',
			productionBaseUrl: sandbox.baseUrl,
		},
		parameters,
		staticData,
	});
}

/**
 * n8n stopped and started again: the trigger of a new process handed what n8n had saved, and
 * activated as n8n activates it at startup (without durable cursors, a poll that is saved).
 */
export async function restartedTrigger(
	trigger: Poller,
): Promise<{ trigger: Poller; items: IDataObject[]; logs: string[] }> {
	const restarted = trigger.restarted(triggerOfNewProcess());
	const { items, error, logs } = await restarted.activate('init');
	if (error) throw error;
	return { trigger: restarted, items: items ?? [], logs };
}

/** The API requests the sandbox received (not the test-only world routes), as `METHOD path?query`. */
export function apiRequests(sandbox: Sandbox): string[] {
	return sandbox.requests
		.filter((request: ReceivedRequest) => request.path.startsWith('/api/v2/'))
		.map(
			(request) =>
				`${request.method} ${request.path.slice('/api/v2'.length)}${request.rawQuery ? `?${request.rawQuery}` : ''}`,
		);
}

/**
 * Publishes the trigger (its first poll notes the API's time) and polls until its invoice sweep has
 * visited every customer once, nothing having changed: what a test of later visits starts from.
 */
export async function publishedAndSwept(trigger: Poller, maxPolls = 50): Promise<void> {
	for (let poll = 0; poll < maxPolls; poll++) {
		const { items, error } = await trigger.poll();
		if (error) throw error;
		if (items) throw new Error(`emitted with nothing changed: ${JSON.stringify(items)}`);
		const { sweep } = (trigger.nodeStaticData.trigger as TriggerState).invoices ?? {};
		if (poll > 0 && sweep?.nextCustomer === undefined) return;
	}
	throw new Error(`the first sweep did not end within ${maxPolls} polls`);
}
