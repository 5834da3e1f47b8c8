import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	PreSendAction,
} from 'n8n-workflow';
import { invalidInput, quoted } from '../shared/invalidInput';
import { BODY_IDS, listInsteadOfId } from '../shared/idChecks';

export type ValueType =
	| 'string'
	| 'number'
	| 'integer'
	| 'boolean'
	| 'date'
	| 'dateTime'
	| 'httpUrl'
	| 'object'
	| 'array';

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

const DATE_FORM = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

/** Why a text in the form YYYY-MM-DD is not a real calendar day (no 2026-13-45, no 2026-02-30), or undefined. */
function calendarProblem(text: string): string | undefined {
	const [year, month, day] = text.split('-').map(Number);
	if (month < 1 || month > 12) return `there is no month ${month}`;
	const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
	const monthName = new Date(Date.UTC(year, month - 1, 1)).toLocaleString('en', {
		month: 'long',
		timeZone: 'UTC',
	});
	return day < 1 || day > days ? `${monthName} ${year} has ${days} days` : undefined;
}

/** What is wrong with a value: `value` (quoted) is the sentence's subject, when there is one. */
interface Problem {
	value?: string;
	predicate: string;
}

const about = (value: unknown, predicate: string): Problem => ({ value: quoted(value), predicate });

function dateProblem(value: unknown): Problem | undefined {
	if (typeof value !== 'string' || !DATE_FORM.test(value))
		return about(value, 'is not a date in the form YYYY-MM-DD, such as 2026-01-31');
	const wrong = calendarProblem(value);
	return wrong ? about(value, `is not a real calendar date: ${wrong}`) : undefined;
}

function dateTimeProblem(value: unknown): Problem | undefined {
	const form = typeof value === 'string' ? DATE_TIME.exec(value) : null;
	if (!form)
		return about(
			value,
			'is not an ISO 8601 date-time with a time zone, such as 2026-01-31T12:00:00Z',
		);
	const wrong = calendarProblem(form[1]);
	if (wrong) return about(value, `is not a real date-time: ${wrong}`);
	return Number.isNaN(Date.parse(value as string))
		? about(value, 'is not a real date-time: its time of day does not exist')
		: undefined;
}

