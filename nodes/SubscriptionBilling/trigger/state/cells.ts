/**
 * The one cell encoding of every table the trigger stores (recordTable.ts). A row is a record's
 * fingerprint, then one cell per column; every cell says by its first character where it ends,
 * given its column's kind, which the table stores with its columns:
 *
 * | Cell starts with | Cell |
 * |---|---|
 * | `A–Z a–z 0–9 - _` | a value of the column's fixed length in base 64: `h` a 24-bit hash of the value (4), `d` a date as days since 1900-01-01 (3), `f` a fingerprint (9), `t` a time in epoch seconds (6), `u` a UUID's 128 bits (22) |
 * | `.` `+` `!` | null, true, false |
 * | `~` | not known (not read yet, or no row) |
 * | one of `#$%&()*,/=?@^{|}`, or `'` and 1 character | a word (a status) by its position in the table's `words` |
 * | `<` … `>` | any other value as JSON, URI-encoded: any ID or text, as none of `<>[]` is left in it |
 * | `[` … `]` | a list (a kind in brackets): its elements' cells one after the other |
 *
 * The characters `;` `:` `"` `\` `` ` `` and space start no cell.
 */
export const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export const UNKNOWN = '~';
const NULL = '.';
const TRUE = '+';
const FALSE = '!';
const WORD = "'";
const SHORT_WORDS = '#$%&()*,/=?@^{|}';
const LITERAL = '<';
const LITERAL_END = '>';
const LIST = '[';
const LIST_END = ']';
const MAX_WORDS = SHORT_WORDS.length + 64;

/** A column's kind: one letter, or a list of records of kinds in brackets (`[f]`, `[udd]`). */
export type Kind = string;
/** The length of a base-64 cell of each one-letter kind. */
export const LENGTHS: Record<string, number> = { h: 4, d: 3, f: 9, t: 6, u: 22 };

export function toBase64(value: number, length: number): string {
	let out = '';
	for (let i = 0; i < length; i++) {
		out = BASE64[value % 64] + out;
		value = Math.floor(value / 64);
	}
	return out;
}

export function fromBase64(text: string): number {
	let value = 0;
	for (const ch of text) value = value * 64 + BASE64.indexOf(ch);
	return value;
}

export function isBase64Char(ch: string | undefined): boolean {
	return ch !== undefined && ch.length === 1 && BASE64.includes(ch);
}

const elementKindsOf = new Map<Kind, Kind[]>();

/** The kinds of a list kind's elements (`[udd]`: u, d, d); undefined for a one-letter kind. */
function elementKinds(kind: Kind): Kind[] | undefined {
	if (kind[0] !== LIST) return undefined;
	const known = elementKindsOf.get(kind);
	if (known) return known;
	const kinds: Kind[] = [];
	for (let at = 1; at < kind.length - 1; ) {
		let end = at + 1;
		if (kind[at] === LIST)
			for (let depth = 1; depth > 0; end++)
				depth += kind[end] === LIST ? 1 : kind[end] === LIST_END ? -1 : 0;
		kinds.push(kind.slice(at, end));
		at = end;
	}
	elementKindsOf.set(kind, kinds);
	return kinds;
}

/** Where the cell of `kind` starting at `at` ends; -1 when there is none. */
export function cellEnd(text: string, at: number, kind: Kind): number {
	const first = text[at];
	if (isBase64Char(first))
		return LENGTHS[kind] === undefined || at + LENGTHS[kind] > text.length
			? -1
			: at + LENGTHS[kind];
	if (first === LITERAL)
		return text.indexOf(LITERAL_END, at) < 0 ? -1 : text.indexOf(LITERAL_END, at) + 1;
	if (first === WORD) return at + 2 <= text.length ? at + 2 : -1;
	// `[` and `]` occur nowhere else (base 64, symbols and URI-encoded literals have none): the list ends at its matching `]`.
	if (first === LIST) {
		if (kind[0] !== LIST) return -1;
		for (let depth = 1, end = at + 1; end < text.length; end++) {
			if (text[end] === LIST) depth++;
			else if (text[end] === LIST_END && --depth === 0) return end + 1;
		}
		return -1;
	}
	return first !== undefined &&
		(first === NULL ||
			first === TRUE ||
			first === FALSE ||
			first === UNKNOWN ||
			SHORT_WORDS.includes(first))
		? at + 1
		: -1;
}

/** The cells of a list cell, each element's cells in a row; [] for null. */
export function listCells(cell: string, kind: Kind): string[][] {
	const kinds = elementKinds(kind)!;
	const elements: string[][] = [];
	if (cell[0] !== LIST) return elements;
	for (let at = 1; at < cell.length - 1; ) {
		const element: string[] = [];
		for (const elementKind of kinds) {
			const end = cellEnd(cell, at, elementKind);
			if (end < 0 || end > cell.length - 1) return elements;
			element.push(cell.slice(at, end));
			at = end;
		}
		elements.push(element);
	}
	return elements;
}

/** A list cell of elements' cells (null when empty). */
export function listCell(elements: string[][]): string {
	return elements.length === 0
		? NULL
		: LIST + elements.map((cells) => cells.join('')).join('') + LIST_END;
}

