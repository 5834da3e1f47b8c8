import { LENGTHS, toBase64 } from './cells';

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
