/**
 * A stable key derived from what a write sends (method, path, query and body, keys sorted): the
 * same request from the same input item gives the same key on every run, so a re-run is
 * recognised by the API instead of being applied twice.
 */
export function deriveIdempotencyKey(method: string, path: string, body: unknown, query?: unknown): string {
	const hasQuery = query !== undefined && query !== null && typeof query === 'object' && Object.keys(query).length > 0;
	const text = `${method.toUpperCase()} ${path}${hasQuery ? `?${stableJson(query)}` : ''} ${stableJson(body)}`;
	const lanes = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b];
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		for (let lane = 0; lane < lanes.length; lane++) {
			lanes[lane] = Math.imul(lanes[lane] ^ code, 0x01000193 + lane * 0x2f);
			lanes[lane] ^= lanes[lane] >>> 15;
		}
	}
	return 'n8n-' + lanes.map((lane) => (lane >>> 0).toString(16).padStart(8, '0')).join('');
}

function stableJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.keys(value as object)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}
