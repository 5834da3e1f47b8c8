/**
 * Ids are remembered as 9-character fingerprints (a 53-bit hash), so remembering 10,000 of them
 * takes 90 KB instead of 360 KB. Two different ids share a fingerprint with a probability of about
 * n² / 2^54 (10,000 ids: 1 in 180 million); such an id would not be reported as new.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
export const FINGERPRINT_LENGTH = 9;

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
	let value = hash53(id);
	let out = '';
	for (let i = 0; i < FINGERPRINT_LENGTH; i++) {
		out += ALPHABET[value % 64];
		value = Math.floor(value / 64);
	}
	return out;
}

/** A set of fingerprints stored as one string (no separators: every fingerprint has the same length). */
export function unpackFingerprints(packed: string | undefined): Set<string> {
	const set = new Set<string>();
	if (!packed) return set;
	for (let i = 0; i + FINGERPRINT_LENGTH <= packed.length; i += FINGERPRINT_LENGTH) set.add(packed.slice(i, i + FINGERPRINT_LENGTH));
	return set;
}

export function packFingerprints(set: Iterable<string>): string {
	return [...set].sort().join('');
}
