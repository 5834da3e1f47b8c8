import type { ICredentialDataDecryptedObject, IExecuteData, IExecuteSingleFunctions } from 'n8n-workflow';
import { CREDENTIAL_TYPE } from './constants';

export type ApiCredentials = ICredentialDataDecryptedObject & {
	apiKey?: string;
	environment?: string;
	productionBaseUrl?: string;
	stagingBaseUrl?: string;
};

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
