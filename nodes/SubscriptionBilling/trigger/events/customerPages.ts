import { visitPages } from '../../shared/pagination';
import type { ReadAccess } from '../../shared/apiAccess';
import { readCustomerList } from './customerList';

export interface CustomerPage {
	/** Customer ids from `offset` on, in the list's order (creation order: new customers come last). */
	ids: string[];
	/** Whether the list ended within these ids. */
	end: boolean;
}

/**
 * The customer list (GET /customers) from `offset` on, until `want` customers are read or the list
 * ends. Each page counts once against the poll's budget (`spend`).
 */
export async function readCustomerPages({ session, baseURL }: ReadAccess, offset: number, want: number, spend: () => void): Promise<CustomerPage> {
	const ids: string[] = [];
	let end = true;
	await visitPages(session, { method: 'GET', baseURL, url: '/customers', qs: offset > 0 ? { offset } : {}, headers: { Accept: 'application/json' } }, {}, (page) => {
		spend();
		for (const customer of page.results) ids.push(String(customer.customer_id));
		if (ids.length < want) return 'next';
		end = false;
		return 'stop';
	});
	return { ids, end };
}

/**
 * The customers from `offset` on, from the poll's one reading of the whole customer list (read
 * for the customer-list events anyway): no request of its own, nothing spent from the budget.
 */
export async function customerPageFromList(api: ReadAccess, offset: number): Promise<CustomerPage> {
	const { customers } = await readCustomerList(api);
	return { ids: customers.slice(offset).map((customer) => String(customer.customer_id)), end: true };
}
