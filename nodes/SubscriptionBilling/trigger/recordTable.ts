import { BASE64, fromBase64, isBase64Char, toBase64 } from './compact';
import { fingerprint, FINGERPRINT_LENGTH, hashCell, HASH_CELL_LENGTH } from './fingerprint';

/**
 * What the trigger remembers of a list of records (customers, subscriptions): per record, keyed
 * by the fingerprint of its id, one cell per column. Stored as one string, the rows one after
 * the other, each its fingerprint then its cells; a cell is self-delimiting (its first character,
 * and whether its column is exact, say how long it is):
 *
 * | Cell | Meaning | Previous value reported |
 * |---|---|---|
 * | 4 characters of `A–Z a–z 0–9 - _` (other columns) | a 24-bit hash of the value (JSON) | no |
 * | 3 characters of `A–Z a–z 0–9 - _` (exact columns) | a date `YYYY-MM-DD`, as days since 1900-01-01 in base 64 | yes |
 * | `.` | null | yes |
 * | `+` / `!` | true / false | yes |
 * | one of `#$%&()*,/=?@^{|}` | one of the table's first 17 `words` (statuses), by position | yes |
 * | `'` and 1 character | a word after those, its position in base 64 | yes |
 * | `<` … `>` | the value itself (JSON, URI-encoded): an exact column's value that fits none of the above | yes |
 * | `[` … `]` | a row of another section kept with the record (state.ts: the invoices of a customer) | – |
 * | `~` | not known yet (the detail of a subscription not read yet) | – |
 *
 * Exact columns (status and dates) are never hashed; the other columns keep a hash unless the
 * value is null or a boolean.
 */
export interface StoredTable {
	/** The columns, in cell order. */
	columns: string[];
	/** The values of exact columns kept by their position (statuses), at most 81. */
	words?: string[];
	rows: string;
}

export const UNKNOWN = '~';
const NULL = '.';
const TRUE = '+';
const FALSE = '!';
const WORD = "'";
const SHORT_WORDS = '#$%&()*,/=?@^{|}';
const LITERAL = '<';
const LITERAL_END = '>';
const NESTED = '[';
const NESTED_END = ']';

const DAY_MS = 86_400_000;
const DAY_ZERO = Date.UTC(1900, 0, 1);
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const DATE_LENGTH = 3;

/** Length of the cell starting at `at`, in a column that is `exact` or not. */
function cellLength(rows: string, at: number, exact: boolean): number {
	const first = rows[at];
	if (isBase64Char(first)) return exact ? DATE_LENGTH : HASH_CELL_LENGTH;
	if (first === WORD) return 2;
	if (first === LITERAL) return rows.indexOf(LITERAL_END, at) + 1 - at;
	if (first === NESTED) return rows.indexOf(NESTED_END, at) + 1 - at;
	return 1;
}

/**
 * Walks a table's stored rows in order, calling `cell` with where each cell starts and ends and
 * then `row` with the row's fingerprint and where its cells start and end. False when the rows do
 * not fit the columns (not a table this code wrote).
 */
export function walkRows(
	rows: string,
	columns: readonly string[],
	exact: ReadonlySet<string>,
	row: (print: string, cellsAt: number, end: number) => void,
	cell?: (start: number, end: number) => void,
): boolean {
	const isExact = columns.map((column) => exact.has(column));
	let at = 0;
	while (at + FINGERPRINT_LENGTH <= rows.length) {
		const print = rows.slice(at, at + FINGERPRINT_LENGTH);
		const cellsAt = at + FINGERPRINT_LENGTH;
		at = cellsAt;
		for (let column = 0; column < columns.length; column++) {
			if (at >= rows.length) return false;
			const length = cellLength(rows, at, isExact[column]);
			if (length <= 0) return false;
			cell?.(at, at + length);
			at += length;
		}
		row(print, cellsAt, at);
	}
	return true;
}

function dateCell(value: string): string | undefined {
	if (!DATE_PATTERN.test(value)) return undefined;
	const ms = Date.parse(`${value}T00:00:00Z`);
	const days = (ms - DAY_ZERO) / DAY_MS;
	if (!Number.isInteger(days) || days < 0 || days >= 64 ** 3 || new Date(ms).toISOString().slice(0, 10) !== value) return undefined;
	return toBase64(days, DATE_LENGTH);
}

