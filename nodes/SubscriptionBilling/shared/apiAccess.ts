import type { ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
import { checkedBaseUrl } from './baseUrl';
import { CREDENTIAL_TYPE } from './constants';

interface BillingCredentials {
	apiKey?: string;
	environment?: string;
	productionBaseUrl?: string;
	stagingBaseUrl?: string;
}

/** Where requests go (the checked base URL of the chosen environment) and the key to keep out of answers. */
export interface ApiAccess {
	baseURL: string;
	secret: string | undefined;
}

/** Code that sends its own requests (pickers, the trigger) reads the credential here, the same way. */
export async function apiAccess(ctx: ILoadOptionsFunctions | IPollFunctions): Promise<ApiAccess> {
	const credentials = await ctx.getCredentials<BillingCredentials>(CREDENTIAL_TYPE);
	const rawBaseUrl = credentials.environment === 'staging' ? credentials.stagingBaseUrl : credentials.productionBaseUrl;
	return {
		baseURL: checkedBaseUrl(ctx.getNode(), rawBaseUrl, 0).href.replace(/\/+$/, ''),
		secret: credentials.apiKey,
	};
}
