import type { IDataObject } from 'n8n-workflow';
import type { RecordTable } from '../recordTable';

/**
 * New Customer and New Subscription: the API gives no creation time, so a record is new when the
 * table of the poll before has no row for it. Without that table (the event's first poll) nothing is new.
 */
export function newRecords(records: IDataObject[], idField: string, before: RecordTable | undefined): IDataObject[] {
	return before ? records.filter((record) => before.row(String(record[idField])) === undefined) : [];
}
