/** `2026-09-08T09:30:00`: a wall time without an offset, as n8n's date picker stores it. */
const WALL_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;
const WITH_OFFSET = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/** How far `zone` is ahead of UTC at the instant `ms` (ms). */
function zoneOffsetMs(zone: string, ms: number): number {
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		})
			.formatToParts(new Date(ms))
			.map(({ type, value }) => [type, Number(value)]),
	);
	const wall = Date.UTC(
		parts.year,
		parts.month - 1,
		parts.day,
		parts.hour,
		parts.minute,
		parts.second,
	);
	return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant (epoch ms) a Date and Time field names: a value with an offset (`Z`, `+02:00`) as
 * given; a wall time without one (what n8n's date picker stores) in the workflow's time zone
 * `zone`, as n8n's own nodes read it. Undefined when it names no instant.
 */
export function chosenMoment(value: unknown, zone: string): number | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
	// An expression may give a Luxon DateTime ($now.minus(…)).
	const text =
		typeof value === 'object' && value !== null && 'toISO' in value
			? String((value as { toISO: () => unknown }).toISO())
			: value;
	if (typeof text !== 'string') return undefined;
	const trimmed = text.trim();
	if (WITH_OFFSET.test(trimmed)) {
		const ms = Date.parse(trimmed);
		return Number.isNaN(ms) ? undefined : ms;
	}
	const wall = WALL_TIME.exec(trimmed);
	if (!wall) return undefined;
	const [year, month, day, hour, minute, second] = wall
		.slice(1, 7)
		.map((part) => Number(part ?? 0));
	const milli = Number((wall[7] ?? '').padEnd(3, '0'));
	const asUtc = Date.UTC(year, month - 1, day, hour, minute, second, milli);
	const date = new Date(asUtc);
	if (date.getUTCDate() !== day || date.getUTCMonth() !== month - 1 || hour > 23) return undefined;
	// The offset at the wall time read as UTC, then at the instant that gives (a change of offset between).
	const first = asUtc - zoneOffsetMs(zone, asUtc);
	return asUtc - zoneOffsetMs(zone, first);
}
