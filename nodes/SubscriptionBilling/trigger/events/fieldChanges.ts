import type { IDataObject } from 'n8n-workflow';
import { fingerprint } from '../fingerprint';

/** Remembered values of the watched fields, per record: fingerprint of its id → values in field order. */
export type RememberedFields = Record<string, unknown[]>;

export interface FieldChange {
	record: IDataObject;
	changed_fields: string[];
	changes: Record<string, { previous: unknown; current: unknown }>;
}

const valueOf = (record: IDataObject, field: string): unknown => record[field] ?? null;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Compares the watched fields of each record with the values remembered at the last poll and
 * returns the records whose fields changed, with previous and current values. A record seen for
 * the first time is not a change; without anything remembered (the first poll) nothing is.
 */
export function trackFieldChanges(
	records: IDataObject[],
	idField: string,
	fields: readonly string[],
	previous: RememberedFields | undefined,
	complete: boolean,
): { changed: FieldChange[]; remembered: RememberedFields } {
	const remembered: RememberedFields = complete || !previous ? {} : { ...previous };
	const changed: FieldChange[] = [];
	for (const record of records) {
		const print = fingerprint(String(record[idField]));
		const values = fields.map((field) => valueOf(record, field));
		remembered[print] = values;
		const before = previous?.[print];
		if (!before) continue;
		const change: FieldChange = { record, changed_fields: [], changes: {} };
		fields.forEach((field, index) => {
			if (same(before[index] ?? null, values[index])) return;
			change.changed_fields.push(field);
			change.changes[field] = { previous: before[index] ?? null, current: values[index] };
		});
		if (change.changed_fields.length > 0) changed.push(change);
	}
	return { changed, remembered };
}

/** Fetch Test Event: every watched field shown as changed, its previous value unknown (null). */
export function sampleChange(record: IDataObject, fields: readonly string[]): Omit<FieldChange, 'record'> {
	return {
		changed_fields: [...fields],
		changes: Object.fromEntries(fields.map((field) => [field, { previous: null, current: valueOf(record, field) }])),
	};
}
