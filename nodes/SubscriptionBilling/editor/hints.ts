import type { NodeHint } from 'n8n-workflow';
import { MAX_PAGE_SIZE } from '../shared/constants';

/** Input items from which a run of Customer → Get is worth a word on what it cost. */
export const MANY_CUSTOMER_LOOKUPS = 10;

/**
 * Hints the output panel shows after a run. n8n evaluates a hint's condition in the editor with
 * the node's parameters and its input items, whatever the run did (one refused before sending
 * too), and a declarative node cannot add hints from what a run did (docs/api-assumptions.md,
 * "Execution hints"): a hint says what these settings cost on that many items, not what a run sent.
 */
export const executionHints: NodeHint[] = [
	{
		message: `Customer → Get on ${MANY_CUSTOMER_LOOKUPS} or more items: the API has no get by ID, so each item reads the customer list from its start until it finds its customer: one request per ${MAX_PAGE_SIZE} customers before it. To look up many customers, read the list once with Customer → Get Many (Return All) and join it to these items with a Merge node (Combine by Matching Fields, customer_id).`,
		type: 'info',
		location: 'outputPane',
		whenToDisplay: 'afterExecution',
		displayCondition: `={{ $parameter.resource === 'customer' && $parameter.operation === 'get' && $input.all().length >= ${MANY_CUSTOMER_LOOKUPS} }}`,
	},
];
