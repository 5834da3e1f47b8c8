import type {
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { notFoundMessageOf } from './apiError';
import { fieldAsNamed, invalidInput, quoted, runAsTool } from './invalidInput';

/** One rule for an ID: the contract's pattern, and what an error says after a value that fails it. */
export interface IdCheck {
	pattern: RegExp;
	hint: string;
	/** The check of a By ID field in the editor: looser where the node rewrites the value before checking it. */
	editor?: { regex: string; errorMessage: string };
	/** How the value is written before it is checked and sent. */
	normalise?: (value: string) => string;
}

const ID_PATTERN = /^[a-zA-Z\d-]+$/;

/** Customers, subscriptions, plans, bricks, milestones: the contract's pattern for their ids. */
export const ID = {
	pattern: ID_PATTERN,
	hint: 'is not an ID (an ID has only letters, digits and hyphens)',
	editor: { regex: ID_PATTERN.source, errorMessage: 'Only letters, digits and hyphens' },
} satisfies IdCheck;

/** A UUID as the API writes it (lowercase): invoice ids. */
export const UUID: IdCheck = {
	pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
	hint: 'is not a UUID such as 0b6c1b7e-2f1a-4c55-9d2e-0a1b2c3d4e5f',
};

/** An order ID: a UUID in either case, sent in lowercase (the API's path pattern is lowercase; in capitals it is the same UUID). */
export const ORDER_ID = {
	...UUID,
	editor: {
		regex: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
		errorMessage: 'A UUID such as e1e02167-f737-41fe-8eff-1f8971f96832',
	},
	normalise: (value: string) => value.trim().toLowerCase(),
} satisfies IdCheck;

/**
 * Where each ID an operation takes is found, by its parameter: the API field that holds it and the
 * operations that give it. Said in the AI tool's descriptions, in the builder's hint on the field and
 * after an ID that fails its check (the reader may be a model, which has only the operations).
 */
const ID_SOURCES: Record<string, { label: string; field: string; from: string }> = {
	customerId: {
		label: 'Customer',
		field: 'customer_id',
		from: 'Customer → Search (by name or your own External ID) or Customer → Get Many',
	},
	subscriptionId: {
		label: 'Subscription',
		field: 'subscription_id',
		from: "Customer → Search or Customer → Get (a customer's active_subscription_ids) or from an invoice",
	},
	planId: { label: 'Plan', field: 'plan_id', from: 'Plan → Get Many' },
	brickId: {
		label: 'Brick',
		field: 'brick_id',
		from: "Plan → Get or Plan → Get Many (each plan's bricks)",
	},
	orderId: {
		label: 'Order ID',
		field: 'order_id',
		from: 'Subscription Upgrade → Get Many (an upgrade) or Subscription Recast → Get Many (a recast)',
	},
	milestoneId: {
		label: 'Milestone ID',
		field: 'milestone_id',
		from: 'Subscription Milestone → Get Many',
	},
	transactionId: {
		label: 'Transaction ID',
		field: 'transaction_id',
		from: 'the Usage → Create that recorded the entry (your own ID for it; the API lists no usage entries)',
	},
};

/** "the subscription_id from Customer → Search or …", or undefined for a parameter that is not such an ID. */
export function idSource(
	parameter: string,
): { field: string; from: string; text: string } | undefined {
	const source = ID_SOURCES[parameter];
	return source && { ...source, text: `the ${source.field} from ${source.from}` };
}

/** Every ID that goes into a path, by its `{placeholder}`, with the field's name as the editor shows it. */
export const PATH_IDS: Record<string, { label: string; check: IdCheck }> = {
	customerId: { label: ID_SOURCES.customerId.label, check: ID },
	subscriptionId: { label: ID_SOURCES.subscriptionId.label, check: ID },
	orderId: { label: ID_SOURCES.orderId.label, check: ORDER_ID },
	planId: { label: ID_SOURCES.planId.label, check: ID },
	milestoneId: { label: ID_SOURCES.milestoneId.label, check: ID },
};

/** IDs sent in a body, by their API field: held to the same rule as the same ID in a path, and said where it is found. */
export const BODY_IDS: Record<string, IdCheck> = {
	customer_id: { ...ID, hint: `${ID.hint}. Give ${idSource('customerId')?.text}` },
	subscription_id: { ...ID, hint: `${ID.hint}. Give ${idSource('subscriptionId')?.text}` },
	order_id: UUID,
};

/**
 * What is wrong with a list mapped into a field that takes one ID (such as a customer's
 * active_subscription_ids): how many it holds and how to run once per ID.
 */
export function listInsteadOfId(value: unknown): string | undefined {
	if (!Array.isArray(value)) return undefined;
	const count = value.length === 1 ? 'a list of 1 ID' : `a list of ${value.length} IDs`;
	return `received ${count}${value.length > 0 ? ` (${value.slice(0, 3).map(quoted).join(', ')}${value.length > 3 ? ', …' : ''})` : ''}, and it takes one ID. To run once per ID, turn the list into one item per ID first: a Split Out node on the field that holds the list (such as active_subscription_ids), then map the ID of each item here`;
}

/**
 * The ID as it is sent (a number mapped in is its text), or what is wrong with it, said after the
 * field's name, then where the ID of `parameter` is found (ID_SOURCES).
 */
export function checkedId(
	raw: unknown,
	check: IdCheck,
	parameter?: string,
): { id: string } | { problem: string } {
	const given = typeof raw === 'number' ? String(raw) : raw;
	const list = listInsteadOfId(given);
	if (list) return { problem: list };
	const found = parameter ? idSource(parameter) : undefined;
	const source = found ? `. Give ${found.text}` : '';
	if (typeof given !== 'string' || given.trim() === '') return { problem: `is empty${source}` };
	const id = check.normalise ? check.normalise(given) : given;
	return check.pattern.test(id) ? { id } : { problem: `${quoted(id)} ${check.hint}${source}` };
}

/** The IDs in a request's path, by parameter, as sent (recorded as they are filled in). */
const pathIdsOf = new WeakMap<IHttpRequestOptions, Array<{ parameter: string; id: string }>>();

/** Fills the `{name}` placeholders of an operation's path with its checked IDs (PATH_IDS). */
export async function fillPathParameters(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const named: Array<{ parameter: string; id: string }> = [];
	requestOptions.url = requestOptions.url.replace(/\{(\w+)\}/g, (_, name: string) => {
		const { label, check } = PATH_IDS[name];
		const checked = checkedId(
			this.getNodeParameter(name, undefined, { extractValue: true }),
			check,
			name,
		);
		if ('problem' in checked) throw invalidInput(this, label, checked.problem);
		named.push({ parameter: name, id: checked.id });
		return encodeURIComponent(checked.id);
	});
	pathIdsOf.set(requestOptions, named);
	return requestOptions;
}

/** The IDs a request names, by parameter: its path's, then its body's. */
function idsNamedBy(request: IHttpRequestOptions): Array<{ parameter: string; id: string }> {
	const body =
		request.body && typeof request.body === 'object' ? (request.body as IDataObject) : {};
	const inBody = Object.entries(ID_SOURCES).flatMap(([parameter, { field }]) =>
		typeof body[field] === 'string' ? [{ parameter, id: body[field] as string }] : [],
	);
	return [...(pathIdsOf.get(request) ?? []), ...inBody];
}

const SAYS_NOT_FOUND = /not found|not exist|no such|unknown/i;

/**
 * The next step after the API's 404 for a request that names records by ID (a subscription to get,
 * a customer whose invoices to list, a usage entry to delete): which field holds the ID it did not
 * find, and which operation finds a valid one. The one not found is the ID the API's message names
 * first ("Milestone … not found for subscription …"); a message naming none leaves each ID the
 * request named. Undefined when the request named none, or when the message names one of its IDs
 * without saying it is unknown (a subscription without a default payment method).
 */
export function unknownIdStep(
	ctx: IExecuteSingleFunctions | IExecutePaginationFunctions,
	error: unknown,
	request: IHttpRequestOptions,
): string | undefined {
	const apiMessage = notFoundMessageOf(error);
	if (apiMessage === undefined) return undefined;
	const ids = idsNamedBy(request);
	const named = ids
		.map((entry) => ({ ...entry, at: apiMessage.toLowerCase().indexOf(entry.id.toLowerCase()) }))
		.filter((entry) => entry.at >= 0)
		.sort((a, b) => a.at - b.at);
	if (named.length > 0 && !SAYS_NOT_FOUND.test(apiMessage)) return undefined;
	const unknown = named.length > 0 ? [named[0]] : ids;
	if (unknown.length === 0) return undefined;
	const fields = unknown.map(({ parameter, id }) => ({
		id,
		...fieldAsNamed(ctx, ID_SOURCES[parameter].label),
	}));
	const sources = unknown.map(({ parameter }) => idSource(parameter)?.text).join('; or ');
	const next = !runAsTool(ctx)
		? `Give ${sources}`
		: fields.some(({ keys }) => keys.length > 0)
			? `Call the tool again with ${sources}`
			: `The ID is set in the tool's node, not by a tool argument: calling the tool again does not change it. It needs ${sources}`;
	return `The API has no record with ${fields.map(({ id, named }) => `the ID ${quoted(id)} in ${named}`).join(' or ')}, so nothing was changed. ${next}.`;
}
