import type { IExecuteSingleFunctions } from 'n8n-workflow';
import { invalidInput } from '../../shared/invalidInput';

/** Reads a JSON field that may hold a JSON text or, from an expression, the value itself. */
export function parseJsonParameter(
	ctx: IExecuteSingleFunctions,
	raw: unknown,
	label: string,
	expected: 'object' | 'array',
): unknown {
	let value = raw;
	if (typeof raw === 'string') {
		if (raw.trim() === '') return expected === 'array' ? [] : {};
		try {
			value = JSON.parse(raw);
		} catch (error) {
			throw invalidInput(ctx, label, `is not valid JSON (${(error as Error).message})`);
		}
	}
	const isArray = Array.isArray(value);
	if (expected === 'array' ? !isArray : isArray || value === null || typeof value !== 'object') {
		throw invalidInput(
			ctx,
			label,
			expected === 'array' ? 'must be a JSON array' : 'must be a JSON object',
		);
	}
	return value;
}
