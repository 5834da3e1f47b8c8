import type { ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
import { credentialBaseUrl, type ApiCredentials, apiBaseUrl } from './apiCredentials';
import { CREDENTIAL_TYPE } from './constants';
import { DEFAULT_RETRY, type RetrySettings } from './retry';
import type { Session } from './transport';

/** Where reads go (the checked base URL of the chosen environment) and the session they are sent in. */
export interface ReadAccess {
	baseURL: string;
	session: Session;
}

/**
 * Code that sends its own requests (the editor's pickers, the trigger's polls) reads the credential
 * here, once per call, the same way: only reads, so each is retried after transient faults.
 */
export async function readAccess(
	ctx: ILoadOptionsFunctions | IPollFunctions,
	retry: RetrySettings = DEFAULT_RETRY,
): Promise<ReadAccess> {
	const credentials = await ctx.getCredentials<ApiCredentials>(CREDENTIAL_TYPE);
	const node = ctx.getNode();
	return {
		baseURL: apiBaseUrl(node, credentialBaseUrl(credentials), 0),
		session: { ctx, node, itemIndex: 0, secret: credentials.apiKey, retry, safeToRepeat: true },
	};
}
