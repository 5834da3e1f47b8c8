'use strict';
// Seeded pseudo-random numbers and deterministic UUIDs (no dependencies).
// Every generator is derived from (seed, label) so that independent parts of the
// seed (customers, big invoices, runtime ids, faults) never shift each other.

const HEX = [];
for (let i = 0; i < 256; i++) HEX.push(i.toString(16).padStart(2, '0'));

function hashString(str) {
	// FNV-1a followed by a murmur3 finaliser: a well-mixed 32-bit hash.
	let h = 0x811c9dc5;
	for (let i = 0; i < str.length; i++) {
		h ^= str.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	h ^= h >>> 16;
	h = Math.imul(h, 0x85ebca6b);
	h ^= h >>> 13;
	h = Math.imul(h, 0xc2b2ae35);
	h ^= h >>> 16;
	return h >>> 0;
}

function hex32(n) {
	return HEX[(n >>> 24) & 255] + HEX[(n >>> 16) & 255] + HEX[(n >>> 8) & 255] + HEX[n & 255];
}

function uuidFromWords(a, b, c, d) {
	const h = hex32(a) + hex32(b) + hex32(c) + hex32(d);
	// RFC 4122 version 4 layout, lower case.
	const variant = '89ab'[parseInt(h[16], 16) & 3];
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

class Rng {
	constructor(seed, label = '') {
		this.state = (hashString(`${seed}:${label}`) ^ 0x9e3779b9) >>> 0;
	}
	/** mulberry32: next unsigned 32-bit integer. */
	u32() {
		let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return (t ^ (t >>> 14)) >>> 0;
	}
	/** float in [0, 1). */
	next() {
		return this.u32() / 4294967296;
	}
	/** integer in [min, max] inclusive. */
	int(min, max) {
		return min + Math.floor(this.next() * (max - min + 1));
	}
	pick(arr) {
		return arr[Math.floor(this.next() * arr.length)];
	}
	uuid() {
		return uuidFromWords(this.u32(), this.u32(), this.u32(), this.u32());
	}
	alnum(n) {
		let s = '';
		for (let i = 0; i < n; i++) s += ALNUM[this.u32() % ALNUM.length];
		return s;
	}
	digits(n) {
		let s = '';
		for (let i = 0; i < n; i++) s += String(this.u32() % 10);
		return s;
	}
}

/** Deterministic UUID derived from a string (used for ids computed on demand). */
function hashUuid(str) {
	const r = new Rng(hashString(str), 'hash-uuid');
	return r.uuid();
}

module.exports = { Rng, hashString, hashUuid };
