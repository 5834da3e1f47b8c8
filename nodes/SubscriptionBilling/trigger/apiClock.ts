import { sendForAnswer } from '../shared/transport';
import type { ReadAccess } from '../shared/apiAccess';

/** A Date header further than this from n8n's clock is taken for a gateway's clock gone wrong, not the API's. */
const MOST_SKEW_MS = 15 * 60_000;

/**
 * The API's time now, to the second, from its Date header: the moment from which a trigger (or an
 * event added to it) reports, read on the clock the API's own times (`issued_at`, `paid_at`…) are
 * written by, so that n8n's clock being off by a little cannot hide a change or report an older
 * one. n8n's clock (`fallback`) when the API sends no date, or one over 15 minutes away from it.
 */
export async function apiTime(api: ReadAccess, fallback: Date): Promise<number> {
	const answer = await sendForAnswer(api.session, {
		method: 'GET',
		baseURL: api.baseURL,
		url: '/customers',
		qs: { limit: 1 },
		headers: { Accept: 'application/json' },
	});
	const date = Date.parse(String(answer.headers.date ?? ''));
	// to the second either way: a change within the second counts as after it
	const own = Math.floor(fallback.getTime() / 1000) * 1000;
	return Math.abs(date - own) <= MOST_SKEW_MS ? date : own;
}
