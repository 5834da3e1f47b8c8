/**
 * The tests' clock (test/clock.js) and the sandbox world that moves with the clock's day
 * (test/sandbox/seed.js): what lets every suite pass on any day, and the demo look current.
 */
import type { IDataObject } from 'n8n-workflow';

const { buildState, SEED_TODAY } = require('./sandbox/seed') as {
	buildState: () => { state: Record<string, Map<string, IDataObject>>; fixtures: IDataObject };
	SEED_TODAY: string;
};

const DAY_MS = 86_400_000;
const days = (later: unknown, earlier: unknown) =>
	(Date.parse(String(later)) - Date.parse(String(earlier))) / DAY_MS;

test("a unit test runs on the sandbox world's day, at noon UTC, and its clock runs on", async () => {
	const first = Date.now();
	expect(new Date().toISOString().slice(0, 10)).toBe(SEED_TODAY);
	expect(new Date(first).getUTCHours()).toBe(12);
	await new Promise((resolve) => setTimeout(resolve, 20));
	expect(Date.now()).toBeGreaterThan(first);
	expect(new Date() instanceof Date).toBe(true);
	expect(Date()).toContain(String(new Date().getFullYear()));
	expect(new Date('2030-01-01T00:00:00Z').toISOString()).toBe('2030-01-01T00:00:00.000Z');
});

test.each([
	['800 days later', 800],
	['past the turn of a year', 108],
	['a month earlier', -31],
])(
	'%s, every seeded date moves with the clock: the world as seen from today is the same',
	(_, by) => {
		const onItsDay = buildState();
		const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + by * DAY_MS);
		let moved: ReturnType<typeof buildState>;
		try {
			moved = buildState();
		} finally {
			clock.mockRestore();
		}
		expect(days(moved.fixtures.today, onItsDay.fixtures.today)).toBe(by);
		expect({ ...moved.fixtures, today: SEED_TODAY }).toEqual(onItsDay.fixtures);
		for (const [id, subscription] of onItsDay.state.subscriptions) {
			const later = moved.state.subscriptions.get(id) as IDataObject;
			for (const field of ['starts_at', 'ends_at', 'renews_at', 'term_starts_at'])
				if (subscription[field]) expect(days(later[field], subscription[field])).toBe(by);
			expect(later.status).toBe(subscription.status);
			expect(later.pauses).toEqual(
				(subscription.pauses as IDataObject[]).map((pause) => ({
					paused_at: new Date(Date.parse(String(pause.paused_at)) + by * DAY_MS)
						.toISOString()
						.replace('.000Z', 'Z'),
					resume_at:
						pause.resume_at &&
						new Date(Date.parse(String(pause.resume_at)) + by * DAY_MS)
							.toISOString()
							.replace('.000Z', 'Z'),
				})),
			);
		}
		for (const [id, invoice] of onItsDay.state.invoicesById) {
			const later = moved.state.invoicesById.get(id) as IDataObject;
			expect(later.status).toBe(invoice.status);
			expect((Number(later.dueMs) - Number(invoice.dueMs)) / DAY_MS).toBe(by);
			expect((Number(later.issuedMs) - Number(invoice.issuedMs)) / DAY_MS).toBe(by);
		}
	},
);
