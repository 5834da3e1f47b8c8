import * as workflow from 'n8n-workflow';
import { ManualExecutionCancelledError } from 'n8n-workflow';

type SleepWithAbort = (ms: number, signal?: AbortSignal) => Promise<void>;

/** n8n-workflow 1.98–2.40 export it; 2.41 dropped it and keeps only `sleep`. */
const sleepWithAbort = (workflow as { sleepWithAbort?: SleepWithAbort }).sleepWithAbort;

/** Without sleepWithAbort, a long wait is slept in slices so that a cancelled execution stops within one. */
const SLICE_MS = 250;

function stopIfCancelled(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new ManualExecutionCancelledError('');
}

/**
 * Waits `ms`, ending early with n8n's cancellation error when the execution is cancelled, on every
 * n8n release the package supports.
 */
export async function wait(ms: number, signal?: AbortSignal): Promise<void> {
	if (sleepWithAbort) return await sleepWithAbort(ms, signal);
	const until = Date.now() + ms;
	for (let left = ms; left > 0; left = until - Date.now()) {
		stopIfCancelled(signal);
		await workflow.sleep(Math.min(left, SLICE_MS));
	}
	stopIfCancelled(signal);
}
