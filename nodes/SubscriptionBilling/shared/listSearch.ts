import type {
	IDataObject,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { apiAccess } from './apiAccess';
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
	const { baseURL, secret } = await apiAccess(ctx);
	const session: Session = {
		ctx,
		node: ctx.getNode(),
		itemIndex: 0,
		secret,
		retry: { ...DEFAULT_RETRY, maxRetries: 1 },
		safeToRepeat: true,
	};
	const body = await sendWithRetries(session, { ...request, baseURL, qs: { limit: PAGE_SIZE, offset } });
	return Array.isArray(body) ? { results: body as IDataObject[] } : (body as Page);
}

type PageSource = (ctx: ILoadOptionsFunctions, filter: string | undefined, offset: number) => Promise<Page>;

/** A picker's search method: one page of the source per call, the offset as pagination token. */
function listSearch(source: PageSource, toItems: (results: IDataObject[], filter?: string) => INodeListSearchItems[]) {
	return async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		const offset = Number(paginationToken ?? 0);
		const page = await source(this, filter, offset);
		return { results: toItems(page.results, filter), paginationToken: page.next ? offset + PAGE_SIZE : undefined };
	};
}

const customersPage: PageSource = (ctx, filter, offset) =>
	filter
		? fetchPage(ctx, { method: 'POST', url: '/customers/search', body: { name: filter } }, offset)
		: fetchPage(ctx, { method: 'GET', url: '/customers' }, offset);

/** Customers by name: typing filters through the API's case-insensitive name search. */
export const searchCustomers = listSearch(customersPage, (customers) =>
	customers.map((customer) => ({
		name: customer.external_id ? `${customer.name} (${customer.external_id})` : String(customer.name),
		value: String(customer.customer_id),
	})),
);

/** Subscriptions of the customers matching the filter, with status and dates in the label. */
export const searchSubscriptions = listSearch(customersPage, (customers) =>
	customers.flatMap((customer) =>
		((customer.subscriptions as IDataObject[] | undefined) ?? []).map((subscription) => ({
			name: `${customer.name}: ${subscription.name ?? 'Subscription'} (${subscription.status}, ${subscription.starts_at ?? '?'} to ${subscription.ends_at ?? 'open'})`,
			value: String(subscription.subscription_id),
		})),
	),
);

/** Plans by name; the API has no plan search, so the filter applies to each page. */
export const searchPlans = listSearch(
	(ctx, _filter, offset) => fetchPage(ctx, { method: 'GET', url: '/plans' }, offset),
	(plans, filter) => {
		const needle = filter?.toLowerCase();
		return plans
			.filter((plan) => !needle || String(plan.plan_name).toLowerCase().includes(needle))
			.map((plan) => ({ name: String(plan.plan_name), value: String(plan.plan_id) }));
	},
);
