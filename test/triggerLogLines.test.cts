/**
 * What the trigger writes to n8n's log, through n8n-core with n8n's logger captured
 * (test/harness/environment.cts: the line, then the metadata n8n's logger was given): each line
 * names the trigger's workflow and gives n8n its ID; the pass line gives the pass's time to the
 * second and says when a restart of n8n lengthened it. Each poll is moved on the tests' clock
 * (test/clock.js) to 0.3 s before a whole minute: a time n8n's log once gave as "… min 60 s".
 */
import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from './helpers/billing.cjs';
import { moveClock } from './helpers/clock.cjs';
import { activeTrigger, restartedTrigger } from './helpers/trigger.cjs';
import type { Poller } from './harness/index.cjs';
import type { TriggerState } from '../nodes/SubscriptionBilling/trigger/state/triggerState';

// Pages of 5 customers, 30 customers and Requests Per Poll 10: a pass spans four polls or more.
const sandbox = useSandbox({ maxPageSize: 5 });
const CUSTOMERS = 30;
beforeEach(() => {
	for (let n = (sandbox.state.customers as Map<string, unknown>).size; n < CUSTOMERS; n++)
		sandbox.world.createCustomer({ name: `Log Line Customer ${n}` });
});
const parameters = {
	events: ['invoicePaid', 'invoicePaymentFailed'],
	scope: 'all',
	requestsPerPoll: 10,
};
const DUNNING = { id: 'wf-dunning', name: 'Dunning' };
const REMINDERS = { id: 'wf-reminders', name: 'Reminders' };
const NODE = 'Subscription Billing Trigger';

/** A line's start and end (n8n's metadata) for the default node name in `workflow`, as patterns. */
const start = (level: string, { id, name }: { id: string; name: string }) =>
	`^\\[${level}\\] Subscription Billing Trigger "${NODE}" in workflow "${name}" \\(${id}\\): `;
const metadata = ({ id }: { id: string }) => ` \\{"workflowId":"${id}","node":"${NODE}"\\}$`;
const ENDED = `a pass over all ${CUSTOMERS} customers ended: `;
const TAIL =
	'A change is reported within one pass; Requests Per Poll sets how many polls a pass takes\\.';

const sweepOf = (trigger: Poller) =>
	(trigger.nodeStaticData.trigger as TriggerState).invoices!.sweep;

/** One scheduled poll 0.3 s before `minute` whole minutes after `origin` (epoch ms); its log lines added to `logs`. */
async function pollBefore(
	trigger: Poller,
	origin: number,
	minute: number,
	logs: string[],
): Promise<void> {
	const ahead = origin + minute * 60_000 - 300 - Date.now();
	expect(ahead).toBeGreaterThan(0);
	moveClock(ahead);
	const { error, logs: lines } = await trigger.poll();
	if (error) throw error;
	logs.push(...lines);
}

/** Scheduled polls, one a minute from `minute` after the pass started, until it ends: the minute it ended. */
async function pollUntilPassEnds(trigger: Poller, minute: number, logs: string[]): Promise<number> {
	const { startedAt } = sweepOf(trigger);
	for (let at = minute; at < minute + 20; at++) {
		await pollBefore(trigger, startedAt, at, logs);
		if (sweepOf(trigger).nextCustomer === undefined) return at;
	}
	throw new Error('the pass did not end within 20 polls');
}

test('two workflows whose triggers keep the default name: each line names its workflow and gives n8n its ID', async () => {
	for (const workflow of [DUNNING, REMINDERS]) {
		const trigger = activeTrigger(sandbox, parameters, undefined, { workflow });
		const published = await trigger.activate();
		const logs = [...published.logs];
		await pollUntilPassEnds(trigger, 1, logs);
		expect(logs).toEqual([
			expect.stringMatching(
				new RegExp(`${start('info', workflow)}${ENDED}.*${metadata(workflow)}`),
			),
		]);
	}
});

test('a pass ending 0.3 s before a whole minute reads that minute and 0 s, never 60 s; without a restart the line says nothing of one', async () => {
	const trigger = activeTrigger(sandbox, parameters, undefined, { workflow: DUNNING });
	await trigger.activate();
	const logs: string[] = [];
	const ended = await pollUntilPassEnds(trigger, 1, logs);
	const { polls } = sweepOf(trigger);
	expect(logs).toEqual([
		expect.stringMatching(
			new RegExp(
				`${start('info', DUNNING)}${ENDED}${polls} polls, ${ended} min 0 s since it started\\. ${TAIL}${metadata(DUNNING)}`,
			),
		),
	]);
});

test('the poll n8n runs as it starts says what the trigger does from the state n8n saved, naming the workflow', async () => {
	const trigger = activeTrigger(sandbox, parameters, undefined, { workflow: DUNNING });
	await trigger.activate();
	await trigger.poll();
	const { items, logs } = await restartedTrigger(trigger);
	expect(items).toEqual([]);
	expect(logs).toEqual([
		`[info] Subscription Billing Trigger "${NODE}" in workflow "Dunning" (wf-dunning): n8n started: what changed while it was stopped is reported from the next scheduled poll on, each change once. That poll goes on from the state n8n saved last (after publishing, or after this trigger's last poll that emitted items), reading again what the polls since then had read. This poll reads nothing, so that the workflows n8n activates after this one are not held. {"workflowId":"wf-dunning","node":"${NODE}"}`,
	]);
});

test.each([
	['without durable cursors: it goes on from the state saved at publishing', false],
	['with durable cursors: it goes on from the state of its last poll', true],
])(
	'n8n restarted during the first pass, %s; the pass line counts the polls a pass takes, gives its time to the second and says what the restart took',
	async (_how, durableCursors) => {
		const trigger = activeTrigger(sandbox, parameters, undefined, {
			workflow: DUNNING,
			durableCursors,
		});
		expect((await trigger.activate()).error).toBeUndefined();
		const logs: string[] = [];
		// One scheduled poll, emitting nothing: saved only with durable cursors.
		await pollBefore(trigger, sweepOf(trigger).startedAt, 1, logs);
		const saved = trigger.saved[`node:${NODE}`] as IDataObject & { trigger: TriggerState };
		const savedAt = saved.pollAt as number;
		const pollsSaved = saved.trigger.invoices!.sweep.polls!;
		const restarted = (await restartedTrigger(trigger)).trigger;
		// The first poll after the restart 5 minutes less 0.3 s after that state was saved.
		await pollBefore(restarted, savedAt, 5, logs);
		expect(sweepOf(restarted).nextCustomer).toBeDefined();
		const ended = await pollUntilPassEnds(restarted, durableCursors ? 7 : 6, logs);
		const { polls } = sweepOf(restarted);
		// The polls since the saved state are counted once: as many as a pass without a restart takes.
		expect(polls).toBe(pollsSaved + 1 + ended - (durableCursors ? 6 : 5));
		const counted = `${polls} polls`;
		expect(logs).toEqual([
			expect.stringMatching(
				new RegExp(
					`${start('info', DUNNING)}${ENDED}${counted}, ${ended} min 0 s since it started\\. n8n restarted during the pass: the trigger went on from the state n8n had saved last \\(at ${new Date(savedAt).toISOString().replace(/\./g, '\\.')}\\), reading again what the polls after it had read \\(not counted in the ${counted}\\); 5 min 0 s went by from that state to the first poll after the restart\\. ${TAIL}${metadata(DUNNING)}`,
				),
			),
		]);
		expect(logs.join('\n')).not.toMatch(/\b60 s\b/);
	},
);
