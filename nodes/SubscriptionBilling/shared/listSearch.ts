import {
	NodeOperationError,
	type IDataObject,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type INodeListSearchItems,
	type INodeListSearchResult,
} from 'n8n-workflow';
import { readAccess, type ReadAccess } from './apiAccess';
import { ID } from './idChecks';
import { MAX_PAGE_SIZE } from './constants';
import { visitPages, type PageDecision } from './pagination';
import { DEFAULT_RETRY } from './retry';
import { sendWithRetries } from './transport';

/** Results a picker shows per page when nothing is typed. */
const PAGE_SIZE = 50;

/**
 * With a filter, a picker whose API has no search reads the list in pages of the API's largest
 * size and filters them here; one call reads at most this many pages before it answers (with a
 * token to go on when the list is longer), so typing never starts a walk over a whole huge list.
 */
const SCAN_PAGES_PER_CALL = 5;

interface Page {
	results: IDataObject[];
	/** Offset of the next page, when the API has one. */
	nextOffset?: number;
}

/** A picker's access to the API, read once per call of the picker; a failed request is tried once more. */
function pickerAccess(ctx: ILoadOptionsFunctions): Promise<ReadAccess> {
	return readAccess(ctx, { ...DEFAULT_RETRY, maxRetries: 1 });
}

/** One request of a picker, through the same transport as the operations. */
async function send(
	api: ReadAccess,
	request: Pick<IHttpRequestOptions, 'method' | 'url' | 'body' | 'qs'>,
): Promise<unknown> {
	return await sendWithRetries(api.session, { ...request, baseURL: api.baseURL });
}

/** A picker's read of a paged list from `offset`, through the operations' reader; `visit` as in visitPages. */
async function readFrom(
	api: ReadAccess,
	request: Pick<IHttpRequestOptions, 'method' | 'url' | 'body'>,
	offset: number,
	pageSize: number,
	limit: number,
	visit: (results: IDataObject[]) => PageDecision | void,
): Promise<number | undefined> {
	const end = await visitPages(
		api.session,
		{ ...request, baseURL: api.baseURL, qs: { limit: pageSize, offset } },
		{ limit, pageSize },
		(page) => visit(page.results),
	);
	return end.more ? end.position : undefined;
}

/** One page of a list for the editor's pickers. */
async function fetchPage(
	api: ReadAccess,
	request: Pick<IHttpRequestOptions, 'method' | 'url' | 'body'>,
	offset: number,
	limit = PAGE_SIZE,
): Promise<Page> {
	const results: IDataObject[] = [];
	const nextOffset = await readFrom(api, request, offset, limit, limit, (page) => {
		results.push(...page);
	});
	return { results, nextOffset };
}

/**
 * Reads pages of a list from `offset` and keeps the entries `keep` turns into items, until some
 * are found or SCAN_PAGES_PER_CALL pages were read; the token continues where it stopped.
 */
async function scan(
	api: ReadAccess,
	request: Pick<IHttpRequestOptions, 'method' | 'url'>,
	offset: number,
	keep: (entries: IDataObject[]) => INodeListSearchItems[],
): Promise<INodeListSearchResult> {
	const results: INodeListSearchItems[] = [];
	let pages = 0;
	const next = await readFrom(api, request, offset, MAX_PAGE_SIZE, Infinity, (page) => {
		results.push(...keep(page));
		pages++;
		return results.length === 0 && pages < SCAN_PAGES_PER_CALL ? 'next' : 'stop';
	});
	return { results, paginationToken: next };
}

/** The words typed, lowercased: each must be found somewhere in what an entry shows. */
function wordsOf(filter: string | undefined): string[] {
	return (filter ?? '').toLowerCase().split(/\s+/).filter(Boolean);
}

/** Whether every typed word is in one of the texts ("acme growth" finds "Acme Corporation · Growth · …"). */
function matches(words: string[], ...texts: unknown[]): boolean {
	const shown = texts
		.filter((text): text is string => typeof text === 'string')
		.join(' · ')
		.toLowerCase();
	return words.every((word) => shown.includes(word));
}

/** Customers by name: typing filters through the API's case-insensitive name search. */
export async function searchCustomers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const api = await pickerAccess(this);
	const offset = Number(paginationToken ?? 0);
	const page = filter
		? await fetchPage(
				api,
				{ method: 'POST', url: '/customers/search', body: { name: filter } },
				offset,
			)
		: await fetchPage(api, { method: 'GET', url: '/customers' }, offset);
	return {
		results: page.results.map((customer) => ({
			name: customer.external_id
				? `${customer.name} (${customer.external_id})`
				: String(customer.name),
			value: String(customer.customer_id),
		})),
		paginationToken: page.nextOffset,
	};
}

/**
 * The subscription's own name without the customer's name it often starts with
 * ("Acme Corporation - Growth" of Acme Corporation is "Growth").
 */
