/**
 * What the n8n process keeps goes by its own timers, with nothing else running: per trigger once the
 * trigger's next poll is overdue (trigger/keptPerTrigger.ts: twice the longest wait between its Poll
 * Times, and 5 minutes more), and a request budget that learned a 429 KEEP_IDLE_MS after its last
 * use (shared/requestBudget.ts). The timers check every 10 s against the test's clock, which is moved
 * forward. test/triggerProcessState.test.cts publishes a real trigger.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import {
	heldBudgets,
	KEEP_IDLE_MS,
	requestBudget,
} from '../nodes/SubscriptionBilling/shared/requestBudget';
import {
	keptPerTrigger,
	longestWaitMs,
	OVERDUE_GRACE_MS,
	pollEnded,
	pollStarted,
	triggersKept,
} from '../nodes/SubscriptionBilling/trigger/keptPerTrigger';
import { moveClock, untilChecked } from './helpers/clock.cjs';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const polling = (item?: IDataObject[]) =>
	({
		getNodeParameter: (name: string, fallback: unknown) =>
			name === 'pollTimes' && item !== undefined ? { item } : fallback,
	}) as unknown as IPollFunctions;

test.each([
	['n8n’s default (every minute)', undefined, MINUTE],
	['every minute', [{ mode: 'everyMinute' }], MINUTE],
	['every 15 minutes', [{ mode: 'everyX', value: 15, unit: 'minutes' }], 15 * MINUTE],
	['every 2 hours', [{ mode: 'everyX', value: 2, unit: 'hours' }], 2 * 60 * MINUTE],
	['every day', [{ mode: 'everyDay', hour: 9, minute: 0 }], DAY],
	['every week', [{ mode: 'everyWeek', hour: 9, minute: 0, weekday: '1' }], 7 * DAY],
	['every month (the 31st skips short months)', [{ mode: 'everyMonth', dayOfMonth: 31 }], 62 * DAY],
	['every day and every hour', [{ mode: 'everyDay' }, { mode: 'everyHour' }], 60 * MINUTE],
	['a cron of every 10 minutes', [{ mode: 'custom', cronExpression: '*/10 * * * *' }], 60 * MINUTE],
	['a cron on weekdays at 9', [{ mode: 'custom', cronExpression: '0 0 9 * * 1-5' }], 7 * DAY],
	['a cron that names months', [{ mode: 'custom', cronExpression: '0 9 1 1 *' }], Infinity],
	['no poll times (n8n polls only as it publishes)', [], 0],
])('the longest wait between polls of a trigger polling %s', (_, item, wait) => {
	expect(longestWaitMs(polling(item))).toBe(wait);
});

test('what is kept for a trigger goes once its next poll is overdue, by its own timer; a budget that learned a 429 goes once idle KEEP_IDLE_MS', async () => {
	const forgotten: string[] = [];
	keptPerTrigger((key) => forgotten.push(key));
	const budget = requestBudget('execution-1', 'https://api.example.com', 16);
	const ticket = await budget.acquire();
	ticket.release('rateLimited', 1000);
	expect(heldBudgets('execution-1')).toBe(1);
	expect(KEEP_IDLE_MS).toBeLessThan(2 * MINUTE + OVERDUE_GRACE_MS);

	pollEnded(polling(), 'every minute, unpublished');
	pollEnded(polling([{ mode: 'everyHour' }]), 'every hour');
	pollStarted('a long poll');
	moveClock(2 * MINUTE + OVERDUE_GRACE_MS + 1000);
	expect(await untilChecked(() => forgotten.length > 0)).toBe(true);
	expect(forgotten).toEqual(['every minute, unpublished']);
	expect(triggersKept()).toBe(2);
	expect(heldBudgets('execution-1')).toBe(0);

	pollEnded(polling(), 'a long poll');
	moveClock(2 * 60 * MINUTE + OVERDUE_GRACE_MS);
	expect(await untilChecked(() => triggersKept() === 0)).toBe(true);
	expect(forgotten.sort()).toEqual(['a long poll', 'every hour', 'every minute, unpublished']);
	expect(heldBudgets()).toBe(0);
});
