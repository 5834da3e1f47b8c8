import type { InvoiceSweep, SweepRestarts } from '../state/triggerState';

/** `10 min 0 s`: whole seconds, never 60 of them. */
export function duration(ms: number): string {
	const seconds = Math.round(ms / 1000);
	return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** The sweep's restarts with one more, noted by the first poll after it (`now`); `savedAt`: when the poll ended whose state it goes on from. */
export function withRestart(
	restarts: SweepRestarts | undefined,
	savedAt: number | undefined,
	now: number,
): SweepRestarts {
	const known = savedAt !== undefined && (restarts === undefined || restarts.gapMs !== undefined);
	return {
		times: (restarts?.times ?? 0) + 1,
		...(savedAt !== undefined && { savedAt }),
		...(known && { gapMs: (restarts?.gapMs ?? 0) + Math.max(0, now - savedAt) }),
	};
}

/**
 * What a pass over all customers writes to n8n's log as it ends, for a user to size Requests Per
 * Poll by: its polls (those redone after a restart counted once) and its time, whether it was the
 * catch-up from a chosen moment, and what of that time a restart of n8n took.
 */
export function passEndedLine(customers: number, sweep: InvoiceSweep, now: number): string {
	const polls = sweep.polls ?? 0;
	const counted = `${polls} poll${polls === 1 ? '' : 's'}`;
	const lines = [
		`a pass over all ${customers.toLocaleString('en-US')} customers ended: ${counted}, ${duration(now - sweep.startedAt)} since it started.`,
	];
	if (sweep.catchUp && sweep.since !== undefined)
		lines.push(
			`It was the catch-up from ${new Date(sweep.since).toISOString()}: every invoice change since then has been reported, once.`,
		);
	const restarts = sweep.restarts;
	if (restarts) {
		const once = restarts.times === 1;
		const savedAt =
			restarts.savedAt === undefined
				? ''
				: ` (${once ? 'at' : 'the last time at'} ${new Date(restarts.savedAt).toISOString()})`;
		const gap =
			restarts.gapMs === undefined
				? ''
				: `; ${duration(restarts.gapMs)} went by from ${once ? 'that state to the first poll after the restart' : 'those states to the first polls after the restarts'}`;
		lines.push(
			`n8n restarted ${once ? '' : `${restarts.times} times `}during the pass: ${once ? '' : 'each time '}the trigger went on from the state n8n had saved last${savedAt}, reading again what the polls after it had read (not counted in the ${counted})${gap}.`,
		);
	}
	lines.push(
		'A change is reported within one pass; Requests Per Poll sets how many polls a pass takes.',
	);
	return lines.join(' ');
}
