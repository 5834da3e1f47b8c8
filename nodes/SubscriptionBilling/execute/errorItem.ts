import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeExecutionData, PreSendAction } from 'n8n-workflow';
import { errorFieldsOf } from '../shared/apiError';

/**
 * The item a failed input item becomes when the node continues on fail (either output). n8n's
 * engine replaces the JSON of any item carrying an `error` object with the message alone, and it
 * routes to the error output only items whose JSON is `{ error }`; so everything lives under
 * `error`: n8n's message and description, and the API's code, HTTP status, error id and message.
 */
export function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const { message, description } = error as { message?: unknown; description?: unknown };
	return {
		json: {
			error: {
				message: typeof message === 'string' ? message : String(error),
				description: typeof description === 'string' ? description : null,
				...errorFieldsOf(error),
			},
		},
		pairedItem: { item: itemIndex },
	};
}

const DEFERRED = '__subscriptionBillingCheckFailed';

/**
 * A check that failed before the request (preSend) is kept on the request, and the later checks are
 * skipped: the request step (perform.ts) then fails the item itself, so that a failed check stops
 * the whole run before anything is sent (runGate.ts), and on Continue On Fail gives the same error
 * item as an API error (n8n's own would carry the message only).
 */
export function deferFailures(steps: PreSendAction[]): PreSendAction[] {
	return steps.map(
		(step) =>
			async function (this: IExecuteSingleFunctions, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
				if (DEFERRED in options) return options;
				try {
					return await step.call(this, options);
				} catch (error) {
					return Object.assign(options, { [DEFERRED]: error });
				}
			},
	);
}

/** Throws the failure a check kept on the request, if any. */
export function throwDeferred(options: IHttpRequestOptions): void {
	if (!(DEFERRED in options)) return;
	const failure = (options as unknown as Record<string, unknown>)[DEFERRED];
	delete (options as unknown as Record<string, unknown>)[DEFERRED];
	throw failure;
}
