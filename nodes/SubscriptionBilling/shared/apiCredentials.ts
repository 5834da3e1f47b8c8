import type { IAuthenticateGeneric, ICredentialDataDecryptedObject, IExecuteData, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { CREDENTIAL_TYPE } from './constants';

export type ApiCredentials = ICredentialDataDecryptedObject & {
	apiKey?: string;
	environment?: string;
	productionBaseUrl?: string;
	stagingBaseUrl?: string;
};

/** The header the API reads the credential's key from. */
export const API_KEY_HEADER = 'X-SERVICE-KEY';

/**
 * How n8n's HTTP Request node sends the key when it uses this credential (the credential's
 * `authenticate`, which also gives the node's pickers n8n's Custom API Call).
 */
export const apiKeyAuthentication: IAuthenticateGeneric = {
	type: 'generic',
	properties: { headers: { [API_KEY_HEADER]: '={{$credentials.apiKey}}' } },
};

/**
 * The request with the key in its header: the one place the nodes and the credential test put it
 * (shared/transport.ts calls it for every request they send).
 */
export function withApiKey(options: IHttpRequestOptions, apiKey: string | undefined): IHttpRequestOptions {
	return { ...options, headers: { ...options.headers, [API_KEY_HEADER]: apiKey ?? '' } };
}

/** The base URL of the environment the credential chooses, as entered. */
export function credentialBaseUrl(credentials: ApiCredentials): string | undefined {
	return credentials.environment === 'staging' ? credentials.stagingBaseUrl : credentials.productionBaseUrl;
}

const perRun = new WeakMap<IExecuteData, Promise<ApiCredentials>>();

/**
 * The credential, read once per run of the node and shared by its items, as n8n's RoutingNode
 * itself reads it once per run. Reading it for every item decrypts it again each time.
 */
export function runCredentials(ctx: IExecuteSingleFunctions): Promise<ApiCredentials> {
	const executeData = ctx.getExecuteData();
	if (!executeData) return ctx.getCredentials<ApiCredentials>(CREDENTIAL_TYPE);
	let credentials = perRun.get(executeData);
	if (!credentials) {
		credentials = ctx.getCredentials<ApiCredentials>(CREDENTIAL_TYPE);
		perRun.set(executeData, credentials);
		credentials.catch(() => perRun.delete(executeData));
	}
	return credentials;
}
