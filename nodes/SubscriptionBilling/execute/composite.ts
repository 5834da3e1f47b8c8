import {
	NodeOperationError,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type PreSendAction,
} from 'n8n-workflow';
import { asNodeError, errorFieldsOf } from '../shared/apiError';
import { IDEMPOTENCY_HEADER, MAX_PAGE_SIZE } from '../shared/constants';
import { invalidInput, quoted } from '../shared/invalidInput';
import { sendWithRetries, type Session } from '../shared/transport';
import { isMissing } from './bodyRules';
import { checkedId, ID } from '../shared/idChecks';
import { visitPages } from '../shared/pagination';

// Operations the API has no endpoint for, made of requests it has: Create or Update (a search, then
// a create or an update) and a get by ID read through the list.

/** A field a Create or Update finds its record by: the user picks one in Match By. */
export interface MatchField {
	/** The Match By option, and the node parameter holding the value. */
	parameter: string;
	/** As the editor shows it. */
	label: string;
	/** The API's field, in the body and in the search. */
	field: string;
}

/**
 * A create or update the API has no operation for: one search by the match field, then a create
 * when nothing matched or a partial update of the one record that did.
 */
export interface Upsert {
	/** The node parameter choosing the match field. */
	matchBy: string;
	matchFields: MatchField[];
	searchPath: string;
	/** The update's path, `{id}` standing for the found record's ID. */
	updatePath: string;
	idField: string;
	/** The record, as messages name it: "customer". */
	noun: string;
}

export type UpsertAction = 'created' | 'updated';

/**
 * How a write of the upsert is keyed: `update` says it is the update (a custom key keys the create);
 * `after`, the key of the write before it (see createOrUpdate).
 */
export type WriteKey = (
	request: IHttpRequestOptions,
	write: 'create' | 'update',
	after?: string,
) => string | undefined;

function matchFieldOf(
	ctx: IExecuteSingleFunctions | IExecutePaginationFunctions,
	upsert: Upsert,
): MatchField {
	const chosen = ctx.getNodeParameter(upsert.matchBy, upsert.matchFields[0].parameter);
	return upsert.matchFields.find((match) => match.parameter === chosen) ?? upsert.matchFields[0];
}

/** The match value must be there: with none, a search could not tell whether the record exists. */
export function matchValueCheck(upsert: Upsert): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const match = matchFieldOf(this, upsert);
		const value = ((requestOptions.body ?? {}) as IDataObject)[match.field];
		if (isMissing(value) || (typeof value === 'string' && value.trim() === '')) {
			throw invalidInput(
				this,
				match.label,
				`is empty: Create or Update finds the ${upsert.noun} by it, so nothing can be matched without it`,
			);
		}
		return requestOptions;
	};
}

/** One search for the match value: the record found, or undefined; more than one fails naming them. */
async function findMatch(
	session: Session,
	base: IHttpRequestOptions,
	upsert: Upsert,
	match: MatchField,
	value: string,
): Promise<IDataObject | undefined> {
	const request: IHttpRequestOptions = {
		...base,
		method: 'POST',
		url: upsert.searchPath,
		qs: { limit: 2 },
		body: { [match.field]: value },
	};
	const page = (await sendWithRetries({ ...session, safeToRepeat: true }, request)) as {
		results?: unknown;
		count?: unknown;
	} | null;
	const results = Array.isArray(page?.results) ? (page.results as IDataObject[]) : [];
	// The search matches exactly; an entry that does not carry the value is not this record.
	const matching = results.filter((record) => record?.[match.field] === value);
	const counted = typeof page?.count === 'number' ? page.count : matching.length;
	if (matching.length <= 1 && counted <= 1) return matching[0];
	const ids = matching.map((record) => quoted(record[upsert.idField])).join(', ');
	throw new NodeOperationError(
		session.node,
		`${match.label} in item ${session.itemIndex}: ${Math.max(counted, matching.length)} ${upsert.noun}s have the ${match.label} ${quoted(value)}`,
		{
			itemIndex: session.itemIndex,
			description: `Create or Update changes one ${upsert.noun}, and the API has several with this ${match.label} (${ids}${counted > matching.length ? ', …' : ''}). Nothing was written. Give each ${upsert.noun} its own ${match.label}, or change one of them with Update.`,
		},
	);
}

async function write(
	session: Session,
	request: IHttpRequestOptions,
	key: string | undefined,
): Promise<IDataObject> {
	const headers = { ...request.headers };
	delete headers[IDEMPOTENCY_HEADER];
	if (key) headers[IDEMPOTENCY_HEADER] = key;
	return (await sendWithRetries(
		{ ...session, safeToRepeat: key !== undefined },
		{ ...request, headers },
	)) as IDataObject;
}

/** Refusals a create can meet when the record was made meanwhile (the API refuses a second customer of the same name). */
function mayBeTaken(error: unknown): boolean {
	return [400, 409, 422].includes(errorFieldsOf(error).status ?? 0);
}

/** What an item's Create or Update left for the next item of its run with the same match value: the record, and its write's key. */
interface Done {
	record: IDataObject;
	key?: string;
}

/** Per run (the engine's execute data): the items seen, and the last Create or Update of each match value. */
const runs = new WeakMap<
	object,
	{ items: Set<number>; last: Map<string, Promise<Done | undefined>> }
>();

/**
 * The item's turn among the items of its run with the same match value: they go one after
 * another, in the order they come, each once the one before has been answered, so that the first
 * creates the record and the next update it instead of each finding nothing and creating one.
 * `previous`: what the one before left (undefined when it failed, or there was none).
 */