const DAY_MS = 86_400_000;
const DAY_ZERO = Date.UTC(1900, 0, 1);
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function dateCell(value: string): string | undefined {
	if (!DATE_PATTERN.test(value)) return undefined;
	const ms = Date.parse(`${value}T00:00:00Z`);
	const days = (ms - DAY_ZERO) / DAY_MS;
	if (
		!Number.isInteger(days) ||
		days < 0 ||
		days >= 64 ** 3 ||
		new Date(ms).toISOString().slice(0, 10) !== value
	)
		return undefined;
	return toBase64(days, LENGTHS.d);
}

function uuidCell(value: string): string | undefined {
	if (!UUID_PATTERN.test(value)) return undefined;
	let number = BigInt(`0x${value.replace(/-/g, '')}`);
	let out = '';
	for (let i = 0; i < LENGTHS.u; i++) {
		out = BASE64[Number(number % BigInt(64))] + out;
		number /= BigInt(64);
	}
	return out;
}

function uuidOf(cell: string): string {
	let number = BigInt(0);
	for (const ch of cell) number = number * BigInt(64) + BigInt(BASE64.indexOf(ch));
	const hex = number.toString(16).padStart(32, '0');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The cell of a value kept as it is, in a column of kind `d` (dates), `t` (times: epoch ms, kept
 * to the second) or `u` (IDs); `words` grows by a new word that looks like a status (the table's
 * words).
 */
export function valueCell(value: unknown, kind: Kind, words: string[]): string {
	if (value === null || value === undefined) return NULL;
	if (value === true) return TRUE;
	if (value === false) return FALSE;
	if (typeof value === 'string') {
		const fixed = kind === 'd' ? dateCell(value) : kind === 'u' ? uuidCell(value) : undefined;
		if (fixed) return fixed;
		let index = kind === 'u' ? -1 : words.indexOf(value);
		if (index < 0 && kind !== 'u' && words.length < MAX_WORDS && /^[A-Z_]{1,32}$/.test(value))
			index = words.push(value) - 1;
		if (index >= 0)
			return index < SHORT_WORDS.length
				? SHORT_WORDS[index]
				: WORD + BASE64[index - SHORT_WORDS.length];
	}
	if (
		kind === 't' &&
		typeof value === 'number' &&
		Number.isInteger(value / 1000) &&
		value >= 0 &&
		value / 1000 < 64 ** LENGTHS.t
	)
		return toBase64(value / 1000, LENGTHS.t);
	return LITERAL + encodeURIComponent(JSON.stringify(value)) + LITERAL_END;
}

/** The value a cell stands for; undefined for a hash, a fingerprint or a cell not known. */
export function cellValue(cell: string | undefined, kind: Kind, words: readonly string[]): unknown {
	if (cell === undefined || cell === UNKNOWN || cell[0] === LIST) return undefined;
	if (cell === NULL) return null;
	if (cell === TRUE) return true;
	if (cell === FALSE) return false;
	if (isBase64Char(cell[0])) {
		if (kind === 'd')
			return new Date(DAY_ZERO + fromBase64(cell) * DAY_MS).toISOString().slice(0, 10);
		if (kind === 't') return fromBase64(cell) * 1000;
		if (kind === 'u') return uuidOf(cell);
		return undefined;
	}
	if (SHORT_WORDS.includes(cell)) return words[SHORT_WORDS.indexOf(cell)];
	if (cell[0] === WORD) return words[SHORT_WORDS.length + BASE64.indexOf(cell[1])];
	return JSON.parse(decodeURIComponent(cell.slice(1, -1))) as unknown;
}

/**
 * Ids are remembered as 9-character fingerprints (a 53-bit hash), so remembering 10,000 of them
 * takes 90 KB instead of 360 KB. Two different ids share a fingerprint with a probability of about
 * n² / 2^54 (10,000 ids: 1 in 180 million); such an id would not be reported as new.
 *
 * Field values kept only to tell whether they changed are remembered as 4-character hashes
 * (24 bits, `hashCell`): a changed value keeps its hash with a probability of 1 in 2^24 (about
 * 1 in 16.8 million), and that change is not reported.
 */
export const FINGERPRINT_LENGTH = LENGTHS.f;
const HASH_CELL_LENGTH = LENGTHS.h;

/** cyrb53 (public domain): a fast 53-bit string hash. */
function hash53(text: string): number {
	let h1 = 0xdeadbeef;
	let h2 = 0x41c6ce57;
	for (let i = 0; i < text.length; i++) {
		const ch = text.charCodeAt(i);
		h1 = Math.imul(h1 ^ ch, 2654435761);
		h2 = Math.imul(h2 ^ ch, 1597334677);
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
	return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

export function fingerprint(id: string): string {
	return toBase64(hash53(id), FINGERPRINT_LENGTH);
}

/** A value's 24-bit hash, 4 characters of the fingerprint alphabet. */
export function hashCell(text: string): string {
	return toBase64(hash53(text) % 2 ** 24, HASH_CELL_LENGTH);
}
