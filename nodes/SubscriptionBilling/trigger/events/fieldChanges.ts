import type { IDataObject } from 'n8n-workflow';
import type { RecordTable } from '../recordTable';

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
export function fieldChange(record: IDataObject, id: string, fields: readonly string[], current: (field: string) => unknown, before: RecordTable | undefined, after: RecordTable): FieldChange | undefined {
	const change: FieldChange = { record, changed_fields: [], changes: {} };
	for (const field of fields) {
		const was = before?.cellOf(id, field);
		if (was === undefined) continue;
		const now = current(field);
		if (after.cell(field, now) === was) continue;
		change.changed_fields.push(field);
		const previous = before!.value(was);
		change.changes[field] = previous === undefined ? { current: now } : { previous, current: now };
	}
	return change.changed_fields.length > 0 ? change : undefined;
}

/** Fetch Test Event: every watched field shown as changed, its previous value unknown (null). */
export function sampleChange(record: IDataObject, fields: readonly string[]): Omit<FieldChange, 'record'> {
	return {
		changed_fields: [...fields],
		changes: Object.fromEntries(fields.map((field) => [field, { previous: null, current: valueOf(record, field) }])),
	};
}
