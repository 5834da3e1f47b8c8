/**
 * The wait between retries and during a rate-limit pause, on n8n releases whose n8n-workflow has
 * sleepWithAbort (up to 2.40) and on those where it is gone (2.41: only `sleep`).
 */
type Wait = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The module is loaded in isolation with its own copy of n8n-workflow, so the class is compared by name. */
async function expectCancelled(waiting: Promise<void>): Promise<void> {
	const error = await waiting.then(
		() => undefined,
		(reason: unknown) => reason,
	);
	expect((error as Error | undefined)?.constructor.name).toBe('ManualExecutionCancelledError');
}

function loadWait(withoutSleepWithAbort: boolean): { wait: Wait; sleeps: number[] } {
	const sleeps: number[] = [];
	let wait: Wait | undefined;
	jest.isolateModules(() => {
		jest.doMock('n8n-workflow', () => {
			const actual = jest.requireActual('n8n-workflow');
			const sleep = async (ms: number) => {
				sleeps.push(ms);
				await actual.sleep(Math.min(ms, 5));
			};
			return withoutSleepWithAbort ? { ...actual, sleepWithAbort: undefined, sleep } : actual;
		});
		({ wait } = require('../nodes/SubscriptionBilling/shared/retry'));
	});
	jest.dontMock('n8n-workflow');
	return { wait: wait!, sleeps };
}

describe.each([
	['with sleepWithAbort (n8n up to 2.40)', false],
	['without sleepWithAbort (n8n 2.41)', true],
])('wait %s', (_release, withoutSleepWithAbort) => {
	it('resolves after the wait', async () => {
		const { wait } = loadWait(withoutSleepWithAbort);
		await expect(wait(20)).resolves.toBeUndefined();
	});

	it("stops with n8n's cancellation error when the execution is already cancelled", async () => {
		const { wait } = loadWait(withoutSleepWithAbort);
		const controller = new AbortController();
		controller.abort();
		await expectCancelled(wait(60_000, controller.signal));
	});

	it('stops a long wait when the execution is cancelled during it', async () => {
		const { wait } = loadWait(withoutSleepWithAbort);
		const controller = new AbortController();
		const waiting = wait(10 * 60_000, controller.signal);
		controller.abort();
		await expectCancelled(waiting);
	});
});

it('without sleepWithAbort, sleeps the whole wait in short slices and no longer', async () => {
	const { wait, sleeps } = loadWait(true);
	await wait(1000);
	expect(sleeps.length).toBeGreaterThan(1);
	expect(Math.max(...sleeps)).toBeLessThanOrEqual(250);
	expect(sleeps.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(1000 - 250);
});