function turnOf(
	ctx: IExecutePaginationFunctions,
	itemIndex: number,
	matchValue: string,
): { previous: Promise<Done | undefined>; leave: (done?: Done) => void } {
	const executeData = ctx.getExecuteData() as object | undefined;
	let leave: (done?: Done) => void = () => undefined;
	const mine = new Promise<Done | undefined>((resolve) => (leave = resolve));
	if (!executeData) return { previous: Promise.resolve(undefined), leave };
	let run = runs.get(executeData);
	// An item seen before: a new try of the node (n8n's Retry On Fail) has begun.
	if (!run || run.items.has(itemIndex)) {
		run = { items: new Set(), last: new Map() };
		runs.set(executeData, run);
	}
	run.items.add(itemIndex);
	const previous = run.last.get(matchValue) ?? Promise.resolve(undefined);
	run.last.set(matchValue, mine);
	return { previous, leave };
}

/**
 * Creates the record, or updates the one whose match field has the value. `create` is the composed
 * create request (body: every field given). A create refused because another run created the record
 * meanwhile (two executions at once) becomes an update of the record found again. Items of one run
 * with the same match value go one after another (turnOf): an item after one that was applied
 * updates that item's record by its ID, without a search (which an API's search index could answer
 * before it holds the new record). Its key depends on the write before it, so that in a new try of
 * the node (Retry On Fail) the update is applied again after the item before has written again, and
 * a retry of the same request is not.
 */
export async function createOrUpdate(
	ctx: IExecutePaginationFunctions,
	session: Session,
	create: IHttpRequestOptions,
	upsert: Upsert,
	keyFor: WriteKey,
): Promise<{ record: IDataObject; action: UpsertAction }> {
	const match = matchFieldOf(ctx, upsert);
	const body = create.body as IDataObject;
	const value = String(body[match.field]);
	const turn = turnOf(ctx, session.itemIndex, `${match.field} ${value}`);
	let key: string | undefined;
	const update = async (
		found: IDataObject,
		after?: string,
	): Promise<{ record: IDataObject; action: UpsertAction }> => {
		const changes = Object.fromEntries(
			Object.entries(body).filter(([field]) => field !== match.field),
		);
		const path = upsert.updatePath.replace(
			'{id}',
			encodeURIComponent(String(found[upsert.idField])),
		);
		const request: IHttpRequestOptions = {
			...create,
			method: 'PATCH',
			url: path,
			qs: {},
			body: changes,
		};
		key = keyFor(request, 'update', after);
		return { record: await write(session, request, key), action: 'updated' };
	};
	const createOrUpdateOnce = async (): Promise<{ record: IDataObject; action: UpsertAction }> => {
		const before = await turn.previous;
		if (before && before.record[upsert.idField] !== undefined)
			return await update(before.record, before.key);
		const found = await findMatch(session, create, upsert, match, value);
		if (found) return await update(found);
		try {
			key = keyFor(create, 'create');
			return { record: await write(session, create, key), action: 'created' };
		} catch (error) {
			if (!mayBeTaken(error)) throw asNodeError(session.node, error, session.itemIndex);
			const madeMeanwhile = await findMatch(session, create, upsert, match, value);
			if (!madeMeanwhile) throw asNodeError(session.node, error, session.itemIndex);
			return await update(madeMeanwhile);
		}
	};
	let done: Done | undefined;
	try {
		const result = await createOrUpdateOnce();
		done = { record: result.record, key };
		return result;
	} finally {
		turn.leave(done);
	}
}

/**
 * A get by ID the API does not have, done by reading a paged list until the first result with that
 * ID: one request per MAX_PAGE_SIZE results before it, the whole list when there is none.
 */
export interface ListLookup {
	/** The node parameter holding the ID (a resource locator). */
	parameter: string;
	/** The parameter as the editor shows it, for messages. */
	label: string;
	/** The result's ID field. */
	field: string;
	/** The result, as messages name it: "customer". */
	noun: string;
}

function wantedId(
	ctx: IExecuteSingleFunctions | IExecutePaginationFunctions,
	lookup: ListLookup,
): unknown {
	return ctx.getNodeParameter(lookup.parameter, undefined, { extractValue: true });
}

/** The ID is checked before anything is sent, as a path ID would be. */
export function lookupIdCheck(lookup: ListLookup): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const checked = checkedId(wantedId(this, lookup), ID, lookup.parameter);
		if ('problem' in checked) throw invalidInput(this, lookup.label, checked.problem);
		return requestOptions;
	};
}

/** The first result whose ID matches, read page by page; fails naming what was read when none does. */
export async function findInList(
	ctx: IExecutePaginationFunctions,
	session: Session,
	first: IHttpRequestOptions,
	lookup: ListLookup,
): Promise<IDataObject> {
	const id = String(wantedId(ctx, lookup));
	let found: IDataObject | undefined;
	let read = 0;
	let requests = 0;
	await visitPages(session, first, { limit: Infinity, paged: true }, (page) => {
		requests++;
		read += page.results.length;
		found = page.results.find((result) => result?.[lookup.field] === id);
		return found ? 'stop' : 'next';
	});
	if (found) return found;
	throw new NodeOperationError(
		session.node,
		`${lookup.label} in item ${session.itemIndex}: no ${lookup.noun} has the ID ${quoted(id)}`,
		{
			itemIndex: session.itemIndex,
			description: `The API has no get by ID for a ${lookup.noun}, so the node read the whole list: ${read} ${lookup.noun}s in ${requests} request(s) of up to ${MAX_PAGE_SIZE}. Check the ID, and that the credential's environment is the one the ${lookup.noun} belongs to.`,
		},
	);
}
