import type {
	IDataObject,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { checkedBaseUrl } from './baseUrl';
import { CREDENTIAL_TYPE } from './constants';
import { DEFAULT_RETRY } from './retry';
import { sendWithRetries, type Session } from './transport';

const PAGE_SIZE = 50;

interface Page {
	results: IDataObject[];
	next?: string | null;
}

/** One page of a list for the editor's pickers, through the same transport as the operations. */
async function fetchPage(
	ctx: ILoadOptionsFunctions,
	request: Pick<IHttpRequestOptions, 'method' | 'url' | 'body'>,
	offset: number,
): Promise<Page> {
	const credentials = await ctx.getCredentials<{ apiKey?: string; environment?: string; productionBaseUrl?: string; stagingBaseUrl?: string }>(CREDENTIAL_TYPE);
	const rawBaseUrl = credentials.environment === 'staging' ? credentials.stagingBaseUrl : credentials.productionBaseUrl;
	const baseURL = checkedBaseUrl(ctx.getNode(), rawBaseUrl, 0).href.replace(/\/+$/, '');
	const session: Session = {
		ctx,
		node: ctx.getNode(),
		itemIndex: 0,
		secret: credentials.apiKey,
		retry: { ...DEFAULT_RETRY, maxRetries: 1 },
		safeToRepeat: true,
	};
	const body = await sendWithRetries(session, { ...request, baseURL, qs: { limit: PAGE_SIZE, offset } });
	return Array.isArray(body) ? { results: body as IDataObject[] } : (body as Page);
}

function nextToken(page: Page, offset: number): number | undefined {
	return page.next ? offset + PAGE_SIZE : undefined;
}

function customersPage(ctx: ILoadOptionsFunctions, filter: string | undefined, offset: number): Promise<Page> {
	return filter
		? fetchPage(ctx, { method: 'POST', url: '/customers/search', body: { name: filter } }, offset)
		: fetchPage(ctx, { method: 'GET', url: '/customers' }, offset);
}

function customerLabel(customer: IDataObject): string {
	return customer.external_id ? `${customer.name} (${customer.external_id})` : String(customer.name);
}

/** Customers by name: typing filters through the API's case-insensitive name search. */
export async function searchCustomers(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const offset = Number(paginationToken ?? 0);
	const page = await customersPage(this, filter, offset);
	return {
		results: page.results.map((customer) => ({ name: customerLabel(customer), value: String(customer.customer_id) })),
		paginationToken: nextToken(page, offset),
	};
}

/** Subscriptions of the customers matching the filter, with status and dates in the label. */
export async function searchSubscriptions(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const offset = Number(paginationToken ?? 0);
	const page = await customersPage(this, filter, offset);
	const results: INodeListSearchItems[] = page.results.flatMap((customer) =>
		((customer.subscriptions as IDataObject[] | undefined) ?? []).map((subscription) => ({
			name: `${customer.name}: ${subscription.name ?? 'Subscription'} (${subscription.status}, ${subscription.starts_at ?? '?'} to ${subscription.ends_at ?? 'open'})`,
			value: String(subscription.subscription_id),
		})),
	);
	return { results, paginationToken: nextToken(page, offset) };
}

/** Plans by name; the API has no plan search, so the filter applies to each page. */
export async function searchPlans(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const offset = Number(paginationToken ?? 0);
	const page = await fetchPage(this, { method: 'GET', url: '/plans' }, offset);
	const needle = filter?.toLowerCase();
	return {
		results: page.results
			.filter((plan) => !needle || String(plan.plan_name).toLowerCase().includes(needle))
			.map((plan) => ({ name: String(plan.plan_name), value: String(plan.plan_id) })),
		paginationToken: nextToken(page, offset),
	};
}
