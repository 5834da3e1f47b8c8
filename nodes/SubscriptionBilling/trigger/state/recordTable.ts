import {
	cellEnd,
	cellValue,
	fingerprint,
	FINGERPRINT_LENGTH,
	hashCell,
	UNKNOWN,
	valueCell,
	type Kind,
} from './cells';

export { UNKNOWN };

/**
 * What the trigger remembers of a list of records (customers, subscriptions, each customer's
 * invoices): per record, keyed by the fingerprint of its id, one cell per column (cells.ts). Stored
 * as one string, the rows one after the other in fingerprint order, each its fingerprint then its
 * cells; with the columns' kinds, so that a stored table is read without knowing it beforehand.
 * A column of kind `h` keeps a hash of each value (null and booleans as they are); the others keep
 * values, whose previous value a change reports.
 */
export interface StoredTable {
	/** The columns, in cell order, and their kinds (cells.ts). */
	columns: string[];
	kinds: Kind[];
	/** The words (statuses) the cells refer to by position, at most 81. */
	words?: string[];
	rows: string;
}

/**
 * Walks a table's stored rows in order, calling `cell` with where each cell starts and ends and
 * then `row` with the row's fingerprint and where its cells start and end. False when the rows do
 * not fit the kinds (not a table this code wrote).
 */
export function walkRows(
	rows: string,
	kinds: readonly Kind[],
	row: (print: string, cellsAt: number, end: number) => void,
	cell?: (start: number, end: number) => void,
): boolean {
	let at = 0;
	while (at < rows.length) {
		if (at + FINGERPRINT_LENGTH > rows.length) return false;
		const print = rows.slice(at, at + FINGERPRINT_LENGTH);
		const cellsAt = at + FINGERPRINT_LENGTH;
		at = cellsAt;
		for (const kind of kinds) {
			const end = cellEnd(rows, at, kind);
			if (end < 0) return false;
			cell?.(at, end);
			at = end;
		}
		row(print, cellsAt, at);
	}
	return true;
}

/** Whether a value read from the static data is a table this code wrote (its shape; walkRows checks its rows). */
export function isStoredTable(value: unknown): value is StoredTable {
	const table = value as StoredTable | undefined;
	return (
		typeof table === 'object' &&
		table !== null &&
		Array.isArray(table.columns) &&
		Array.isArray(table.kinds) &&
		table.kinds.length === table.columns.length &&
		typeof table.rows === 'string' &&
		(table.words === undefined || Array.isArray(table.words))
	);
}

export class RecordTable {
	readonly rows = new Map<string, string[]>();
	readonly words: string[];

	/** A new table after `before`: its words keep their numbers, so its cells can be carried over as they are. */
	static after(
		before: RecordTable | undefined,
		columns: readonly string[],
		kinds: readonly Kind[],
	): RecordTable {
		return new RecordTable(columns, kinds, before?.words ?? []);
	}

	constructor(
		readonly columns: readonly string[],
		readonly kinds: readonly Kind[],
		words: readonly string[] = [],
	) {
		this.words = [...words];
	}

	/** The table as stored; undefined when it is not one this code wrote. */
	static read(stored: unknown): RecordTable | undefined {
		if (!isStoredTable(stored)) return undefined;
		const table = new RecordTable(
			stored.columns.map(String),
			stored.kinds.map(String),
			(stored.words ?? []).map(String),
		);
		const { rows } = stored;
		let cells: string[] = [];
		const fits = walkRows(
			rows,
			table.kinds,
			(print) => {
				table.rows.set(print, cells);
				cells = [];
			},
			(start, end) => cells.push(rows.slice(start, end)),
		);
		return fits ? table : undefined;
	}

	store(): StoredTable {
		const rows = [...this.rows]
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
			.map(([print, cells]) => print + cells.join(''));
		return {
			columns: [...this.columns],
			kinds: [...this.kinds],
			...(this.words.length > 0 && { words: this.words }),
			rows: rows.join(''),
		};
	}

	/** A new table after this one, with the same words. */
	next(columns: readonly string[], kinds: readonly Kind[]): RecordTable {
		return new RecordTable(columns, kinds, this.words);
	}

	kindOf(column: string): Kind | undefined {
		const index = this.columns.indexOf(column);
		return index < 0 ? undefined : this.kinds[index];
	}

	/** The cell a value is remembered as in `column`. */
	cell(column: string, value: unknown): string {
		const kind = this.kindOf(column) ?? 'h';
		if (kind === 'h' && value !== null && value !== undefined && typeof value !== 'boolean')
			return hashCell(JSON.stringify(value));
		return valueCell(value, kind, this.words);
	}

	/** The value a cell of `column` stands for; undefined for a hash or a cell not known. */
	value(cell: string | undefined, column: string): unknown {
		return cellValue(cell, this.kindOf(column) ?? 'h', this.words);
	}

	/** The cells of the record with this id, or undefined. */
	row(id: string): string[] | undefined {
		return this.rows.get(fingerprint(id));
	}

	setRow(id: string, cells: string[]): void {
		this.rows.set(fingerprint(id), cells);
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
