import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, PreSendAction } from 'n8n-workflow';
import { isMissing, isPlainObject } from './emptyFields';
import { invalidInput, quoted } from '../shared/invalidInput';
import { ID_HINT, ID_PATTERN, UUID_HINT, UUID_PATTERN } from '../shared/pathParameters';

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
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

/**
 * The contract's patterns for ids sent in a body, applied wherever a rule names one of these
 * fields, so a body id is held to the same rule as the same id in a path.
 */
const ID_FIELDS: Record<string, { pattern: RegExp; hint: string }> = {
	customer_id: { pattern: ID_PATTERN, hint: ID_HINT },
	subscription_id: { pattern: ID_PATTERN, hint: ID_HINT },
	order_id: { pattern: UUID_PATTERN, hint: UUID_HINT },
};

/** A real calendar day (no 2026-02-30). */
function isCalendarDate(text: string): boolean {
	if (!DATE.test(text)) return false;
	const [year, month, day] = text.split('-').map(Number);
	const date = new Date(Date.UTC(year, month - 1, day));
	return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function problemWith(value: unknown, rule: FieldRule): string | undefined {
	switch (rule.type) {
		case 'string':
			if (typeof value !== 'string') return `${quoted(value)} is not text`;
			if (rule.required && value.trim() === '') return 'is empty';
			if (rule.maxLength !== undefined && value.length > rule.maxLength)
				return `is ${value.length} characters long, at most ${rule.maxLength} are allowed`;
			if (rule.oneOf && !rule.oneOf.includes(value)) return `${quoted(value)} is not one of ${rule.oneOf.join(', ')}`;
			if (rule.pattern && !rule.pattern.test(value)) return `${quoted(value)} ${rule.patternHint ?? 'has the wrong format'}`;
			if (!rule.pattern && ID_FIELDS[rule.field] && !ID_FIELDS[rule.field].pattern.test(value))
				return `${quoted(value)} ${ID_FIELDS[rule.field].hint}`;
			return undefined;
		case 'number':
			return typeof value === 'number' && Number.isFinite(value) ? undefined : `${quoted(value)} is not a number`;
		case 'integer':
			if (typeof value !== 'number' || !Number.isInteger(value)) return `${quoted(value)} is not a whole number`;
			return rule.min !== undefined && value < rule.min ? `${value} is less than ${rule.min}` : undefined;
		case 'boolean':
			return typeof value === 'boolean' ? undefined : `${quoted(value)} is not true or false`;
		case 'date':
			return typeof value === 'string' && isCalendarDate(value) ? undefined : `${quoted(value)} is not a date in the form YYYY-MM-DD`;
		case 'dateTime':
			return typeof value === 'string' && DATE_TIME.test(value) && isCalendarDate(DATE_TIME.exec(value)![1]) && !Number.isNaN(Date.parse(value))
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

/**
 * What a mapped value unambiguously means for the field's type: a number given to a text field
 * becomes its text (an id from a numeric column), a text holding just a number becomes that number
 * (a value read from CSV). Anything else is left as it is, for the check to name.
 */
function coerced(value: unknown, type: ValueType): unknown {
	if (type === 'string' && typeof value === 'number' && Number.isFinite(value)) return String(value);
	if ((type === 'number' || type === 'integer') && typeof value === 'string' && NUMBER_TEXT.test(value.trim())) return Number(value.trim());
	return value;
}

/** Checks (and, where unambiguous, converts in place) the fields of `source` against the rules. */
export function checkFields(ctx: IExecuteSingleFunctions, source: IDataObject, rules: FieldRule[], prefix = ''): void {
	for (const rule of rules) {
		const label = `${prefix}${rule.label}`;
		if (isMissing(source[rule.field])) {
			if (rule.required) throw invalidInput(ctx, label, 'is required');
			continue;
		}
		const value = coerced(source[rule.field], rule.type);
		const problem = problemWith(value, rule);
		if (problem) throw invalidInput(ctx, label, problem);
		if (value !== source[rule.field]) source[rule.field] = value as IDataObject[string];
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

/** A preSend step for searches and partial updates that need at least one of the fields of the collection `what`. */
export function requireAnyField(fields: Array<Pick<FieldRule, 'field' | 'label'>>, what: string): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const body = (requestOptions.body ?? {}) as IDataObject;
		if (!fields.some(({ field }) => !isMissing(body[field]) && !isEmptyObject(body[field]))) {
			throw invalidInput(this, what, `give at least one of ${fields.map(({ label }) => label).join(', ')}`);
		}
		return requestOptions;
	};
}

function isEmptyObject(value: unknown): boolean {
	return isPlainObject(value) && Object.keys(value).length === 0;
}
