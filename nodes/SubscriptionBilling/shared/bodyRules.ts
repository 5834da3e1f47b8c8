import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, PreSendAction } from 'n8n-workflow';
import { invalidInput, quoted } from './invalidInput';

export type ValueType = 'string' | 'number' | 'integer' | 'boolean' | 'date' | 'dateTime' | 'httpUrl' | 'object' | 'array';

/** A rule for one field of the request body (or query), addressed by its API name. */
export interface FieldRule {
	field: string;
	label: string;
	type: ValueType;
	required?: boolean;
	maxLength?: number;
	min?: number;
	oneOf?: string[];
	pattern?: RegExp;
	patternHint?: string;
	in?: 'body' | 'qs';
}

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function problemWith(value: unknown, rule: FieldRule): string | undefined {
	switch (rule.type) {
		case 'string':
			if (typeof value !== 'string') return `${quoted(value)} is not text`;
			if (rule.required && value.trim() === '') return 'is empty';
			if (rule.maxLength !== undefined && value.length > rule.maxLength)
				return `is ${value.length} characters long, at most ${rule.maxLength} are allowed`;
			if (rule.oneOf && !rule.oneOf.includes(value)) return `${quoted(value)} is not one of ${rule.oneOf.join(', ')}`;
			if (rule.pattern && !rule.pattern.test(value)) return `${quoted(value)} ${rule.patternHint ?? 'has the wrong format'}`;
			return undefined;
		case 'number':
			return typeof value === 'number' && Number.isFinite(value) ? undefined : `${quoted(value)} is not a number`;
		case 'integer':
			if (typeof value !== 'number' || !Number.isInteger(value)) return `${quoted(value)} is not a whole number`;
			return rule.min !== undefined && value < rule.min ? `${value} is less than ${rule.min}` : undefined;
		case 'boolean':
			return typeof value === 'boolean' ? undefined : `${quoted(value)} is not true or false`;
		case 'date':
			return typeof value === 'string' && DATE.test(value) ? undefined : `${quoted(value)} is not a date in the form YYYY-MM-DD`;
		case 'dateTime':
			return typeof value === 'string' && DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))
				? undefined
				: `${quoted(value)} is not an ISO 8601 date-time with a time zone, such as 2026-01-31T12:00:00Z`;
		case 'httpUrl':
			return isHttpUrl(value) ? undefined : `${quoted(value)} is not an absolute http(s) URL`;
		case 'object':
			return value !== null && typeof value === 'object' && !Array.isArray(value) ? undefined : `${quoted(value)} is not a JSON object`;
		case 'array':
			return Array.isArray(value) ? undefined : `${quoted(value)} is not a list`;
	}
}

function isHttpUrl(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	try {
		const url = new URL(value);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
	} catch {
		return false;
	}
}

function isMissing(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

export function checkFields(ctx: IExecuteSingleFunctions, source: IDataObject, rules: FieldRule[], prefix = ''): void {
	for (const rule of rules) {
		const value = source[rule.field];
		const label = `${prefix}${rule.label}`;
		if (isMissing(value)) {
			if (rule.required) throw invalidInput(ctx, label, 'is required');
			continue;
		}
		const problem = problemWith(value, rule);
		if (problem) throw invalidInput(ctx, label, problem);
	}
}

/** A preSend step that checks the composed body (and query) against the rules before anything is sent. */
export function validateFields(rules: FieldRule[]): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const body = (requestOptions.body ?? {}) as IDataObject;
		const qs = (requestOptions.qs ?? {}) as IDataObject;
		checkFields(this, body, rules.filter((rule) => rule.in !== 'qs'));
		checkFields(this, qs, rules.filter((rule) => rule.in === 'qs'));
		return requestOptions;
	};
}

/** A preSend step for searches and partial updates that need at least one field. */
export function requireAnyField(fields: string[], what: string): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const body = (requestOptions.body ?? {}) as IDataObject;
		if (!fields.some((field) => !isMissing(body[field]) && !isEmptyObject(body[field]))) {
			throw invalidInput(this, what, `give at least one of ${fields.join(', ')}`);
		}
		return requestOptions;
	};
}

function isEmptyObject(value: unknown): boolean {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
