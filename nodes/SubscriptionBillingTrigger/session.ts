import type { IPollFunctions } from 'n8n-workflow';
import { apiAccess } from '../SubscriptionBilling/shared/apiAccess';
import { DEFAULT_RETRY } from '../SubscriptionBilling/shared/retry';
import type { Session } from '../SubscriptionBilling/shared/transport';

/** A poll's requests: reads only, so each is retried after transient faults like the node's lists. */
export interface PollSession {
	session: Session;
	baseURL: string;
}

export async function pollSession(ctx: IPollFunctions): Promise<PollSession> {
	const { baseURL, secret } = await apiAccess(ctx);
	return {
		baseURL,
		session: { ctx, node: ctx.getNode(), itemIndex: 0, secret, retry: DEFAULT_RETRY, safeToRepeat: true },
	};
}
