/** The tests' clock (test/clock.js): moveClock(ms) moves it forward, for the rest of the file's tests. */
export const { moveClock } = require('../clock') as { moveClock: (ms: number) => void };
