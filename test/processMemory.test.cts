/**
 * What the n8n process keeps goes by its own timers, with nothing else running: per trigger once the
 * trigger's next poll is overdue (trigger/keptPerTrigger.ts: twice the longest wait between its Poll
 * Times, and 5 minutes more), and a request budget that learned a 429 KEEP_IDLE_MS after its last
 * use (shared/requestBudget.ts). test/triggerProcessState.test.cts publishes a real trigger.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import {
	heldBudgets,
	KEEP_IDLE_MS,
	requestBudget,
} from '../nodes/SubscriptionBilling/shared/requestBudget';
import {
	keptPerTrigger,
	OVERDUE_GRACE_MS,
	pollEnded,
	pollStarted,
	triggersKept,
} from '../nodes/SubscriptionBilling/trigger/keptPerTrigger';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const forgotten: string[] = [];
keptPerTrigger((key) => forgotten.push(key));

const polling = (item?: IDataObject[]) =>
	({
		getNodeParameter: (name: string, fallback: unknown) =>
			name === 'pollTimes' && item !== undefined ? { item } : fallback,
	}) as unknown as IPollFunctions;

beforeEach(() => {
	jest.useFakeTimers({ now: Date.now() });
	forgotten.length = 0;
});
afterEach(() => jest.useRealTimers());

/** How long after its poll ended a trigger polling at `item` is forgotten (to the minute). */
function forgottenAfter(key: string, item?: IDataObject[]): number | undefined {
	pollEnded(polling(item), key);
	for (let waited = 0; waited <= 130 * DAY; waited += MINUTE) {
		if (forgotten.includes(key)) return waited;
		jest.advanceTimersByTime(MINUTE);
	}
	return undefined;
}

test.each([
	['n8n’s default (every minute)', undefined, 2 * MINUTE],
	['every minute', [{ mode: 'everyMinute' }], 2 * MINUTE],
	['every 15 minutes', [{ mode: 'everyX', value: 15, unit: 'minutes' }], 30 * MINUTE],
	['every 2 hours', [{ mode: 'everyX', value: 2, unit: 'hours' }], 4 * 60 * MINUTE],
	['every day', [{ mode: 'everyDay', hour: 9, minute: 0 }], 2 * DAY],
	['every week', [{ mode: 'everyWeek', hour: 9, minute: 0, weekday: '1' }], 14 * DAY],
	['every month', [{ mode: 'everyMonth', hour: 9, minute: 0, dayOfMonth: 31 }], 124 * DAY],
	['every day and every hour', [{ mode: 'everyDay' }, { mode: 'everyHour' }], 2 * 60 * MINUTE],
	[
		'a cron of every 10 minutes',
		[{ mode: 'custom', cronExpression: '*/10 * * * *' }],
		2 * 60 * MINUTE,
	],
	['a cron on weekdays at 9', [{ mode: 'custom', cronExpression: '0 0 9 * * 1-5' }], 14 * DAY],
	['no poll times (n8n polls only as it publishes)', [], 0],
])('a trigger polling %s is forgotten when overdue', (_, item, twiceTheWait) => {
	const key = `workflow ${String(twiceTheWait)}`;
	const after = forgottenAfter(key, item);
	expect(after).toBeGreaterThan(twiceTheWait + OVERDUE_GRACE_MS - MINUTE);
	expect(after).toBeLessThanOrEqual(twiceTheWait + OVERDUE_GRACE_MS + MINUTE);
	expect(forgotten).toEqual([key]);
	expect(triggersKept()).toBe(0);
});

test('a trigger whose cron names months is kept until n8n stops, or until it polls on another schedule and that poll is overdue', () => {
	expect(
		forgottenAfter('yearly', [{ mode: 'custom', cronExpression: '0 9 1 1 *' }]),
	).toBeUndefined();
	expect(triggersKept()).toBe(1);
	pollStarted('yearly');
	pollEnded(polling(), 'yearly');
	jest.advanceTimersByTime(2 * MINUTE + OVERDUE_GRACE_MS + 1);
	expect(forgotten).toEqual(['yearly']);
});

test('nothing is forgotten while a poll runs, and each poll ended starts the wait again', () => {
	pollEnded(polling(), 'a');
	pollStarted('b');
	jest.advanceTimersByTime(2 * MINUTE + OVERDUE_GRACE_MS - MINUTE);
	pollEnded(polling(), 'a');
	jest.advanceTimersByTime(2 * MINUTE);
	expect(forgotten).toEqual([]);
	jest.advanceTimersByTime(OVERDUE_GRACE_MS);
	expect(forgotten).toEqual(['a']);
	jest.advanceTimersByTime(130 * DAY);
	expect(forgotten).toEqual(['a']);
	expect(triggersKept()).toBe(1);
	pollEnded(polling(), 'b');
	jest.advanceTimersByTime(2 * MINUTE + OVERDUE_GRACE_MS + 1);
	expect(forgotten).toEqual(['a', 'b']);
	expect(triggersKept()).toBe(0);
});

test('a budget that learned a 429 goes KEEP_IDLE_MS after its last use, with no other budget made', async () => {
	const budget = requestBudget('execution-1', 'https://api.example.com', 16);
	const ticket = await budget.acquire();
	ticket.release('rateLimited', 1000);
	jest.advanceTimersByTime(KEEP_IDLE_MS - 1000);
	expect(heldBudgets('execution-1')).toBe(1);
	jest.advanceTimersByTime(KEEP_IDLE_MS + 1000);
	expect(heldBudgets('execution-1')).toBe(0);
	expect(heldBudgets()).toBe(0);
});
