/**
 * Runs `task` for every entry in order, `width` at a time, while `canStart` allows: once it
 * refuses, no further task starts (so the tasks run are a prefix of `entries`). After a failure no
 * further task starts; the first error is thrown once the tasks already running have settled.
 * Returns how many tasks ran.
 */
export async function forEachConcurrently<T>(
	entries: T[],
	width: number,
	task: (entry: T) => Promise<void>,
	canStart: () => boolean = () => true,
): Promise<number> {
	let next = 0;
	let stopped = false;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (failure === undefined && !stopped && next < entries.length) {
			if (!canStart()) {
				stopped = true;
				break;
			}
			const entry = entries[next++];
			try {
				await task(entry);
			} catch (error) {
				failure ??= { error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(width, entries.length) }, worker));
	if (failure) throw failure.error;
	return next;
}
