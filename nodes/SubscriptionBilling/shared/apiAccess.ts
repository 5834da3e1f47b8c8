import type { ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
import { credentialBaseUrl, type ApiCredentials } from './apiCredentials';
import { apiBaseUrl } from './baseUrl';
import { CREDENTIAL_TYPE } from './constants';

/** Where requests go (the checked base URL of the chosen environment) and the key to keep out of answers. */
export interface ApiAccess {
	baseURL: string;
	secret: string | undefined;
}

/** Code that sends its own requests (pickers, the trigger) reads the credential here, the same way. */
export async function apiAccess(ctx: ILoadOptionsFunctions | IPollFunctions): Promise<ApiAccess> {
	const credentials = await ctx.getCredentials<ApiCredentials>(CREDENTIAL_TYPE);
	return {
		baseURL: apiBaseUrl(ctx.getNode(), credentialBaseUrl(credentials), 0),
		secret: credentials.apiKey,
	};
}