function problemWith(value: unknown, rule: FieldRule): Problem | undefined {
	switch (rule.type) {
		case 'string':
			if (BODY_IDS[rule.field] && Array.isArray(value))
				return { predicate: listInsteadOfId(value) as string };
			if (typeof value !== 'string') return about(value, 'is not text');
			if (rule.required && value.trim() === '') return { predicate: 'is empty' };
			if (rule.maxLength !== undefined && value.length > rule.maxLength)
				return {
					predicate: `is ${value.length} characters long, at most ${rule.maxLength} are allowed`,
				};
			if (rule.oneOf && !rule.oneOf.includes(value))
				return about(value, `is not one of ${rule.oneOf.join(', ')}`);
			if (rule.pattern && !rule.pattern.test(value))
				return about(value, rule.patternHint ?? 'has the wrong format');
			if (!rule.pattern && BODY_IDS[rule.field] && !BODY_IDS[rule.field].pattern.test(value))
				return about(value, BODY_IDS[rule.field].hint);
			return undefined;
		case 'number':
			return typeof value === 'number' && Number.isFinite(value)
				? undefined
				: about(value, 'is not a number');
		case 'integer':
			if (typeof value !== 'number' || !Number.isInteger(value))
				return about(value, 'is not a whole number');
			return rule.min !== undefined && value < rule.min
				? { value: String(value), predicate: `is less than ${rule.min}` }
				: undefined;
		case 'boolean':
			return typeof value === 'boolean' ? undefined : about(value, 'is not true or false');
		case 'date':
			return dateProblem(value);
		case 'dateTime':
			return dateTimeProblem(value);
		case 'httpUrl':
			return isHttpUrl(value) ? undefined : about(value, 'is not an absolute http(s) URL');
		case 'object':
			return value !== null && typeof value === 'object' && !Array.isArray(value)
				? undefined
				: about(value, 'is not a JSON object');
		case 'array':
			return Array.isArray(value) ? undefined : about(value, 'is not a list');
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
	if (type === 'string' && typeof value === 'number' && Number.isFinite(value))
		return String(value);
	if (
		(type === 'number' || type === 'integer') &&
		typeof value === 'string' &&
		NUMBER_TEXT.test(value.trim())
	)
		return Number(value.trim());
	return value;
}

/** Where the checked fields sit when they are the fields of one entry of a list (a brick of Bricks). */
export interface ListEntry {
	list: string;
	/** 1-based, as the editor counts rows. */
	entry: number;
	/** The part of the entry the fields belong to, such as "discount". */
	part?: string;
}

function entryError(
	ctx: IExecuteSingleFunctions,
	at: ListEntry,
	label: string,
	problem: Problem | 'missing',
) {
	const owner = at.part ? `the ${at.part} of entry ${at.entry}` : `entry ${at.entry}`;
	if (problem === 'missing')
		return invalidInput(ctx, at.list, `${owner} has no ${label}, which is required`);
	const value = problem.value ? `, ${problem.value},` : '';
	return invalidInput(ctx, at.list, `the ${label} of ${owner}${value} ${problem.predicate}`);
}

/** Checks (and, where unambiguous, converts in place) the fields of `source` against the rules. */
export function checkFields(
	ctx: IExecuteSingleFunctions,
	source: IDataObject,
	rules: FieldRule[],
	at?: ListEntry,
): void {
	for (const rule of rules) {
		if (isMissing(source[rule.field])) {
			if (rule.required)
				throw at
					? entryError(ctx, at, rule.label, 'missing')
					: invalidInput(ctx, rule.label, 'is required');
			continue;
		}
		const value = coerced(source[rule.field], rule.type);
		const problem = problemWith(value, rule);
		if (problem) {
			throw at
				? entryError(ctx, at, rule.label, problem)
				: invalidInput(
						ctx,
						rule.label,
						problem.value ? `${problem.value} ${problem.predicate}` : problem.predicate,
					);
		}
		if (value !== source[rule.field]) source[rule.field] = value as IDataObject[string];
	}
}

/** A preSend step that checks the composed body (and query) against the rules before anything is sent. */
export function validateFields(rules: FieldRule[]): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const body = (requestOptions.body ?? {}) as IDataObject;
		const qs = (requestOptions.qs ?? {}) as IDataObject;
		checkFields(
			this,
			body,
			rules.filter((rule) => rule.in !== 'qs'),
		);
		checkFields(
			this,
			qs,
			rules.filter((rule) => rule.in === 'qs'),
		);
		return requestOptions;
	};
}

/** A preSend step for searches and partial updates that need at least one of the fields of the collection `what`. */
export function requireAnyField(
	fields: Array<Pick<FieldRule, 'field' | 'label'>>,
	what: string,
): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const body = (requestOptions.body ?? {}) as IDataObject;
		if (!fields.some(({ field }) => !isMissing(body[field]) && !isEmptyObject(body[field]))) {
			throw invalidInput(
				this,
				what,
				`give at least one of ${fields.map(({ label }) => label).join(', ')}`,
			);
		}
		return requestOptions;
	};
}

function isEmptyObject(value: unknown): boolean {
	return isPlainObject(value) && Object.keys(value).length === 0;
}

/** No value: absent, null or an empty string. */
export function isMissing(value: unknown): boolean {
	return value === undefined || value === null || value === '';
}

export function isPlainObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body without its empty fields; an object (such as an address) is kept only with a value in it. */
function withoutEmpty(body: IDataObject): IDataObject {
	const kept: IDataObject = {};
	for (const [field, value] of Object.entries(body)) {
		if (isMissing(value)) continue;
		if (isPlainObject(value)) {
			const inner = withoutEmpty(value);
			if (Object.keys(inner).length > 0) kept[field] = inner;
			continue;
		}
		kept[field] = value;
	}
	return kept;
}

/**
 * A preSend step for optional fields: one added in the editor but left empty means "not given",
 * so it is left out of the body instead of being sent as "".
 */
export const omitEmptyFields: PreSendAction = async function (
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
) {
	if (isPlainObject(requestOptions.body)) requestOptions.body = withoutEmpty(requestOptions.body);
	return requestOptions;
};

/**
 * A preSend step for an operation whose body is a JSON object of optional fields: n8n sends no
 * body at all for an empty object, so `{}` is sent as text instead.
 */
export const sendEmptyJsonObject: PreSendAction = async function (
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
) {
	const body = requestOptions.body;
	if (body === undefined || (isPlainObject(body) && Object.keys(body).length === 0)) {
		requestOptions.body = '{}';
		requestOptions.headers = { ...requestOptions.headers, 'Content-Type': 'application/json' };
	}
	return requestOptions;
};
