import type { IDataObject } from 'n8n-workflow';
import { fingerprint, packFingerprints, unpackFingerprints } from '../fingerprint';

/**
 * New Customer and New Subscription: the API gives no creation time, so the trigger remembers the
 * fingerprints of the ids it has seen (`known`, packed); an id not among them is new. Without a
 * remembered set (the event's first poll) nothing is new.
 */
export function trackNewRecords(records: IDataObject[], idField: string, known: string | undefined, complete: boolean): { added: IDataObject[]; known: string } {
	const before = unpackFingerprints(known);
	const seen = new Set<string>();
	const added: IDataObject[] = [];
	for (const record of records) {
		const print = fingerprint(String(record[idField]));
		seen.add(print);
		if (known !== undefined && !before.has(print)) added.push(record);
	}
	// A listing that changed while it was paged may have missed a record: keep what was known too.
	if (!complete) for (const print of before) seen.add(print);
	return { added, known: packFingerprints(seen) };
}
