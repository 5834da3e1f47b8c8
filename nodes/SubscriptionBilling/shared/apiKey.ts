import type { IAuthenticateGeneric, IHttpRequestOptions } from 'n8n-workflow';

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
