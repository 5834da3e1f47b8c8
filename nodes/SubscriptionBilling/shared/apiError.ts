import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';
import type { Failure } from './retry';
import { redact } from './redact';

interface ApiErrorBody {
	code?: string;
	message?: string;
	error_id?: string;
}

function apiErrorOf(body: unknown): ApiErrorBody | undefined {
	const error = (body as { error?: unknown } | undefined)?.error;
	return error && typeof error === 'object' ? (error as ApiErrorBody) : undefined;
}

function snippet(body: unknown): string {
	const text = typeof body === 'string' ? body : JSON.stringify(body) ?? '';
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/**
 * One error for every way a request can fail: the API's code and message in the message, the
 * HTTP status and the API's error id in the description. The key is redacted from both.
 */
export function toNodeError(
	node: INode,
	failure: Failure,
	context: { itemIndex: number; secret?: string; attempts: number; request: string },
): NodeApiError {
	const tries = context.attempts > 1 ? ` after ${context.attempts} attempts` : '';
	let message: string;
	let description: string;
	let httpCode: string;
	const details: JsonObject = { request: context.request };
	if (failure.type === 'http') {
		const apiError = apiErrorOf(failure.body);
		httpCode = String(failure.status);
		if (apiError?.code || apiError?.message) {
			message = `${apiError.code ?? 'ERR_UNKNOWN'}: ${apiError.message ?? 'no message'}`;
			description = `HTTP ${failure.status} from ${context.request}${tries}`;
			if (apiError.error_id) description += `; error id ${apiError.error_id}`;
			Object.assign(details, { code: apiError.code ?? null, apiMessage: apiError.message ?? null, errorId: apiError.error_id ?? null });
		} else {
			message = `HTTP ${failure.status}: the API answered without an error body`;
			description = `HTTP ${failure.status} from ${context.request}${tries}; body: ${snippet(failure.body) || '(empty)'}`;
		}
		details.status = failure.status;
	} else {
		httpCode = 'none';
		message = 'The Subscription Billing API could not be reached or its answer was cut off';
		description = `${failure.detail} (${failure.code}) on ${context.request}${tries}`;
		details.networkCode = failure.code;
	}
	const error = new NodeApiError(node, details, {
		message: redact(message, context.secret),
		description: redact(description, context.secret),
		httpCode,
		itemIndex: context.itemIndex,
	});
	error.message = redact(message, context.secret);
	return error;
}