export class RecordTable {
	readonly rows = new Map<string, string[]>();
	private readonly words: string[];

	/** A new table after `before`: its words keep their numbers, so its cells can be carried over as they are. */
	static after(before: RecordTable | undefined, columns: readonly string[], exact: ReadonlySet<string>): RecordTable {
		return new RecordTable(columns, exact, before?.words ?? []);
	}

	constructor(
		readonly columns: readonly string[],
		private readonly exact: ReadonlySet<string> = new Set(),
		words: readonly string[] = [],
	) {
		this.words = [...words];
	}

	/** The table as stored; undefined when it is not one this code wrote. */
	static read(stored: unknown, exact: ReadonlySet<string>): RecordTable | undefined {
		const value = stored as StoredTable | undefined;
		if (!value || !Array.isArray(value.columns) || typeof value.rows !== 'string') return undefined;
		const table = new RecordTable(value.columns.map(String), exact, Array.isArray(value.words) ? value.words.map(String) : []);
		const { rows } = value;
		let cells: string[] = [];
		const fits = walkRows(
			rows,
			table.columns,
			exact,
			(print) => {
				table.rows.set(print, cells);
				cells = [];
			},
			(start, end) => cells.push(rows.slice(start, end)),
		);
		return fits ? table : undefined;
	}

	store(): StoredTable {
		const rows = [...this.rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([print, cells]) => print + cells.join(''));
		return { columns: [...this.columns], ...(this.words.length > 0 && { words: this.words }), rows: rows.join('') };
	}

	/** A new table after this one, with the same exact columns and words. */
	next(columns: readonly string[]): RecordTable {
		return new RecordTable(columns, this.exact, this.words);
	}

	has(column: string): boolean {
		return this.columns.includes(column);
	}

	/** The cell a value is remembered as in `column`. */
	cell(column: string, value: unknown): string {
		if (value === null || value === undefined) return NULL;
		if (value === true) return TRUE;
		if (value === false) return FALSE;
		if (!this.exact.has(column)) return hashCell(JSON.stringify(value));
		if (typeof value === 'string') {
			const date = dateCell(value);
			if (date) return date;
			let index = this.words.indexOf(value);
			if (index < 0 && this.words.length < SHORT_WORDS.length + 64 && /^[A-Z_]{1,32}$/.test(value)) index = this.words.push(value) - 1;
			if (index >= 0) return index < SHORT_WORDS.length ? SHORT_WORDS[index] : WORD + BASE64[index - SHORT_WORDS.length];
		}
		return LITERAL + encodeURIComponent(JSON.stringify(value)) + LITERAL_END;
	}

	/** The value a cell stands for; undefined for a hash or a cell not known. */
	value(cell: string | undefined): unknown {
		if (cell === undefined || cell === UNKNOWN || cell[0] === NESTED || (isBase64Char(cell[0]) && cell.length !== DATE_LENGTH)) return undefined;
		if (cell === NULL) return null;
		if (cell === TRUE) return true;
		if (cell === FALSE) return false;
		if (isBase64Char(cell[0])) return new Date(DAY_ZERO + fromBase64(cell) * DAY_MS).toISOString().slice(0, 10);
		if (SHORT_WORDS.includes(cell)) return this.words[SHORT_WORDS.indexOf(cell)];
		if (cell[0] === WORD) return this.words[SHORT_WORDS.length + BASE64.indexOf(cell[1])];
		return JSON.parse(decodeURIComponent(cell.slice(1, -1))) as unknown;
	}

	/** The cells of the record with this id, or undefined. */
	row(id: string): string[] | undefined {
		return this.rows.get(fingerprint(id));
	}

	/** The cell of one column of a record; undefined when the record or the column is not remembered. */
	cellOf(id: string, column: string): string | undefined {
		const index = this.columns.indexOf(column);
		const cell = index < 0 ? undefined : this.row(id)?.[index];
		return cell === UNKNOWN ? undefined : cell;
	}

	/** Keeps the rows of `other` (the table this one follows) it has none of: a listing that was not read whole. */
	keepMissing(other: RecordTable | undefined): void {
		if (!other) return;
		for (const [print, cells] of other.rows) {
			if (this.rows.has(print)) continue;
			this.rows.set(
				print,
				this.columns.map((column) => {
					const index = other.columns.indexOf(column);
					return index < 0 ? UNKNOWN : cells[index];
				}),
			);
		}
	}
}