function ownName(subscription: IDataObject, customerName: string): string {
	const name =
		typeof subscription.name === 'string' && subscription.name.trim() !== ''
			? subscription.name.trim()
			: 'Subscription';
	if (customerName === '' || !name.startsWith(customerName)) return name;
	const rest = name
		.slice(customerName.length)
		.replace(/^\s*[-–:|/,]\s*/, '')
		.trim();
	return rest === '' ? name : rest;
}

/**
 * A subscription as the picker lists it and its field shows it once picked, customer first (the
 * field shows about 36 characters, the list about 54): "Acme Corporation · Growth · ACTIVE ·
 * to 2027-12-31". The start date is added only where the customer has another subscription of the
 * same name, status and end.
 */
export function subscriptionLabel(
	subscription: IDataObject,
	customerName: string,
	siblings: IDataObject[] = [subscription],
): string {
	const own = ownName(subscription, customerName);
	const status = subscription.status ?? 'no status';
	const sameAs = (other: IDataObject) =>
		ownName(other, customerName) === own &&
		(other.status ?? 'no status') === status &&
		other.ends_at === subscription.ends_at;
	const ends = subscription.ends_at ? `to ${subscription.ends_at}` : 'no end date';
	const dates =
		siblings.filter(sameAs).length > 1 ? `${subscription.starts_at ?? '?'} ${ends}` : ends;
	return [customerName || 'no customer name', own, status, dates].join(' · ');
}

function subscriptionItems(customers: IDataObject[], words: string[] = []): INodeListSearchItems[] {
	return customers.flatMap((customer) => {
		const customerName = typeof customer.name === 'string' ? customer.name : '';
		const subscriptions = (customer.subscriptions as IDataObject[] | undefined) ?? [];
		return subscriptions
			.map((subscription) => ({
				subscription,
				name: subscriptionLabel(subscription, customerName, subscriptions),
			}))
			.filter(({ subscription, name }) => matches(words, name, subscription.name))
			.map(({ subscription, name }) => ({ name, value: String(subscription.subscription_id) }));
	});
}

/**
 * Subscriptions, from the customer list (each customer carries a summary of its subscriptions; the
 * API has no subscription search). Typed text matches customer names and subscription names
 * (which usually hold the plan's name), so the customer list is read and filtered here.
 */
export async function searchSubscriptions(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const offset = Number(paginationToken ?? 0);
	const words = wordsOf(filter);
	const api = await pickerAccess(this);
	if (words.length > 0)
		return await scan(api, { method: 'GET', url: '/customers' }, offset, (customers) =>
			subscriptionItems(customers, words),
		);
	const page = await fetchPage(api, { method: 'GET', url: '/customers' }, offset);
	return { results: subscriptionItems(page.results), paginationToken: page.nextOffset };
}

/** Plans by name; the API has no plan search, so the filter applies to the pages read. */
export async function searchPlans(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const words = wordsOf(filter);
	return await scan(
		await pickerAccess(this),
		{ method: 'GET', url: '/plans' },
		Number(paginationToken ?? 0),
		(plans) =>
			plans
				.filter((plan) => matches(words, plan.plan_name))
				.map((plan) => ({ name: String(plan.plan_name), value: String(plan.plan_id) })),
	);
}

/** The bricks of a plan: from the list when it carries them, otherwise from GET /plans/{id}. */
async function bricksOf(api: ReadAccess, plan: IDataObject): Promise<IDataObject[]> {
	if (Array.isArray(plan.bricks)) return plan.bricks as IDataObject[];
	const detail = (await send(api, {
		method: 'GET',
		url: `/plans/${encodeURIComponent(String(plan.plan_id))}`,
	})) as IDataObject;
	return Array.isArray(detail?.bricks) ? (detail.bricks as IDataObject[]) : [];
}

/** A subscription ID the node holds as a plain value (not an expression), or undefined. */
function plainSubscriptionId(ctx: ILoadOptionsFunctions): string | undefined {
	const chosen = ctx.getCurrentNodeParameter('subscriptionId', { extractValue: true });
	const id = typeof chosen === 'string' ? chosen.trim() : '';
	return id !== '' && ID.pattern.test(id) ? id : undefined;
}

const ON_THIS_SUBSCRIPTION = 'on this subscription';

/**
 * The bricks on the chosen subscription's line items (its phases' too), read with GET
 * /subscriptions/{id}; none when no subscription is chosen or it cannot be read (the list then
 * simply marks nothing).
 */
async function subscriptionBrickIds(
	ctx: ILoadOptionsFunctions,
	api: ReadAccess,
): Promise<Set<string>> {
	const id = plainSubscriptionId(ctx);
	if (!id) return new Set();
	try {
		const detail = (await send(api, {
			method: 'GET',
			url: `/subscriptions/${encodeURIComponent(id)}`,
		})) as IDataObject;
		const phases = Array.isArray(detail?.phases) ? (detail.phases as IDataObject[]) : [];
		const lineItems = [detail, ...phases].flatMap((part) =>
			Array.isArray(part?.line_items) ? (part.line_items as IDataObject[]) : [],
		);
		return new Set(lineItems.map((item) => String(item.brick_id)));
	} catch {
		return new Set();
	}
}

