'use strict';
// The clock of every unit test (jest.config.js setupFiles): the sandbox world's "today" at noon
// UTC, running on in real time from there, whatever the machine's date. The nodes, n8n-core,
// Luxon's $now and the sandbox all run in the test's context and read this Date, so no outcome
// depends on the day the suite runs (docs/development.md, Dates in tests).
const { SEED_TODAY } = require('./sandbox/seed');

const RealDate = Date;
const TEST_NOW = RealDate.parse(`${SEED_TODAY}T12:00:00Z`);
const offset = TEST_NOW - RealDate.now();

function TestDate(...args) {
	if (!new.target) return new RealDate(TestDate.now()).toString();
	return Reflect.construct(RealDate, args.length === 0 ? [TestDate.now()] : args, new.target);
}
Object.setPrototypeOf(TestDate, RealDate);
TestDate.prototype = RealDate.prototype;
let moved = 0;
TestDate.now = () => RealDate.now() + offset + moved;

globalThis.Date = TestDate;

/** Moves the test's clock `ms` forward: what happens next happens that much later (a user editing a published trigger a minute after a change, say). */
function moveClock(ms) {
	moved += ms;
}
module.exports = { moveClock };
