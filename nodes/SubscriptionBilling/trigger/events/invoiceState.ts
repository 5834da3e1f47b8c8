import { BASE64, fromBase64, isBase64Char, toBase64 } from '../compact';
import { FINGERPRINT_LENGTH } from '../fingerprint';

/** An invoice the trigger keeps watching by id: open, or (for Invoice Paid) paid within the look-back window. */
export interface Watched {
	/** Its status when last seen. */
	status: string;
	/** Fingerprints of the payments with an error seen on it so far (packed). */
	failed: string;
	/** Its overdue state was reported (or known at activation): not reported again while it stays overdue. */
	overdue: boolean;
	/** Fully paid at (epoch ms) when last seen paid. */
	paidAt?: number;
}

/**
 * What the trigger remembers of one customer's invoices: the fingerprints of the invoices issued
 * within the look-back window (`known`, packed), and the invoices it watches by id (`watched`).
 */
export interface CustomerInvoices {
	known: string;
	watched: Record<string, Watched>;
}

/** The rows of a packed table (InvoiceTable), each its customer's fingerprint and its row, in stored order. */
export function packedRows(packed: string): Array<[print: string, row: string]> {
	const rows: Array<[string, string]> = [];
	for (let at = 0; at + FINGERPRINT_LENGTH <= packed.length; ) {
		const end = packed.indexOf(';', at);
		if (end < 0) break;
		rows.push([packed.slice(at, at + FINGERPRINT_LENGTH), packed.slice(at + FINGERPRINT_LENGTH, end)]);
		at = end + 1;
	}
	return rows;
}

/** Rows packed as InvoiceTable stores them, in the order given. */
export function packRows(rows: Iterable<readonly [print: string, row: string]>): string {
	let packed = '';
	for (const [print, row] of rows) packed += `${print}${row};`;
	return packed;
}

export function isEmpty(entry: CustomerInvoices): boolean {
	return entry.known === '' && Object.keys(entry.watched).length === 0;
}

/**
 * The invoice family's customers (state.ts `InvoiceState.customers`), one string: per customer its
 * fingerprint, then its row and `;`. A row: the fingerprints of its known invoices, then each
 * watched invoice as `=`, its id, its status and its flags. An id is 20 characters (a lowercase
 * UUID's 128 bits in base 89: the printable characters but `"`, `\`, `<`, `;` and `]`) or `<` the id
 * URI-encoded `>`; the status 1 character (its number in `statuses` times 2, plus 1 when its
 * overdue state was reported) or `<` the status `>` and `!` when overdue; flags: `$` the
 * fingerprints of the failed payments seen, `@` fully paid at (epoch seconds, 6 characters). An
 * open invoice of a customer with nothing else takes 32 bytes. Rows are decoded only for the
 * customers a poll visits.
 */
export class InvoiceTable {
	/** Per customer fingerprint, its row as stored. */
	readonly rows = new Map<string, string>();

	constructor(readonly statuses: string[] = []) {}

	static read(packed: string, statuses: string[]): InvoiceTable {
		const table = new InvoiceTable([...statuses]);
		for (const [print, row] of packedRows(packed)) table.rows.set(print, row);
		return table;
	}

	pack(): string {
		return packRows([...this.rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
	}

	get(print: string): CustomerInvoices | undefined {
		const row = this.rows.get(print);
		return row === undefined ? undefined : this.decode(row);
	}

	set(print: string, entry: CustomerInvoices): void {
		if (isEmpty(entry)) this.rows.delete(print);
		else this.rows.set(print, entry.known + Object.entries(entry.watched).map(([id, watched]) => `=${packedId(id)}${this.packedStatus(watched)}${flags(watched)}`).join(''));
	}

	private decode(row: string): CustomerInvoices {
		let at = 0;
		const literal = () => {
			const close = row.indexOf('>', at);
			const text = decodeURIComponent(row.slice(at + 1, close));
			at = close + 1;
			return text;
		};
		const prints = () => {
			const from = at;
			while (isBase64Char(row[at])) at += FINGERPRINT_LENGTH;
			return row.slice(from, at);
		};
		const entry: CustomerInvoices = { known: prints(), watched: {} };
		while (row[at] === '=') {
			at++;
			let id: string;
			if (row[at] === '<') id = literal();
			else {
				id = uuidOf(row.slice(at, at + ID_LENGTH));
				at += ID_LENGTH;
			}
			const watched: Watched = { status: '', failed: '', overdue: false };
			if (row[at] === '<') watched.status = literal();
			else {
				const code = BASE64.indexOf(row[at++]);
				watched.status = this.statuses[code >> 1];
				watched.overdue = (code & 1) === 1;
			}
			for (;;) {
				if (row[at] === '!') {
					at++;
					watched.overdue = true;
				} else if (row[at] === '$') {
					at++;
					watched.failed = prints();
				} else if (row[at] === '@') {
					watched.paidAt = fromBase64(row.slice(at + 1, at + 7)) * 1000;
					at += 7;
				} else break;
			}
			entry.watched[id] = watched;
		}
		return entry;
	}

	private packedStatus({ status, overdue }: Watched): string {
		let index = this.statuses.indexOf(status);
		if (index < 0 && this.statuses.length < 32) index = this.statuses.push(status) - 1;
		return index >= 0 ? BASE64[index * 2 + (overdue ? 1 : 0)] : `<${encodeURIComponent(status)}>${overdue ? '!' : ''}`;
	}
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ID_DIGITS = [...Array(94)].map((_, i) => String.fromCharCode(33 + i)).filter((ch) => !'"\\<;]'.includes(ch)).join('');
const ID_BASE = BigInt(ID_DIGITS.length);
const ID_LENGTH = 20;

function packedId(id: string): string {
	if (!UUID_PATTERN.test(id)) return `<${encodeURIComponent(id)}>`;
	let value = BigInt(`0x${id.replace(/-/g, '')}`);
	let out = '';
	for (let i = 0; i < ID_LENGTH; i++) {
		out = ID_DIGITS[Number(value % ID_BASE)] + out;
		value /= ID_BASE;
	}
	return out;
}

function uuidOf(packed: string): string {
	let value = BigInt(0);
	for (const ch of packed) value = value * ID_BASE + BigInt(ID_DIGITS.indexOf(ch));
	const hex = value.toString(16).padStart(32, '0');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function flags(watched: Watched): string {
	return (watched.failed !== '' ? `$${watched.failed}` : '') + (watched.paidAt !== undefined ? `@${toBase64(Math.floor(watched.paidAt / 1000), 6)}` : '');
}
