import { deepCopy, type IDataObject, type IPollFunctions } from 'n8n-workflow';
import { logLine } from '../shared/logLine';
import { triggerKeyOf } from '../shared/keptInProcess';
import { keptPerTrigger, pollEnded, pollStarted } from './keptPerTrigger';

interface Running {
	since: Date;
	/** The node's name when the poll started: what it leaves belongs under that name. */
	nodeName: string;
	/** What the running poll left in the node's static data; undefined when it failed. */
	finished: Promise<IDataObject | undefined>;
}

/** Polls in progress in this n8n process, per trigger (workflow and node). */
const running = new Map<string, Running>();
let waiting = 0;

/**
 * The state the last successful poll of each trigger left, and the states it has replaced: one
 * entry per trigger, replaced by each poll, gone once the trigger's next poll is overdue
 * (trigger/keptPerTrigger.ts). With durable cursors n8n hands a poll the state it read from its
 * database when the poll was scheduled, and saves the state of a poll that emitted only with its
 * execution, afterwards: a poll scheduled in between would start from the state before, and emit
 * the same items again. Each state a poll leaves is marked in the node's static data (`pollBoot`:
 * this process, `pollSeq`: its number, `pollAt`: when the poll ended, epoch ms). A poll handed a
 * state this process has already moved on from (one an earlier poll started from or left, including
 * a state saved before n8n restarted) continues from the last one instead. A state it has never
 * seen (another process polled meanwhile) is taken as it is.
 *
 * Only under the node name the last state was left under (`nodeName`): n8n keeps a node's static
 * data under its name (unless durable cursors keep it under the node's ID), so a renamed trigger is
 * handed what n8n keeps under the new name and takes it as it is, as it would after a restart.
 */
interface Latest {
	state: IDataObject;
	replaced: string[];
	nodeName: string;
}
const latest = new Map<string, Latest>();
keptPerTrigger((key) => latest.delete(key));
/** How many replaced states' marks each trigger's entry keeps. */
export const REPLACED_KEPT = 32;
const BOOT = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
let sequence = 0;

const markOf = (data: IDataObject): string =>
	typeof data.pollSeq === 'number' ? `${String(data.pollBoot)}:${data.pollSeq}` : 'unmarked';

function catchUp(data: IDataObject, key: string, nodeName: string): string {
	const handed = markOf(data);
	const last = latest.get(key);
	if (last?.nodeName === nodeName && last.replaced.includes(handed))
		adopt(data, deepCopy(last.state));
	return handed;
}

function remember(data: IDataObject, key: string, handed: string, nodeName: string): IDataObject {
	const last = latest.get(key);
	const before = last?.nodeName === nodeName ? last.replaced : [];
	const replaced = [...new Set([...before, handed, markOf(data)])].slice(-REPLACED_KEPT);
	data.pollBoot = BOOT;
	data.pollSeq = ++sequence;
	data.pollAt = Date.now();
	const state = deepCopy(data);
	latest.set(key, { state, replaced, nodeName });
	return state;
}

/**
 * Makes the static data of a poll that emits nothing the state the poll before it left. With
 * durable cursors (n8n 2.36+), each poll works on its own copy of the state and n8n saves that copy
 * when the poll returns, so a skipped poll must not hand back the state it started from.
 */
function adopt(target: IDataObject, state: IDataObject | undefined): void {
	if (!state) return;
	for (const key of Object.keys(target)) delete target[key];
	Object.assign(target, state);
}

/**
 * Runs one poll of a trigger unless another poll of the same trigger is still running: then this
 * one reads nothing and emits nothing, says so in n8n's log, and returns once the running poll has
 * ended, holding the state it left. Two polls reading the same state would otherwise emit the same
 * items twice; so would a poll handed a state older than the last one (see `latest`). Fetch Test
 * Event (manual) changes no state: not held.
 */
export async function exclusivePoll<T>(
	ctx: IPollFunctions,
	poll: () => Promise<T>,
): Promise<T | null> {
	if (ctx.getMode() === 'manual') return await poll();
	const key = triggerKeyOf(ctx);
	const current = running.get(key);
	if (current) {
		logLine(
			ctx,
			'warn',
			`poll skipped, the previous poll of this trigger (started ${current.since.toISOString()}) is still running. Poll less often, or lower Requests Per Poll.`,
		);
		waiting++;
		try {
			const left = await current.finished;
			if (current.nodeName === ctx.getNode().name) adopt(ctx.getWorkflowStaticData('node'), left);
		} finally {
			waiting--;
		}
		return null;
	}
	let finish: (state: IDataObject | undefined) => void = () => {};
	const nodeName = ctx.getNode().name;
	pollStarted(key);
	running.set(key, {
		since: new Date(),
		nodeName,
		finished: new Promise((resolve) => (finish = resolve)),
	});
	let left: IDataObject | undefined;
	try {
		const handed = catchUp(ctx.getWorkflowStaticData('node'), key, nodeName);
		const result = await poll();
		left = deepCopy(remember(ctx.getWorkflowStaticData('node'), key, handed, nodeName));
		return result;
	} finally {
		finish(left);
		running.delete(key);
		pollEnded(ctx, key);
	}
}

/**
 * Whether n8n restarted since the poll that left the state this poll starts from: another n8n
 * process left it, and this process has not polled the trigger yet (else another instance polled
 * meanwhile). When that poll ended (`at`; undefined in a state marked before it was kept).
 */
export function restartedSince(ctx: IPollFunctions): { at?: number } | undefined {
	const data = ctx.getWorkflowStaticData('node');
	if (typeof data.pollBoot !== 'string' || data.pollBoot === BOOT || latest.has(triggerKeyOf(ctx)))
		return undefined;
	return { at: typeof data.pollAt === 'number' ? data.pollAt : undefined };
}

/** Skipped polls waiting for the poll they overlapped to end (for tests). */
export function skippedPollsWaiting(): number {
	return waiting;
}

/** What this process holds (for tests): per trigger its kept state's count of replaced marks, and the polls running. */
export function heldPollStates(): { replacedKept: Map<string, number>; running: number } {
	const replacedKept = new Map([...latest].map(([key, last]) => [key, last.replaced.length]));
	return { replacedKept, running: running.size };
}
