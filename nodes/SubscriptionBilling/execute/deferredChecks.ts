import type { IExecuteSingleFunctions, IHttpRequestOptions, PreSendAction } from 'n8n-workflow';
import { keepWithRequest, keptWithRequest, takeFromRequest } from './n8nRoutingInsides';

/**
 * A check that failed before the request (preSend) is kept with the request, and the later checks
 * are skipped: the request step (perform.ts) then fails the item itself, so that a failed check
 * stops the whole run before anything is sent (RunGate), and on Continue On Fail gives the same
 * error item as an API error (n8n's own would carry the message only).
 */
export function deferFailures(steps: PreSendAction[]): PreSendAction[] {
	return steps.map(
		(step) =>
			async function (
				this: IExecuteSingleFunctions,
				options: IHttpRequestOptions,
			): Promise<IHttpRequestOptions> {
				if (keptWithRequest(options)) return options;
				try {
					return await step.call(this, options);
				} catch (error) {
					return keepWithRequest(options, { failure: error });
				}
			},
	);
}

/** Throws the failure a check kept with the request, if any. */
export function throwDeferred(options: IHttpRequestOptions): void {
	const kept = takeFromRequest(options) as { failure: unknown } | undefined;
	if (kept) throw kept.failure;
}
