/** Numbers written in base 64 (URL-safe alphabet, most significant digit first): the trigger state's compact encodings. */
export const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

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
