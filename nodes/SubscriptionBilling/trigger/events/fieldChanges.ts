import type { IDataObject } from 'n8n-workflow';
import type { RecordTable } from '../state/recordTable';
import { DETAIL_FIELDS, detailFields, readSubscriptionDetails } from './subscriptionDetails';
import type { ListEvent, ListPoll, ListPollBefore } from './types';

/**
 * A field's change: `previous` only where the value was kept, not its hash (recordTable.ts: null,
 * booleans, statuses and dates); a field remembered as a hash reports `current` alone.
 */
export interface FieldValueChange {
	previous?: unknown;
	current: unknown;
}

export interface FieldChange {
	record: IDataObject;
	changed_fields: string[];
	changes: Record<string, FieldValueChange>;
}

export const valueOf = (record: IDataObject, field: string): unknown => record[field] ?? null;

/**
 * The fields of a record whose value differs from what `before` remembers of it (by cell: the
 * value, or its hash). A field not remembered (a record seen for the first time, a column added
 * since) is not a change.
 */
export function fieldChange(
	record: IDataObject,
	id: string,
	fields: readonly string[],
	current: (field: string) => unknown,
	before: RecordTable | undefined,
	after: RecordTable,
): FieldChange | undefined {
	const change: FieldChange = { record, changed_fields: [], changes: {} };
	for (const field of fields) {
		const was = before?.cellOf(id, field);
		if (was === undefined) continue;
		const now = current(field);
		if (after.cell(field, now) === was) continue;
		change.changed_fields.push(field);
		const previous = before!.value(was, field);
		change.changes[field] = previous === undefined ? { current: now } : { previous, current: now };
	}
	return change.changed_fields.length > 0 ? change : undefined;
}

/** Fetch Test Event: every watched field shown as changed, its previous value unknown (null). */
export function sampleChange(
	record: IDataObject,
	fields: readonly string[],
): Omit<FieldChange, 'record'> {
	return {
		changed_fields: [...fields],
		changes: Object.fromEntries(
			fields.map((field) => [field, { previous: null, current: valueOf(record, field) }]),
		),
	};
}

/** The customer fields Customer Updated compares: every field of the customer input. */
export const CUSTOMER_FIELDS = [
	'name',
	'legal_name',
	'external_id',
	'address',
	'processor_customer_id',
	'tax_id',
] as const;
/** The subscription fields the customer list carries, compared by Subscription Updated. */
export const SUBSCRIPTION_FIELDS = ['name', 'starts_at', 'ends_at', 'status'] as const;

export const customerUpdated: ListEvent<'customerUpdated'> = {
	value: 'customerUpdated',
	family: 'customerList',
	record: 'customer',
	name: 'Customer Updated',
	summary:
		"A customer's name, legal name, external ID, address, processor customer ID or tax ID changed: each changed field with its new value (the trigger keeps these fields as hashes, so not their previous values).",
	noExample: {
		lookedFor: 'no customer',
		toSee: 'create a customer in the account',
		keys: 'detected_at, changed_fields, changes, customer',
	},
	customerColumns: CUSTOMER_FIELDS,
	detect: ({ snapshot, customersBefore, customersAfter }) =>
		snapshot.customers.flatMap((customer) => {
			const change = fieldChange(
				customer,
				String(customer.customer_id),
				CUSTOMER_FIELDS,
				(field) => valueOf(customer, field),
				customersBefore,
				customersAfter!,
			);
			return change
				? [
						{
							event: 'customerUpdated',
							detected_at: snapshot.detectedAt,
							changed_fields: change.changed_fields,
							changes: change.changes as IDataObject,
							customer,
						},
					]
				: [];
		}),
	sample: async (_input, snapshot) => {
		const customer = snapshot.customers.at(-1);
		return (
			customer && {
				event: 'customerUpdated',
				detected_at: snapshot.detectedAt,
				...sampleChange(customer, CUSTOMER_FIELDS),
				customer,
			}
		);
	},
};

/** The listed fields' changes of every subscription, by id. */
function listedChanges({
	snapshot,
	subscriptionsBefore,
}: ListPollBefore): Map<string, FieldChange> {
	const changes = new Map<string, FieldChange>();
	if (!subscriptionsBefore) return changes;
	const cells = subscriptionsBefore.next(subscriptionsBefore.columns, subscriptionsBefore.kinds);
	for (const subscription of snapshot.subscriptions) {
		const id = String(subscription.subscription_id);
		const change = fieldChange(
			subscription,
			id,
			SUBSCRIPTION_FIELDS,
			(field) => valueOf(subscription, field),
			subscriptionsBefore,
			cells,
		);
		if (change) changes.set(id, change);
	}
	return changes;
}

