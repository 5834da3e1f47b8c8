import type { ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';
import { credentialBaseUrl, type ApiCredentials } from './apiCredentials';
import { parsedBaseUrl } from './baseUrl';

/** How long the credential dialog waits for the API. */
const TEST_TIMEOUT_MS = 15000;

export const CREDENTIAL_TEST_MESSAGES = {
	unauthorized:
		'The API key was not accepted (ERR_UNAUTHORIZED): check the API Key, and that it belongs to the environment chosen in Environment (Production or Staging)',
	forbidden: 'The API key may not list customers (ERR_FORBIDDEN): check its permissions',
	notTheList:
		"The API did not answer with the customer list: check the API Key and the Environment, and that the Base URL is the API's address ending in /api/v2. A run of the node shows the API's own error code and message.",
};

const fail = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

interface Answer {
	statusCode: number;
	location?: string;
	body?: unknown;
}

function errorCode(body: unknown): unknown {
	return body !== null && typeof body === 'object' ? ((body as { error?: { code?: unknown } }).error?.code) : undefined;
}

/** What the dialog says about the API's answer to GET /customers?limit=1. */
function verdict(answer: Answer): INodeCredentialTestResult {
	const code = errorCode(answer.body);
	if (code === 'ERR_UNAUTHORIZED' || (answer.statusCode === 401 && code === undefined)) return fail(CREDENTIAL_TEST_MESSAGES.unauthorized);
	if (code === 'ERR_FORBIDDEN' || (answer.statusCode === 403 && code === undefined)) return fail(CREDENTIAL_TEST_MESSAGES.forbidden);
	if (answer.statusCode >= 300 && answer.statusCode < 400) {
		const location = answer.location ? ` to ${answer.location}` : '';
		return fail(`The Base URL answered with a redirect${location} (HTTP ${answer.statusCode}): the key is not sent on, so set the Base URL to the API's own address, ending in /api/v2`);
	}
	const body = answer.body as { results?: unknown } | null;
	if (answer.statusCode >= 200 && answer.statusCode < 300 && body !== null && typeof body === 'object' && Array.isArray(body.results)) {
		return { status: 'OK', message: 'Connection successful' };
	}
	return fail(`${CREDENTIAL_TEST_MESSAGES.notTheList} (HTTP ${answer.statusCode})`);
}

/**
 * The credential dialog's test: the base URL of the chosen environment is checked as the nodes
 * check it (an http address on another machine is refused, and the key is not sent), then one
 * customer is listed with the key.
 */
export async function testApiCredential(this: ICredentialTestFunctions, credential: ICredentialsDecrypted): Promise<INodeCredentialTestResult> {
	const data = (credential.data ?? {}) as ApiCredentials;
	const environment = data.environment === 'staging' ? 'Staging' : 'Production';
	const parsed = parsedBaseUrl(credentialBaseUrl(data));
	if ('problem' in parsed) {
		if (parsed.problem === 'invalid') {
			return fail(`Set the ${environment} Base URL to the API's address, such as https://billing.example.com/api/v2${parsed.text ? ` ("${parsed.text}" is not an address)` : ''}`);
		}
		return fail(
			`The ${environment} Base URL must use https: ${parsed.text} is plain http on another machine, and the API key is never sent over http off this machine (only localhost and 127.0.0.1 may use http). Change it to https://… — the key was not sent.`,
		);
	}
	const url = new URL(`${parsed.url.href.replace(/\/+$/, '')}/customers`);
	url.searchParams.set('limit', '1');
	try {
		// ICredentialTestFunctions offers only helpers.request, which n8n's community-node rules
		// forbid as deprecated; the test is one plain GET, never following a redirect with the key.
		const response = await fetch(url, {
			headers: { 'X-SERVICE-KEY': data.apiKey ?? '', Accept: 'application/json' },
			redirect: 'manual',
			signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
		});
		const text = await response.text();
		let body: unknown = text;
		try {
			body = JSON.parse(text);
		} catch {
			// not JSON: not the customer list
		}
		return verdict({ statusCode: response.status, location: response.headers.get('location') ?? undefined, body });
	} catch (error) {
		const cause = error as { name?: string; cause?: { code?: string; message?: string } };
		const why = cause.name === 'TimeoutError' ? `no answer within ${TEST_TIMEOUT_MS / 1000} s` : cause.cause?.code ?? cause.cause?.message;
		return fail(`Could not connect to ${parsed.url.origin}${why ? ` (${why})` : ''}: check the ${environment} Base URL and that the API can be reached from n8n`);
	}
}
