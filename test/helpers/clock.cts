import { sleep } from 'n8n-workflow';
import { CHECK_EVERY_MS } from '../../nodes/SubscriptionBilling/trigger/keptPerTrigger';

/** The tests' clock (test/clock.js): moveClock(ms) moves it forward, for the rest of the file's tests. */
export const { moveClock } = require('../clock') as { moveClock: (ms: number) => void };

/**
 * Waits for `done` after the clock moved: what the process keeps is checked on a real timer every
 * CHECK_EVERY_MS (shared/keptInProcess.ts), so at most two checks. Whether `done` came true.
 */
export async function untilChecked(done: () => boolean): Promise<boolean> {
	for (const started = performance.now(); performance.now() - started < 2 * CHECK_EVERY_MS; ) {
		if (done()) return true;
		await sleep(50);
	}
	return done();
}
