const REDACTED = '[redacted]';

function usable(secret: string | undefined): secret is string {
	return typeof secret === 'string' && secret.length >= 4;
}

/** Replaces every occurrence of the secret in a text, so an echoed key never reaches output or logs. */
export function redact(text: string, secret: string | undefined): string {
	if (!usable(secret)) return text;
	let result = text;
	for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1)])) {
		if (result.includes(form)) result = result.split(form).join(REDACTED);
	}
	return result;
}

/**
 * The same for any JSON value (an API answer, error details): returned unchanged, without copying,
 * unless the secret occurs in it somewhere; then a copy with every occurrence replaced.
 */
export function redactDeep<T>(value: T, secret: string | undefined): T {
	if (!usable(secret) || value === null || value === undefined) return value;
	if (typeof value === 'string') return redact(value, secret) as T;
	if (typeof value !== 'object') return value;
	const text = JSON.stringify(value);
	if (text === undefined || !text.includes(JSON.stringify(secret).slice(1, -1))) return value;
	return replaceIn(value, secret) as T;
}

function replaceIn(value: unknown, secret: string): unknown {
	if (typeof value === 'string') return redact(value, secret);
	if (Array.isArray(value)) return value.map((entry) => replaceIn(entry, secret));
	if (value && typeof value === 'object') {
		const copy: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value)) copy[redact(key, secret)] = replaceIn(entry, secret);
		return copy;
	}
	return value;
}
