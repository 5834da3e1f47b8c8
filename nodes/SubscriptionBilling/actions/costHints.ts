import type { NodeExecutionHint } from 'n8n-workflow';
import { MAX_PAGE_SIZE } from '../shared/constants';
import type { HintsOf } from './customOperation';
import type { CostReport } from './runCost';

/** Return All reading at least this many pages for an item is worth a word in the output panel. */
export const MANY_PAGES = 5;

/** What the hints say about an operation: its name, its results, and the cheaper way to the same end. */
export interface CostWording {
	/** "Customer → Get" */
	operation: string;
	/** "customer" */
	noun: string;
	/** "Customer → Search by External ID finds a customer in one request." */
	cheaper: string;
}

const count = (value: number) => value.toLocaleString('en-US');
const plural = (value: number, noun: string) => `${count(value)} ${noun}${value === 1 ? '' : 's'}`;

function outputHint(message: string): NodeExecutionHint {
	return { message, type: 'info', location: 'outputPane' };
}

/** A get by ID through the list: said when an item had to read more than one page. */
export function lookupHints(wording: CostWording): HintsOf {
	return (costs, itemCount) => {
		const long = costs.filter((cost) => cost.kind === 'lookup' && cost.requests > 1);
		if (long.length === 0) return [];
		const { operation, noun, cheaper } = wording;
		const because = `the API has no get by ID, so it reads the ${noun} list, up to ${count(MAX_PAGE_SIZE)} ${noun}s a request`;
		if (itemCount === 1) {
			return [outputHint(`${operation} read ${long[0].requests} pages of the ${noun} list (${plural(long[0].requests, 'request')}) to find this ${noun}: ${because}. ${cheaper}`)];
		}
		const total = long.reduce((sum, cost) => sum + cost.requests, 0);
		const most = Math.max(...long.map((cost) => cost.requests));
		return [
			outputHint(
				`${operation} read more than one page of the ${noun} list for ${long.length} of ${plural(itemCount, 'item')}: ${plural(total, 'request')} for them, up to ${most} for one ${noun}; ${because}. ${cheaper}`,
			),
		];
	};
}

/** Return All: said when an item's list took MANY_PAGES requests or more. */
export function returnAllHints(wording: CostWording): HintsOf {
	return (costs) => {
		const long = costs.filter((cost): cost is CostReport & { itemIndex: number } => cost.kind === 'list' && cost.returnAll === true && cost.requests >= MANY_PAGES);
		return long.map((cost) =>
			outputHint(
				`Return All read ${cost.requests} pages for item ${cost.itemIndex}: ${plural(cost.results, wording.noun)} in ${plural(cost.requests, 'request')}. To read fewer, turn off Return All and set a Limit. ${wording.cheaper}`,
			),
		);
	};
}
