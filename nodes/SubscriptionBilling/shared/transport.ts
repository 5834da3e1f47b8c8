import {
	sleepWithAbort,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type INode,
} from 'n8n-workflow';
import { toNodeError } from './apiError';
import { CREDENTIAL_TYPE } from './constants';
import { DEFAULT_RETRY, isRetryable, retryDelayMs, type Failure, type RetrySettings } from './retry';

/** Everything one item's requests share: the node, the item, the key to redact and how to retry. */
export interface Session {
	ctx: IExecutePaginationFunctions;
	node: INode;
	itemIndex: number;
	secret?: string;
	retry: RetrySettings;
	safeToRepeat: boolean;
}

function networkFailure(error: unknown): Failure {
	const cause = (error as { cause?: { code?: string; message?: string } }).cause;
	const code = cause?.code ?? (error as { code?: string }).code ?? 'ERR_NETWORK';
	const detail = cause?.message ?? (error as Error).message ?? 'request failed';
	return { type: 'network', code: String(code), detail: String(detail) };
}

function describeRequest(options: IHttpRequestOptions): string {
	const path = new URL(options.baseURL ? `${options.baseURL}${options.url}` : options.url).pathname;
	return `${options.method ?? 'GET'} ${path}`;
}

export async function sendWithRetries(session: Session, options: IHttpRequestOptions): Promise<unknown> {
	const { ctx, retry } = session;
	for (let attempt = 0; ; attempt++) {
		let failure: Failure;
		try {
			const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, {
				...options,
				headers: { ...options.headers },
				json: true,
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
			})) as IN8nHttpFullResponse;
			if (response.statusCode < 400) return response.body;
			failure = { type: 'http', status: response.statusCode, body: response.body, headers: response.headers as IDataObject };
		} catch (error) {
			failure = networkFailure(error);
		}
		if (attempt >= retry.maxRetries || !isRetryable(failure, session.safeToRepeat)) {
			throw toNodeError(session.node, failure, {
				itemIndex: session.itemIndex,
				secret: session.secret,
				attempts: attempt + 1,
				request: describeRequest(options),
			});
		}
		await sleepWithAbort(retryDelayMs(attempt, failure, retry), ctx.getExecutionCancelSignal());
	}
}

export { DEFAULT_RETRY };