/**
 * Bricks of every plan, "API Calls · USAGE · Growth". Usage entries take only usage bricks, so the
 * picker of Usage lists only those. With a subscription chosen, its own bricks come first, marked
 * "on this subscription". Every typed word must match the label.
 */
export async function searchBricks(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const words = wordsOf(filter);
	const usageOnly = this.getCurrentNodeParameter('resource') === 'usage';
	const offset = Number(paginationToken ?? 0);
	const api = await pickerAccess(this);
	const own = await subscriptionBrickIds(this, api);
	const page = await fetchPage(api, { method: 'GET', url: '/plans' }, offset, MAX_PAGE_SIZE);
	const first: INodeListSearchItems[] = [];
	const rest: INodeListSearchItems[] = [];
	for (const plan of page.results) {
		for (const brick of await bricksOf(api, plan)) {
			if (usageOnly && brick.brick_type !== undefined && brick.brick_type !== 'USAGE') continue;
			const isOwn = own.has(String(brick.brick_id));
			const parts = [
				brick.brick_name ?? 'Brick',
				brick.brick_type,
				plan.plan_name,
				isOwn ? ON_THIS_SUBSCRIPTION : undefined,
			];
			const label = parts.filter((part) => part !== undefined && part !== null).join(' · ');
			if (!matches(words, label)) continue;
			(isOwn ? first : rest).push({ name: label, value: String(brick.brick_id) });
		}
	}
	return { results: [...first, ...rest], paginationToken: page.nextOffset };
}

/** The subscription chosen in the node, whose milestones or orders a picker lists. */
function chosenSubscription(ctx: ILoadOptionsFunctions, what: string): string {
	const chosen = ctx.getCurrentNodeParameter('subscriptionId', { extractValue: true });
	const id = typeof chosen === 'string' ? chosen.trim() : '';
	if (id === '')
		throw new NodeOperationError(
			ctx.getNode(),
			`Choose the Subscription first: the list shows that subscription's ${what}`,
		);
	if (id.startsWith('=')) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The Subscription is an expression, so its ${what} cannot be listed here: give the ID (By ID), or pick the Subscription from the list`,
		);
	}
	if (!ID.pattern.test(id))
		throw new NodeOperationError(ctx.getNode(), `The Subscription "${id}" ${ID.hint}`);
	return id;
}

/**
 * A list the API gives whole (no paging documented: none is asked for, as in the operations that
 * read it), as a JSON array or in an envelope's `results`.
 */
async function wholeList(api: ReadAccess, url: string): Promise<IDataObject[]> {
	const body = await send(api, { method: 'GET', url });
	if (Array.isArray(body)) return body as IDataObject[];
	const results = (body as { results?: unknown } | null)?.results;
	return Array.isArray(results) ? (results as IDataObject[]) : [];
}

/** A subscription's list (milestones, upgrades, recasts) as picker items, filtered by what is typed. */
async function subscriptionListItems(
	ctx: ILoadOptionsFunctions,
	filter: string | undefined,
	what: string,
	path: string,
	item: (entry: IDataObject) => INodeListSearchItems,
): Promise<INodeListSearchResult> {
	const subscriptionId = chosenSubscription(ctx, what);
	const entries = await wholeList(
		await pickerAccess(ctx),
		`/subscriptions/${encodeURIComponent(subscriptionId)}/${path}`,
	);
	const words = wordsOf(filter);
	const items = entries.map(item).filter((entry) => matches(words, entry.name, entry.value));
	return { results: items };
}

const dateOf = (value: unknown) => (typeof value === 'string' ? value.slice(0, 10) : undefined);

/** "Onboarding workshop · 1 of 3 completed" */
export async function searchMilestones(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await subscriptionListItems(this, filter, 'milestones', 'milestones', (milestone) => {
		const done =
			milestone.quantity !== undefined
				? ` · ${milestone.quantity_completed ?? 0} of ${milestone.quantity} completed`
				: '';
		return {
			name: `${milestone.brick_name ?? milestone.name ?? 'Milestone'}${done}`,
			value: String(milestone.milestone_id),
		};
	});
}

/** An upgrade or recast order: "BUILDING · starts 2026-10-01 · created 2026-09-01" (its stage says whether it is open). */
function orderItem(order: IDataObject): INodeListSearchItems {
	const parts = [
		order.stage ?? 'no stage',
		order.starts_at ? `starts ${dateOf(order.starts_at)}` : undefined,
		order.created_at ? `created ${dateOf(order.created_at)}` : undefined,
	];
	return {
		name: parts.filter((part) => part !== undefined).join(' · '),
		value: String(order.order_id),
	};
}

export async function searchUpgradeOrders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await subscriptionListItems(this, filter, 'upgrade orders', 'upgrade', orderItem);
}

export async function searchRecastOrders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await subscriptionListItems(this, filter, 'recast orders', 'recast', orderItem);
}
