import {
	NodeOperationError,
	type IDataObject,
	type IExecutePaginationFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type PreSendAction,
} from 'n8n-workflow';
import { MAX_PAGE_SIZE } from '../shared/constants';
import { checkedId, ID } from '../shared/idChecks';
import { invalidInput, quoted } from '../shared/invalidInput';
import { visitPages } from '../shared/pagination';
import type { Session } from '../shared/transport';

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

function wantedId(ctx: IExecuteSingleFunctions | IExecutePaginationFunctions, lookup: ListLookup): unknown {
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
export async function findInList(ctx: IExecutePaginationFunctions, session: Session, first: IHttpRequestOptions, lookup: ListLookup): Promise<IDataObject> {
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
	throw new NodeOperationError(session.node, `${lookup.label} in item ${session.itemIndex}: no ${lookup.noun} has the ID ${quoted(id)}`, {
		itemIndex: session.itemIndex,
		description: `The API has no get by ID for a ${lookup.noun}, so the node read the whole list: ${read} ${lookup.noun}s in ${requests} request(s) of up to ${MAX_PAGE_SIZE}. Check the ID, and that the credential's environment is the one the ${lookup.noun} belongs to.`,
	});
}
