import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { SubscriptionBillingApi } from '../../credentials/SubscriptionBillingApi.credentials';
import { SubscriptionBillingTrigger } from '../../nodes/SubscriptionBilling/SubscriptionBillingTrigger.node';
import { Poller } from '../harness/index.cjs';
import type { ReceivedRequest, Sandbox } from './billing.cjs';

/** The node as a workflow stores it: its version (default 1) and id (default: one of its own per poller). */
interface TriggerNode {
	typeVersion?: number;
	nodeId?: string;
}

/** The trigger in an active workflow against the sandbox; each `poll()` is one scheduled poll. */
export function activeTrigger(sandbox: Sandbox, parameters: INodeParameters, staticData?: IDataObject, { typeVersion = 1, nodeId }: TriggerNode = {}): Poller {
	return new Poller({
		typeVersion,
		nodeId,
		nodeType: new SubscriptionBillingTrigger(),
		credentialType: new SubscriptionBillingApi(),
		credentials: { apiKey: sandbox.apiKey, environment: 'production', productionBaseUrl: sandbox.baseUrl },
		parameters,
		staticData,
	});
}

/** The trigger's version 2 (several Events) in an active workflow against the sandbox. */
export function activeTriggerV2(sandbox: Sandbox, parameters: INodeParameters, staticData?: IDataObject): Poller {
	return activeTrigger(sandbox, parameters, staticData, { typeVersion: 2 });
}

/** The API requests the sandbox received (not the test-only world routes), as `METHOD path?query`. */
export function apiRequests(sandbox: Sandbox): string[] {
	return sandbox.requests
		.filter((request: ReceivedRequest) => request.path.startsWith('/api/v2/'))
		.map((request) => `${request.method} ${request.path.slice('/api/v2'.length)}${request.rawQuery ? `?${request.rawQuery}` : ''}`);
}
