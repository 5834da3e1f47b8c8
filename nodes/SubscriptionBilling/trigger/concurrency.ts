/**
 * Runs `task` for every entry, `width` at a time. After a failure no further task starts; the
 * first error is thrown once the tasks already running have settled.
 */
export async function forEachConcurrently<T>(entries: T[], width: number, task: (entry: T) => Promise<void>): Promise<void> {
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (failure === undefined && next < entries.length) {
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
}
