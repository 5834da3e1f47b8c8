import type { IDataObject } from 'n8n-workflow';
import { visitPages } from '../../shared/pagination';
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

/** One listing per ReadAccess, i.e. per poll: the events of one poll that need the list share it. */
const listings = new WeakMap<ReadAccess, Promise<CustomerList>>();

/**
 * Every customer (GET /customers, 1,000 a request); each carries its subscriptions' summaries.
 * Read once per poll (readAccess builds a new ReadAccess for each), however many events ask.
 */
export function readCustomerList(api: ReadAccess): Promise<CustomerList> {
	let listing = listings.get(api);
	if (!listing) {
		listing = listAllCustomers(api);
		listings.set(api, listing);
	}
	return listing;
}

async function listAllCustomers({ session, baseURL }: ReadAccess): Promise<CustomerList> {
	const customers: IDataObject[] = [];
	const counts = new Set<number | undefined>();
	let repeated = 0;
	await visitPages(session, { method: 'GET', baseURL, url: '/customers', headers: { Accept: 'application/json' } }, {}, (page) => {
		counts.add(page.count);
		repeated += page.repeated;
		for (const customer of page.results) customers.push(customer);
	});
	const [count] = [...counts];
	return { customers, complete: counts.size === 1 && (count === undefined || count === customers.length) && repeated === 0 };
}

/** The customer as items show it next to a subscription. */
export function customerSummary(customer: IDataObject): IDataObject {
	return { customer_id: customer.customer_id, name: customer.name, external_id: customer.external_id ?? null };
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
	return { customers, subscriptions: subscriptionsOf(customers), complete, now, detectedAt: now.toISOString() };
}

/** Statuses after which a subscription no longer runs: not watched for ends, renewals or detail changes. */
export const ENDED_STATUSES = ['INACTIVE', 'SUPERSEDED', 'TERMINATED'];

export function isLive(subscription: IDataObject): boolean {
	return !ENDED_STATUSES.includes(String(subscription.status));
}
