import type { IDataObject } from 'n8n-workflow';
import { RecordTable, UNKNOWN } from '../state/recordTable';
import type { CustomerListState } from '../state/triggerState';
import { CUSTOMER_LIST_EVENT_DEFINITIONS, type CustomerListEvent } from './catalog';
import { isLive, listSnapshot, readCustomerList, type ListSnapshot } from './customerList';
import { readDetailsInPass } from './detailSweep';
import { valueOf } from './fieldChanges';
import { DETAIL_FIELDS, detailFields } from './subscriptionDetails';
import type {
	CustomerListSettings,
	DetailReads,
	ListEvent,
	ListPoll,
	ListPollBefore,
	PollInput,
} from './types';

/** Columns kept as values (state/cells.ts kind `d`), not hashes (`h`): small enough, and their previous value is reported. */
const VALUE_COLUMNS = ['status', 'starts_at', 'ends_at', 'renews_at'];
const kindsOf = (columns: string[]) =>
	columns.map((column) => (VALUE_COLUMNS.includes(column) ? 'd' : 'h'));

/** The columns the selected events compare in one table, in the catalog's order; undefined: none of them needs the table. */
function columnsOf(
	selected: readonly ListEvent[],
	columns: (event: ListEvent) => readonly string[] | undefined,
): string[] | undefined {
	const wanted = selected.map(columns).filter((list) => list !== undefined);
	return wanted.length > 0 ? [...new Set(wanted.flat())] : undefined;
}

/** This poll's customers table: the compared fields of every listed customer. */
function customersAfter(
	snapshot: ListSnapshot,
	before: RecordTable | undefined,
	columns: string[],
): RecordTable {
	const after = RecordTable.after(before, columns, kindsOf(columns));
	for (const customer of snapshot.customers) {
		after.setRow(
			String(customer.customer_id),
			columns.map((column) => after.cell(column, valueOf(customer, column))),
		);
	}
	if (!snapshot.complete) after.keepMissing(before);
	return after;
}

/**
 * This poll's subscriptions table: the listed columns from the list; the detail columns from the
 * detail read this poll, else as remembered (`~` until read; a subscription that no longer runs,
 * or is gone when read, forgets them).
 */
function subscriptionsAfter(
	snapshot: ListSnapshot,
	before: RecordTable | undefined,
	columns: string[],
	reads: DetailReads | undefined,
): RecordTable {
	const after = RecordTable.after(before, columns, kindsOf(columns));
	for (const subscription of snapshot.subscriptions) {
		const id = String(subscription.subscription_id);
		const detail = reads?.details.get(id);
		const fields = detail && detailFields(detail);
		const kept = before?.row(id);
		const cells = columns.map((column) => {
			if (!(DETAIL_FIELDS as readonly string[]).includes(column))
				return after.cell(column, valueOf(subscription, column));
			if (fields) return after.cell(column, fields[column]);
			if (!isLive(subscription) || reads?.asked.has(id)) return UNKNOWN;
			const index = before?.columns.indexOf(column) ?? -1;
			return kept && index >= 0 ? kept[index] : UNKNOWN;
		});
		after.setRow(id, cells);
	}
	if (!snapshot.complete) after.keepMissing(before);
	return after;
}

/**
 * Every selected customer-list event (events/catalog.ts) from one reading of the customer list
 * and, when an event needs them, Subscription Get for up to Subscription Reads Per Poll running
 * subscriptions: those the events ask for first (renewals due, changed subscriptions), then the
 * next ones of the pass over all of them. What is not remembered yet (a table, a column, a
 * section: the event's first poll, or just selected) is only remembered. An event just added to
 * the selection (`added`) emits nothing this poll, also where it shares a column with an event
 * selected before (Status Changed, Paused and Resumed share `status`): what that column holds is
 * from before the event was chosen.
 */
export async function pollCustomerListEvents(
	input: PollInput,
	previous: CustomerListState | undefined,
	events: CustomerListEvent[],
	settings: CustomerListSettings,
	added: readonly CustomerListEvent[] = [],
): Promise<{ items: IDataObject[]; state: CustomerListState }> {
	const selected: readonly ListEvent[] = CUSTOMER_LIST_EVENT_DEFINITIONS.filter((definition) =>
		events.includes(definition.value),
	);
	const snapshot = listSnapshot(await readCustomerList(input.api), input.now);
	const before: ListPollBefore = {
		input,
		snapshot,
		settings,
		previous,
		customersBefore: RecordTable.read(previous?.customers),
		subscriptionsBefore: RecordTable.read(previous?.subscriptions),
	};
	const state: CustomerListState = { events };

	// Renewal dates can pass before the next read: what Renewal Due asks for is read before changed subscriptions.
	const passes = selected
		.filter((event) => event.pass?.reads(settings))
		.sort(
			(a, b) => (a.pass!.learns === 'renewals' ? 0 : 1) - (b.pass!.learns === 'renewals' ? 0 : 1),
		);
	const reads =
		passes.length > 0
			? await readDetailsInPass(input, snapshot, previous?.detailPass, {
					first: passes.flatMap((event) => event.readFirst?.(before) ?? []),
					budget: settings.subscriptionReadsPerPoll,
					renewals: passes.some((event) => event.pass!.learns === 'renewals'),
					startLearning: passes.some(
						(event) => event.pass!.learns === 'renewals' && event.pass!.starts(before),
					),
					startDetails: passes.some(
						(event) => event.pass!.learns === 'details' && event.pass!.starts(before),
					),
				})
			: undefined;
	if (reads) state.detailPass = reads.pass;

	const customerColumns = columnsOf(selected, (event) => event.customerColumns);
	const subscriptionColumns = columnsOf(selected, (event) => event.subscriptionColumns?.(settings));
	const poll: ListPoll = {
		...before,
		customersAfter:
			customerColumns && customersAfter(snapshot, before.customersBefore, customerColumns),
		subscriptionsAfter:
			subscriptionColumns &&
			subscriptionsAfter(snapshot, before.subscriptionsBefore, subscriptionColumns, reads),
		reads,
		state,
	};
	if (poll.customersAfter) state.customers = poll.customersAfter.store();
	if (poll.subscriptionsAfter) state.subscriptions = poll.subscriptionsAfter.store();
	const learning = new Set<string>(added);
	const items = selected.flatMap((event) => event.detect(poll));
	return { items: items.filter((item) => !learning.has(String(item.event))), state };
}
