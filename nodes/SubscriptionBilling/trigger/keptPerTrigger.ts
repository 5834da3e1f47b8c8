import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { repeatWhileHeld } from '../shared/keptInProcess';

/**
 * What this n8n process keeps per trigger between its polls (trigger/pollLock.ts's last state,
 * trigger/startupPoll.ts's note that it polled) goes once the trigger has not polled for twice the
 * longest wait between its poll times and OVERDUE_GRACE_MS more: n8n tells a poll node nothing when
 * it unpublishes or deletes the workflow, so a trigger that stopped polling is taken as closed
 * (docs/trigger.md, what the n8n process keeps per trigger).
 */
export const OVERDUE_GRACE_MS = 5 * 60_000;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A day of the month n8n polls on comes again within two months (the 31st skips short months). */
const MONTH_DAY = 62 * DAY;

/** How often what is kept is checked while there is any. */
export const CHECK_EVERY_MS = 10_000;

const forgetters: Array<(key: string) => void> = [];
/** Per trigger, when what is kept for it goes (epoch ms; Infinity while a poll runs). */
const dueBy = new Map<string, number>();

const checkLater = repeatWhileHeld(
	CHECK_EVERY_MS,
	() => {
		const now = Date.now();
		for (const [key, due] of dueBy) {
			if (due > now) continue;
			dueBy.delete(key);
			for (const forget of forgetters) forget(key);
		}
	},
	() => dueBy.size > 0,
);

/** Registers how a module forgets what it keeps for one trigger. */
export function keptPerTrigger(forget: (key: string) => void): void {
	forgetters.push(forget);
}

/** A poll of the trigger started: nothing kept for it goes while it runs. */
export function pollStarted(key: string): void {
	dueBy.set(key, Infinity);
	checkLater();
}

/** A poll of the trigger ended: what is kept for it goes if no poll follows in time. */
export function pollEnded(ctx: IPollFunctions, key: string): void {
	dueBy.set(key, Date.now() + 2 * longestWaitMs(ctx) + OVERDUE_GRACE_MS);
	checkLater();
}

/** The triggers something is kept for (for tests). */
export function triggersKept(): number {
	return dueBy.size;
}

/**
 * The longest n8n waits between two polls of the trigger: the shortest of its Poll Times' longest
 * waits (n8n polls at each). A custom cron expression's is bounded by its coarsest field that is not
 * `*`; one that names months keeps what the trigger holds until n8n stops.
 */
export function longestWaitMs(ctx: IPollFunctions): number {
	const { item = [] } = ctx.getNodeParameter('pollTimes', {
		item: [{ mode: 'everyMinute' }],
	}) as { item?: IDataObject[] };
	return item.length === 0 ? 0 : Math.min(...item.map(waitOf));
}

function waitOf(time: IDataObject): number {
	switch (time.mode) {
		case 'everyMinute':
			return MINUTE;
		case 'everyHour':
			return HOUR;
		case 'everyDay':
			return DAY;
		case 'everyWeek':
			return 7 * DAY;
		case 'everyMonth':
			return MONTH_DAY;
		case 'everyX': {
			const wait = Number(time.value) * (time.unit === 'hours' ? HOUR : MINUTE);
			return wait > 0 ? wait : Infinity;
		}
		default:
			return cronWait(String(time.cronExpression ?? ''));
	}
}

function cronWait(expression: string): number {
	const fields = expression.trim().split(/\s+/);
	const [minute, hour, dayOfMonth, month, weekday] = fields.slice(fields.length === 6 ? 1 : 0);
	const named = (field: string | undefined) =>
		field !== undefined && field !== '*' && field !== '?';
	if (named(month)) return Infinity;
	if (named(dayOfMonth)) return MONTH_DAY;
	if (named(weekday)) return 7 * DAY;
	if (named(hour)) return DAY;
	if (named(minute)) return HOUR;
	return MINUTE;
}
