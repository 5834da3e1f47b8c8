import type {
	IDataObject,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { readAccess, type ReadAccess } from './apiAccess';
import { MAX_PAGE_SIZE } from './constants';
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
async function send(api: ReadAccess, request: Pick<IHttpRequestOptions, 'method' | 'url' | 'body' | 'qs'>): Promise<unknown> {
	return await sendWithRetries(api.session, { ...request, baseURL: api.baseURL });
}

/** One page of a list for the editor's pickers. */
async function fetchPage(
	api: ReadAccess,
	request: Pick<IHttpRequestOptions, 'method' | 'url' | 'body'>,
	offset: number,
	limit = PAGE_SIZE,
): Promise<Page> {
	const body = await send(api, { ...request, qs: { limit, offset } });
	if (Array.isArray(body)) return { results: body as IDataObject[] };
	const page = body as { results?: IDataObject[]; next?: string | null };
	const results = Array.isArray(page?.results) ? page.results : [];
	return { results, nextOffset: page?.next && results.length > 0 ? offset + results.length : undefined };
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
	let next: number | undefined = offset;
	for (let pages = 0; next !== undefined && pages < SCAN_PAGES_PER_CALL && results.length === 0; pages++) {
		const page = await fetchPage(api, request, next, MAX_PAGE_SIZE);
		results.push(...keep(page.results));
		next = page.nextOffset;
	}
	return { results, paginationToken: next };
}

function matches(needle: string, ...texts: unknown[]): boolean {
	return texts.some((text) => typeof text === 'string' && text.toLowerCase().includes(needle));
}

/** Customers by name: typing filters through the API's case-insensitive name search. */
export async function searchCustomers(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const api = await pickerAccess(this);
	const offset = Number(paginationToken ?? 0);
	const page = filter
		? await fetchPage(api, { method: 'POST', url: '/customers/search', body: { name: filter } }, offset)
		: await fetchPage(api, { method: 'GET', url: '/customers' }, offset);
	return {
		results: page.results.map((customer) => ({
			name: customer.external_id ? `${customer.name} (${customer.external_id})` : String(customer.name),
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
	const name = typeof subscription.name === 'string' && subscription.name.trim() !== '' ? subscription.name.trim() : 'Subscription';
	if (customerName === '' || !name.startsWith(customerName)) return name;
	const rest = name.slice(customerName.length).replace(/^\s*[-–:|/,]\s*/, '').trim();
	return rest === '' ? name : rest;
}

/**
 * What tells a customer's subscriptions apart comes first: own name, status and dates, then the
 * customer once: "Growth · ACTIVE · 2025-01-01 to 2027-12-31 · Acme Corporation".
 */
export function subscriptionLabel(subscription: IDataObject, customerName: string): string {
	const dates = `${subscription.starts_at ?? '?'} to ${subscription.ends_at ?? 'open'}`;
	return [ownName(subscription, customerName), subscription.status ?? 'no status', dates, customerName || 'no customer name'].join(' · ');
}

function subscriptionItems(customers: IDataObject[], needle?: string): INodeListSearchItems[] {
	return customers.flatMap((customer) => {
		const customerName = typeof customer.name === 'string' ? customer.name : '';
		const customerMatches = !needle || matches(needle, customerName);
		return ((customer.subscriptions as IDataObject[] | undefined) ?? [])
			.filter((subscription) => customerMatches || matches(needle!, subscription.name))
			.map((subscription) => ({ name: subscriptionLabel(subscription, customerName), value: String(subscription.subscription_id) }));
	});
}

/**
 * Subscriptions, from the customer list (each customer carries a summary of its subscriptions; the
 * API has no subscription search). Typed text matches customer names and subscription names
 * (which usually hold the plan's name), so the customer list is read and filtered here.
 */
export async function searchSubscriptions(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const offset = Number(paginationToken ?? 0);
	const needle = filter?.trim().toLowerCase();
	const api = await pickerAccess(this);
	if (needle) return await scan(api, { method: 'GET', url: '/customers' }, offset, (customers) => subscriptionItems(customers, needle));
	const page = await fetchPage(api, { method: 'GET', url: '/customers' }, offset);
	return { results: subscriptionItems(page.results), paginationToken: page.nextOffset };
}

/** Plans by name; the API has no plan search, so the filter applies to the pages read. */
export async function searchPlans(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const needle = filter?.trim().toLowerCase();
	return await scan(await pickerAccess(this), { method: 'GET', url: '/plans' }, Number(paginationToken ?? 0), (plans) =>
		plans
			.filter((plan) => !needle || matches(needle, plan.plan_name))
			.map((plan) => ({ name: String(plan.plan_name), value: String(plan.plan_id) })),
	);
}

/** The bricks of a plan: from the list when it carries them, otherwise from GET /plans/{id}. */
async function bricksOf(api: ReadAccess, plan: IDataObject): Promise<IDataObject[]> {
	if (Array.isArray(plan.bricks)) return plan.bricks as IDataObject[];
	const detail = (await send(api, { method: 'GET', url: `/plans/${encodeURIComponent(String(plan.plan_id))}` })) as IDataObject;
	return Array.isArray(detail?.bricks) ? (detail.bricks as IDataObject[]) : [];
}

/**
 * Bricks of every plan, "API Calls · USAGE · Growth". Usage entries take only usage bricks, so the
 * picker of Usage lists only those. Typed text matches brick and plan names.
 */
export async function searchBricks(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const needle = filter?.trim().toLowerCase();
	const usageOnly = this.getCurrentNodeParameter('resource') === 'usage';
	const offset = Number(paginationToken ?? 0);
	const api = await pickerAccess(this);
	const page = await fetchPage(api, { method: 'GET', url: '/plans' }, offset, MAX_PAGE_SIZE);
	const results: INodeListSearchItems[] = [];
	for (const plan of page.results) {
		for (const brick of await bricksOf(api, plan)) {
			if (usageOnly && brick.brick_type !== undefined && brick.brick_type !== 'USAGE') continue;
			if (needle && !matches(needle, brick.brick_name, plan.plan_name)) continue;
			const label = [brick.brick_name ?? 'Brick', brick.brick_type, plan.plan_name].filter((part) => part !== undefined && part !== null).join(' · ');
			results.push({ name: label, value: String(brick.brick_id) });
		}
	}
	return { results, paginationToken: page.nextOffset };
}
