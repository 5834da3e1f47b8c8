import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { FAULT_HANDLING_OPTIONS } from '../execute/settings';
import { MAX_PAGE_SIZE } from '../shared/constants';
import { subscriptionIdField } from '../shared/idFields';
import { redirectUrlField } from './redirectUrl';

/**
 * The fields several resources show, each written once with the operations that show it, by
 * resource. An operation that shows one is added to its list here (test/sharedFields.test.cts fails
 * until every list and write is). Each stands once in the node, where a resource's `fields` places it.
 *
 * n8n shows a field for every listed resource with every listed operation: a resource's list must
 * hold each of its operations that is listed for another resource (the tests fail otherwise).
 */
function shownFor(
	operations: Record<string, string[]>,
	more: IDisplayOptions['show'] = {},
): IDisplayOptions {
	return {
		show: {
			resource: Object.keys(operations),
			operation: [...new Set(Object.values(operations).flat())],
			...more,
		},
	};
}

/** Subscription ID in the path. */
export const subscriptionId: INodeProperties = {
	...subscriptionIdField,
	displayOptions: shownFor({
		invoice: ['getManyForSubscription'],
		paymentMethod: ['getDefault', 'getMany', 'setDefault', 'setUp'],
		subscription: ['get', 'getManagementUrl', 'getSignUrl'],
		subscriptionMilestone: ['getMany', 'complete'],
		subscriptionRecast: ['create', 'getMany', 'getSignUrl', 'start', 'delete'],
		subscriptionUpgrade: ['create', 'getMany', 'getSignUrl', 'start'],
	}),
};

/** Signing an upgrade or a recast order. */
export const orderRedirectUrl: INodeProperties = {
	...redirectUrlField,
	displayOptions: shownFor({
		subscriptionRecast: ['getSignUrl'],
		subscriptionUpgrade: ['getSignUrl'],
	}),
};

/** Starting an upgrade or a recast order. */
export const chargeImmediately: INodeProperties = {
	displayName: 'Charge Immediately',
	name: 'chargeImmediately',
	type: 'boolean',
	default: false,
	description: 'Whether to charge the customer now for the change instead of on the next invoice',
	displayOptions: shownFor({ subscriptionRecast: ['start'], subscriptionUpgrade: ['start'] }),
	routing: {
		send: {
			type: 'query',
			property: 'charge_immediately',
			value: '={{ $value ? "yes" : "no" }}',
		},
	},
};

const returnAllField = (hint: string, operations: Record<string, string[]>): INodeProperties => ({
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
	hint,
	displayOptions: shownFor(operations),
});

/** Return All of every list, its hint saying how the list is read: `paged` or not (OperationDefinition). */
export const returnAll = {
	paged: returnAllField(
		`Return All follows every page (${MAX_PAGE_SIZE} results a request); on very large lists it can take a while and produce many items`,
		{
			customer: ['getMany', 'search'],
			invoice: ['getManyForCustomer', 'getManyForSubscription', 'search'],
			plan: ['getMany'],
		},
	),
	whole: returnAllField(
		'The API sends this list whole, in one answer (it takes no paging parameters); Return All keeps every entry, Limit only the first ones',
		{
			paymentMethod: ['getMany'],
			subscriptionMilestone: ['getMany'],
			subscriptionRecast: ['getMany'],
			subscriptionUpgrade: ['getMany'],
		},
	),
};

/** Limit of every list. */
export const limit: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: shownFor(
		{
			customer: ['getMany', 'search'],
			invoice: ['getManyForCustomer', 'getManyForSubscription', 'search'],
			paymentMethod: ['getMany'],
			plan: ['getMany'],
			subscriptionMilestone: ['getMany'],
			subscriptionRecast: ['getMany'],
			subscriptionUpgrade: ['getMany'],
		},
		{ returnAll: [false] },
	),
};

const faultHandlingField = (
	options: INodeProperties[],
	operations: Record<string, string[]>,
): INodeProperties => ({
	displayName: 'Fault Handling',
	name: 'faultHandling',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	displayOptions: shownFor(operations),
	options,
});

/** Fault Handling (execute/settings.ts) of every operation: retries; writes also the idempotency key. */
export const faultHandling = {
	/** Reads and lists. */
	read: faultHandlingField(FAULT_HANDLING_OPTIONS.read, {
		customer: ['get', 'getMany', 'search'],
		invoice: ['getManyForCustomer', 'getManyForSubscription', 'search'],
		paymentMethod: ['getDefault', 'getMany'],
		plan: ['get', 'getMany'],
		subscription: ['get', 'getManagementUrl', 'getSignUrl'],
		subscriptionMilestone: ['getMany'],
		subscriptionRecast: ['getMany', 'getSignUrl'],
		subscriptionUpgrade: ['getMany', 'getSignUrl'],
	}),
	write: faultHandlingField(FAULT_HANDLING_OPTIONS.write, {
		customer: ['create', 'upsert', 'update'],
		paymentMethod: ['setDefault', 'setUp'],
		subscriptionMilestone: ['complete'],
		subscriptionRecast: ['create', 'delete', 'start'],
		subscriptionUpgrade: ['create', 'start'],
		usage: ['create', 'delete', 'update'],
	}),
};

/** Every shared field, for what is told of an operation beside its resource's own fields (editor.ts, toolDescription). */
export const SHARED_FIELDS: INodeProperties[] = [
	subscriptionId,
	orderRedirectUrl,
	chargeImmediately,
	returnAll.paged,
	returnAll.whole,
	limit,
	faultHandling.read,
	faultHandling.write,
];
