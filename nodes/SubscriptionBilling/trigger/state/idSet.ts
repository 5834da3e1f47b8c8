import { fingerprint, FINGERPRINT_LENGTH } from './cells';

/** One id stored on its own (DetailPass.lastRead). */
export const storedId = fingerprint;

/** A set of ids stored as their fingerprints in order in one string (no separators: every fingerprint has the same length). */
export class IdSet {
	private readonly prints = new Set<string>();

	static read(packed: string | undefined): IdSet {
		const set = new IdSet();
		for (let i = 0; packed && i + FINGERPRINT_LENGTH <= packed.length; i += FINGERPRINT_LENGTH)
			set.prints.add(packed.slice(i, i + FINGERPRINT_LENGTH));
		return set;
	}

	/** A list of ids as stored, each as often as listed (Watched.failed). */
	static pack(ids: readonly string[]): string {
		return ids.map(fingerprint).sort().join('');
	}

	has(id: string): boolean {
		return this.prints.has(fingerprint(id));
	}

	add(id: string): void {
		this.prints.add(fingerprint(id));
	}

	delete(id: string): void {
		this.prints.delete(fingerprint(id));
	}

	store(): string {
		return [...this.prints].sort().join('');
	}
}
