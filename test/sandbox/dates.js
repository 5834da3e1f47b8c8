'use strict';
// Calendar helpers on UTC dates (YYYY-MM-DD strings and epoch milliseconds).

const DAY_MS = 86400000;

function dateToMs(date) {
	return Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10));
}

function msToDate(ms) {
	return new Date(ms).toISOString().slice(0, 10);
}

/** ISO 8601 UTC date-time without milliseconds, e.g. 2026-01-01T00:00:00Z. */
function msToDateTime(ms) {
	return new Date(ms).toISOString().slice(0, 19) + 'Z';
}

function addDays(date, days) {
	return msToDate(dateToMs(date) + days * DAY_MS);
}

/** Adds calendar months, clamping the day to the end of the target month. */
function addMonths(date, months) {
	const y = +date.slice(0, 4);
	const m = +date.slice(5, 7) - 1 + months;
	const d = +date.slice(8, 10);
	const ty = y + Math.floor(m / 12);
	const tm = ((m % 12) + 12) % 12;
	const last = new Date(Date.UTC(ty, tm + 1, 0)).getUTCDate();
	return msToDate(Date.UTC(ty, tm, Math.min(d, last)));
}

/** Last day of a term of `months` months starting on `start`. */
function termEnd(start, months) {
	return addDays(addMonths(start, months), -1);
}

function todayDate() {
	return msToDate(Date.now());
}

module.exports = {
	DAY_MS,
	dateToMs,
	msToDate,
	msToDateTime,
	addDays,
	addMonths,
	termEnd,
	todayDate,
};
