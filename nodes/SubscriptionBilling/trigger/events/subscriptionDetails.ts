import type { IDataObject } from 'n8n-workflow';
import type { ReadAccess } from '../../shared/apiAccess';
import { ID } from '../../shared/idChecks';
import { sendWithRetries } from '../../shared/transport';
import { forEachConcurrently } from '../concurrency';

/** Subscriptions read at the same time (as the invoice lists of all customers are). */
const PARALLEL_READS = 4;

/** The detail fields Subscription Updated can compare, beyond what the customer list carries. */
export const DETAIL_FIELDS = [
	'renews_at',
	'auto_renews',
	'sub_total',
	'grand_total',
	'renewal_total',
	'line_items',
] as const;

/**
 * Subscription Get (GET /subscriptions/{id}) for each subscription, in order, while `canStart`
 * allows (`unread`: those it stopped before); one deleted since it was listed (404), or whose id
 * could not be a path segment, is left out.
 */
export async function readSubscriptionDetails(
	api: ReadAccess,
	subscriptionIds: string[],
	canStart?: () => boolean,
): Promise<{ details: Map<string, IDataObject>; unread: Set<string> }> {
	const details = new Map<string, IDataObject>();
	const valid = subscriptionIds.filter((id) => ID.pattern.test(id));
	const started = await forEachConcurrently(
		valid,
		PARALLEL_READS,
		async (id) => {
			// The transport's NodeApiError, passed on unless the subscription is gone.
			const detail = await sendWithRetries(api.session, {
				method: 'GET',
				baseURL: api.baseURL,
				url: `/subscriptions/${encodeURIComponent(id)}`,
				headers: { Accept: 'application/json' },
			}).catch((error: unknown) => {
				if ((error as { httpCode?: string }).httpCode === '404') return undefined;
				throw error;
			});
			if (detail && typeof detail === 'object') details.set(id, detail as IDataObject);
		},
		canStart,
	);
	return { details, unread: new Set(valid.slice(started)) };
}

/** The detail fields to compare: line items reduced to what identifies and prices them. */
export function detailFields(detail: IDataObject): IDataObject {
	const lineItems = Array.isArray(detail.line_items) ? (detail.line_items as IDataObject[]) : [];
	return {
		renews_at: detail.renews_at ?? null,
		auto_renews: detail.auto_renews ?? null,
		sub_total: detail.sub_total ?? null,
		grand_total: detail.grand_total ?? null,
		renewal_total: detail.renewal_total ?? null,
		line_items: lineItems.map((line) => ({
			brick_id: line.brick_id ?? null,
			brick_name: line.brick_name ?? null,
			quantity: line.quantity ?? null,
			grand_total: line.grand_total ?? null,
		})),
	};
}
