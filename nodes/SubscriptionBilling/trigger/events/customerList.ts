import type { IDataObject } from 'n8n-workflow';
import { PAGES_AHEAD, visitPages } from '../../shared/pagination';
import type { ReadAccess } from '../../shared/apiAccess';

export interface CustomerList {
	customers: IDataObject[];
	/**
	 * True when the list did not change while it was paged (every page reported the same count,
	 * that many customers arrived and none twice: the reader hands each on once). Offset paging over a changing list can skip or repeat
	 * an entry; when it did, what is remembered is merged instead of replaced, so nothing is lost.
	 */
	complete: boolean;
}

export interface CustomerPage {
	/** Customer ids from `offset` on, in the list's order (creation order: new customers come last). */
	ids: string[];
	/** Whether the list ended within these ids. */
	end: boolean;
}

interface Reading {
	customers: IDataObject[];
	counts: Set<number | undefined>;
	repeated: number;
	end: boolean;
}

/**
 * The trigger's one reader of the customer list (GET /customers, 1,000 a request unless `pageSize`
 * says): from `offset` on, until `want` customers are read or the list ends; `spend` is called once
 * per page. The whole list is asked for several pages at a time (the first page's count shows them).
 */
async function readCustomers(
	{ session, baseURL }: ReadAccess,
	offset = 0,
	want = Infinity,
	spend: () => void = () => {},
	pageSize?: number,
): Promise<Reading> {
	const reading: Reading = { customers: [], counts: new Set(), repeated: 0, end: true };
	await visitPages(
		session,
		{
			method: 'GET',
			baseURL,
			url: '/customers',
			qs: offset > 0 ? { offset } : {},
			headers: { Accept: 'application/json' },
		},
		want === Infinity ? { pagesAhead: PAGES_AHEAD } : { pageSize },
		(page) => {
			spend();
			reading.counts.add(page.count);
			reading.repeated += page.repeated;
			reading.customers.push(...page.results);
			if (reading.customers.length < want) return 'next';
			reading.end = false;
			return 'stop';
		},
	);
	return reading;
}

/** One listing per ReadAccess, i.e. per poll: the events of one poll that need the list share it. */
const listings = new WeakMap<ReadAccess, Promise<CustomerList>>();

/**
 * Every customer; each carries its subscriptions' summaries. Read once per poll (readAccess builds
 * a new ReadAccess for each), however many events ask.
 */
export function readCustomerList(api: ReadAccess): Promise<CustomerList> {
	let listing = listings.get(api);
	if (!listing) {
		listing = readCustomers(api).then(({ customers, counts, repeated }) => {
			const [count] = [...counts];
			return {
				customers,
				complete:
					counts.size === 1 &&
					(count === undefined || count === customers.length) &&
					repeated === 0,
			};
		});
		listings.set(api, listing);
	}
	return listing;
}

/**
 * Fetch Test Event's reading: the `want` customers listed last (the newest: the list is in creation
 * order), from the list's `count` (one request of one customer); without a count, the first `want`.
 * `total`: the customers listed, when the API says.
 */
export async function readNewestCustomers(
	api: ReadAccess,
	want: number,
): Promise<{ customers: IDataObject[]; total: number | undefined }> {
	const [count] = (await readCustomers(api, 0, 1, undefined, 1)).counts;
	const total = typeof count === 'number' ? count : undefined;
	const from = total === undefined ? 0 : Math.max(0, total - want);
	const { customers } = await readCustomers(api, from, want);
	return { customers: customers.slice(0, want), total };
}

/**
 * The customers from `offset` on for the invoice sweep: from the poll's one reading of the whole
 * list when the customer-list events read it anyway (`fromList`: no request of its own, nothing
 * spent), else read from `offset` until `want` customers, each page spent from the poll's budget.
 */
export async function customerPage(
	api: ReadAccess,
	offset: number,
	{ fromList, want, spend }: { fromList: boolean; want: number; spend: () => void },
): Promise<CustomerPage> {
	if (fromList)
		return {
			ids: (await readCustomerList(api)).customers
				.slice(offset)
				.map((customer) => String(customer.customer_id)),
			end: true,
		};
	const { customers, end } = await readCustomers(api, offset, want, spend);
	return { ids: customers.map((customer) => String(customer.customer_id)), end };
}

/** The customer as items show it next to a subscription. */
export function customerSummary(customer: IDataObject): IDataObject {
	return {
		customer_id: customer.customer_id,
		name: customer.name,
		external_id: customer.external_id ?? null,
	};
}

/** Every subscription summary of every customer, each with its customer. */
export function subscriptionsOf(customers: IDataObject[]): IDataObject[] {
	return customers.flatMap((customer) =>
		((customer.subscriptions as IDataObject[] | undefined) ?? []).map((subscription) => ({
			...subscription,
			customer: customerSummary(customer),
		})),
	);
}

/** The customer list as one poll saw it, for every customer-list event of that poll. */
export interface ListSnapshot {
	customers: IDataObject[];
	/** Every subscription summary, each with its customer. */
	subscriptions: IDataObject[];
	complete: boolean;
	now: Date;
	/** `detected_at` of the poll's items. */
	detectedAt: string;
}

export function listSnapshot({ customers, complete }: CustomerList, now: Date): ListSnapshot {
	return {
		customers,
		subscriptions: subscriptionsOf(customers),
		complete,
		now,
		detectedAt: now.toISOString(),
	};
}

/** Statuses after which a subscription no longer runs: not watched for ends, renewals or detail changes. */
export const ENDED_STATUSES = ['INACTIVE', 'SUPERSEDED', 'TERMINATED'];

export function isLive(subscription: IDataObject): boolean {
	return !ENDED_STATUSES.includes(String(subscription.status));
}
