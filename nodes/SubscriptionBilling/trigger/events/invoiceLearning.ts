/** Invoice events added to a running trigger: where each still only learns, over the sweep it was added in and the next. */
import type { InvoiceFamilyEvent } from './catalog';

/**
 * An event added while the family was running: at each customer its first visit only remembers,
 * as the first sweep does for all events. `from`: the offset in the customer list its first sweep
 * had reached when it was added (it learns from there to the end); `nextSweep`: that sweep has
 * ended, and the customers before `from` are still to learn.
 */
export interface Learning {
	from: number;
	nextSweep: boolean;
}

/** The sweep's `learning`: per event added to the selection, where it still learns. */
export type LearningEvents = Partial<Record<InvoiceFamilyEvent, Learning>>;

/** The learning events still selected, and the events just added (learning from where the sweep stands). */
export function learningAt(sweep: { nextCustomer?: number; learning?: LearningEvents }, events: InvoiceFamilyEvent[], added: readonly InvoiceFamilyEvent[]): LearningEvents {
	const learning: LearningEvents = {};
	for (const event of events) {
		const entry = sweep.learning?.[event] ?? (added.includes(event) ? { from: sweep.nextCustomer ?? 0, nextSweep: false } : undefined);
		if (entry) learning[event] = entry;
	}
	return learning;
}

/** The events that only remember at the customer at `position` of the sweep. */
export function learningAtPosition(learning: LearningEvents, position: number): Set<InvoiceFamilyEvent> {
	const events = Object.entries(learning) as Array<[InvoiceFamilyEvent, Learning]>;
	return new Set(events.filter(([, { from, nextSweep }]) => (nextSweep ? position < from : position >= from)).map(([event]) => event));
}

/** What is left to learn once the poll has visited customers up to `nextCustomer` (undefined: the sweep ended). */
export function learningAfter(learning: LearningEvents, nextCustomer: number | undefined): LearningEvents | undefined {
	const left: LearningEvents = {};
	for (const [event, entry] of Object.entries(learning) as Array<[InvoiceFamilyEvent, Learning]>) {
		if (nextCustomer !== undefined && !(entry.nextSweep && nextCustomer >= entry.from)) left[event] = entry;
		else if (nextCustomer === undefined && !entry.nextSweep && entry.from > 0) left[event] = { from: entry.from, nextSweep: true };
	}
	return Object.keys(left).length > 0 ? left : undefined;
}
