import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INode,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { failureOf } from './apiError';
import {
	credentialBaseUrl,
	type ApiCredentials,
	missingApiPath,
	parsedBaseUrl,
	redact,
} from './apiCredentials';
import { CREDENTIAL_TYPE } from './constants';
import { DEFAULT_RETRY } from './retry';
import { sendForAnswer, type Session } from './transport';

/** How long the credential dialog waits for the API: one attempt, not repeated. */
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
	return body !== null && typeof body === 'object'
		? (body as { error?: { code?: unknown } }).error?.code
		: undefined;
}

/** What the dialog says about the API's answer to GET /customers?limit=1 from `baseUrl`. */
function verdict(answer: Answer, baseUrl: string): INodeCredentialTestResult {
	const code = errorCode(answer.body);
	if (code === 'ERR_UNAUTHORIZED' || (answer.statusCode === 401 && code === undefined))
		return fail(CREDENTIAL_TEST_MESSAGES.unauthorized);
	if (code === 'ERR_FORBIDDEN' || (answer.statusCode === 403 && code === undefined))
		return fail(CREDENTIAL_TEST_MESSAGES.forbidden);
	if (answer.statusCode >= 300 && answer.statusCode < 400) {
		const location = answer.location ? ` to ${answer.location}` : '';
		return fail(
			`The Base URL answered with a redirect${location} (HTTP ${answer.statusCode}): the key is not sent on, so set the Base URL to the API's own address, ending in /api/v2`,
		);
	}
	const missing = answer.statusCode === 404 ? missingApiPath(baseUrl) : undefined;
	if (missing)
		return fail(`${missing.advice.charAt(0).toUpperCase()}${missing.advice.slice(1)} (HTTP 404)`);
	const body = answer.body as { results?: unknown } | null;
	if (
		answer.statusCode >= 200 &&
		answer.statusCode < 300 &&
		body !== null &&
		typeof body === 'object' &&
		Array.isArray(body.results)
	) {
		return { status: 'OK', message: 'Connection successful' };
	}
	return fail(`${CREDENTIAL_TEST_MESSAGES.notTheList} (HTTP ${answer.statusCode})`);
}

/** The node the transport's errors name: the credential test runs outside any node. */
const CREDENTIAL_TEST_NODE: INode = {
	id: 'credential-test',
	name: 'Credential test',
	type: CREDENTIAL_TYPE,
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** GET /customers?limit=1 with the key, through the nodes' transport; what the API answered, whatever its status. */
async function listOneCustomer(
	ctx: ICredentialTestFunctions,
	baseURL: string,
	apiKey: string | undefined,
): Promise<Answer | { networkCode: string }> {
	const session: Session = {
		ctx,
		node: CREDENTIAL_TEST_NODE,
		itemIndex: 0,
		secret: apiKey,
		retry: {
			...DEFAULT_RETRY,
			maxRetries: 0,
			attemptTimeoutMs: TEST_TIMEOUT_MS,
			totalTimeoutMs: TEST_TIMEOUT_MS,
		},
		safeToRepeat: true,
	};
	try {
		const answer = await sendForAnswer(session, {
			method: 'GET',
			baseURL,
			url: '/customers',
			qs: { limit: 1 },
		});
		return { statusCode: answer.status, body: answer.body };
	} catch (error) {
		const failure = failureOf(error) ?? { type: 'network', code: 'ERR_NETWORK' };
		if (failure.type === 'network') return { networkCode: failure.code };
		const location =
			failure.type === 'http' && typeof failure.headers.location === 'string'
				? redact(failure.headers.location, apiKey)
				: undefined;
		return { statusCode: failure.status, location, body: failure.body };
	}
}

/**
 * The credential dialog's test: the base URL of the chosen environment is checked as the nodes
 * check it (an http address on another machine is refused, and the key is not sent), then one
 * customer is listed with the key.
 */
export async function testApiCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = (credential.data ?? {}) as ApiCredentials;
	const environment = data.environment === 'staging' ? 'Staging' : 'Production';
	const parsed = parsedBaseUrl(credentialBaseUrl(data));
	if ('problem' in parsed) {
		if (parsed.problem === 'invalid') {
			return fail(
				`Set the ${environment} Base URL to the API's address, such as https://billing.example.com/api/v2${parsed.text ? ` ("${parsed.text}" is not an address)` : ''}`,
			);
		}
		return fail(
			`The ${environment} Base URL must use https: ${parsed.text} is plain http on another machine, and the API key is never sent over http off this machine (only localhost and 127.0.0.1 may use http). Change it to https://… — the key was not sent.`,
		);
	}
	const baseUrl = parsed.url.href.replace(/\/+$/, '');
	const answer = await listOneCustomer(this, baseUrl, data.apiKey);
	if ('statusCode' in answer) return verdict(answer, baseUrl);
	const why =
		answer.networkCode === 'ETIMEDOUT'
			? `no answer within ${TEST_TIMEOUT_MS / 1000} s`
			: answer.networkCode;
	return fail(
		`Could not connect to ${parsed.url.origin} (${why}): check the ${environment} Base URL and that the API can be reached from n8n`,
	);
}
