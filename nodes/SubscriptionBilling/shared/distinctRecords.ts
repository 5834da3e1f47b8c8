import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

/** The field that identifies a record of a list, by the collection its path ends in (a search: the one before `/search`). */
const ID_FIELDS: Record<string, string> = {
	invoices: 'invoice_id',
	customers: 'customer_id',
	plans: 'plan_id',
	upgrade: 'order_id',
	recast: 'order_id',
	milestones: 'milestone_id',
	'payment-methods': 'payment_method_id',
};

/** The ID field of the records a list request reads, when the list is one of the API's. */
export function idFieldOf(request: IHttpRequestOptions): string | undefined {
	const path = new URL(request.url, 'http://path.invalid').pathname;
	const segments = path.split('/').filter((segment) => segment !== '');
	if (segments.at(-1) === 'search') segments.pop();
	return ID_FIELDS[segments.at(-1) ?? ''];
}

/**
 * Remembers the records handed on by ID: `fresh` keeps, in order, those not handed on before (a
 * record without the ID is always kept). Offset paging over a list that changes while it is read
 * can serve a record on two pages.
 */
export class DistinctRecords {
	private readonly seen = new Set<string>();

	constructor(private readonly idField: string | undefined) {}

	private keyOf(record: IDataObject): string | undefined {
		const id = this.idField === undefined ? undefined : record?.[this.idField];
		return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
	}

	/**
	 * The records not handed on before, at most `room` of them, which count as handed on from now,
	 * and how many were left out as handed on before.
	 */
	fresh(records: IDataObject[], room: number): { records: IDataObject[]; repeated: number } {
		const kept: IDataObject[] = [];
		let repeated = 0;
		for (const record of records) {
			if (kept.length >= room) break;
			const key = this.keyOf(record);
			if (key !== undefined) {
				// one lookup: the set grows unless the key was in it
				const before = this.seen.size;
				if (this.seen.add(key).size === before) {
					repeated++;
					continue;
				}
			}
			kept.push(record);
		}
		return { records: kept, repeated };
	}
}
