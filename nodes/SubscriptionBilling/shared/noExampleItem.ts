import type { IDataObject } from 'n8n-workflow';

/** The key of the item Fetch Test Event gives for an event it found no example of (trigger/events/samples.ts). */
export const NO_EXAMPLE_KEY = 'no_example';

/**
 * When `item` is the trigger's no-example item rather than an event: what a step acting on it
 * says about it. Such an item has no IDs, so a step that maps them fails for a reason its own
 * fields do not show.
 */
export function noExampleCause(
	item: IDataObject | undefined,
	itemIndex: number,
): string | undefined {
	const note = item?.[NO_EXAMPLE_KEY];
	if (typeof note !== 'string' || typeof item?.event !== 'string') return undefined;
	const title = note.split('. ')[0];
	return `item ${itemIndex} is not an event but the trigger's note "${title}": Fetch Test Event found none to show, so the item has no IDs. Its ${NO_EXAMPLE_KEY} says where it looked and how to test this step with a real event`;
}