/** Whether every detail column of a subscription was remembered: only then are its detail fields compared. */
function detailKnown(table: RecordTable | undefined, id: string): boolean {
	return (
		table !== undefined && DETAIL_FIELDS.every((field) => table.cellOf(id, field) !== undefined)
	);
}

/**
 * Subscription Updated: the listed fields' changes, and with the detail option the detail fields
 * of the subscriptions read this poll, merged into one item per subscription, in the list's order.
 */
function subscriptionUpdates(poll: ListPoll): IDataObject[] {
	const { snapshot, subscriptionsBefore: before } = poll;
	const changes = listedChanges(poll);
	const details = poll.settings.subscriptionDetails ? poll.reads?.details : undefined;
	const summaries = new Map(
		snapshot.subscriptions.map((subscription) => [
			String(subscription.subscription_id),
			subscription,
		]),
	);
	for (const [id, detail] of details ?? []) {
		if (!detailKnown(before, id)) continue;
		const summary = summaries.get(id);
		const fields = detailFields(detail);
		const change =
			summary &&
			fieldChange(
				summary,
				id,
				DETAIL_FIELDS,
				(field) => fields[field],
				before,
				poll.subscriptionsAfter!,
			);
		if (!change) continue;
		const merged = changes.get(id) ?? { record: summary!, changed_fields: [], changes: {} };
		merged.changed_fields.push(...change.changed_fields);
		Object.assign(merged.changes, change.changes);
		changes.set(id, merged);
	}
	return snapshot.subscriptions
		.filter((subscription) => changes.has(String(subscription.subscription_id)))
		.map((subscription) => {
			const id = String(subscription.subscription_id);
			const { changed_fields, changes: values } = changes.get(id)!;
			const item: IDataObject = {
				event: 'subscriptionUpdated',
				detected_at: snapshot.detectedAt,
				changed_fields,
				changes: values as IDataObject,
				subscription,
			};
			if (details?.has(id)) item.detail = details.get(id);
			return item;
		});
}

export const subscriptionUpdated: ListEvent<'subscriptionUpdated'> = {
	value: 'subscriptionUpdated',
	family: 'customerList',
	record: 'subscription',
	name: 'Subscription Updated',
	summary:
		"A subscription's name, start date, end date or status changed (with Compare Detail Fields also its renewal, totals and line items): each changed field with its new value, and its previous value for status, dates and auto-renewal.",
	noExample: {
		lookedFor: 'no subscription',
		toSee: 'create a subscription for a customer in the account',
		keys: 'detected_at, changed_fields, changes, subscription and, with Compare Detail Fields, detail',
	},
	subscriptionColumns: (settings) => [
		'status',
		'name',
		'starts_at',
		'ends_at',
		...(settings.subscriptionDetails ? DETAIL_FIELDS : []),
	],
	pass: {
		reads: (settings) => settings.subscriptionDetails,
		learns: 'details',
		starts: ({ settings, previous }) =>
			settings.subscriptionDetails &&
			!(previous?.subscriptions?.columns ?? []).includes('line_items'),
	},
	readFirst: (poll) => (poll.settings.subscriptionDetails ? [...listedChanges(poll).keys()] : []),
	detect: subscriptionUpdates,
	sample: async (input, snapshot, settings) => {
		const subscription = snapshot.subscriptions.at(-1);
		if (!subscription) return undefined;
		const base = { event: 'subscriptionUpdated', detected_at: snapshot.detectedAt };
		if (!settings.subscriptionDetails)
			return { ...base, ...sampleChange(subscription, SUBSCRIPTION_FIELDS), subscription };
		const detail = (
			await readSubscriptionDetails(input.api, [String(subscription.subscription_id)])
		).details.get(String(subscription.subscription_id));
		const fields = detail ? { ...subscription, ...detailFields(detail) } : subscription;
		return {
			...base,
			...sampleChange(fields, [...SUBSCRIPTION_FIELDS, ...(detail ? DETAIL_FIELDS : [])]),
			subscription,
			...(detail && { detail }),
		};
	},
};
