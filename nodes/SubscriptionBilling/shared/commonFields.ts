import type { INodeProperties } from 'n8n-workflow';
import { MAX_PAGE_SIZE } from './constants';
import { isPaged } from './operation';
import type { ResourceDefinition } from './resource';
import type { OperationKind } from './perform';

function operationsOfKind(resource: ResourceDefinition, kinds: OperationKind[]): string[] {
	return resource.operations.filter((operation) => kinds.includes(operation.kind)).map((operation) => operation.value);
}

const RETURN_ALL_HINTS = {
	paged: `Return All follows every page (${MAX_PAGE_SIZE} results a request); on very large lists it can take a while and produce many items`,
	whole: 'The API sends this list whole, in one answer (it takes no paging parameters); Return All keeps every entry, Limit only the first ones',
};

/** Return All (its hint says how the list is read) / Limit for every list operation of the resource. */
export function listFields(resource: ResourceDefinition): INodeProperties[] {
	const lists = resource.operations.filter((operation) => operation.kind === 'list');
	const operation = lists.map((list) => list.value);
	if (operation.length === 0) return [];
	const returnAll = (['paged', 'whole'] as const)
		.map((reading) => ({ reading, operation: lists.filter((list) => isPaged(list) === (reading === 'paged')).map((list) => list.value) }))
		.filter((group) => group.operation.length > 0)
		.map(
			(group): INodeProperties => ({
				displayName: 'Return All',
				name: 'returnAll',
				type: 'boolean',
				default: false,
				description: 'Whether to return all results or only up to a given limit',
				hint: RETURN_ALL_HINTS[group.reading],
				displayOptions: { show: { resource: [resource.value], operation: group.operation } },
			}),
		);
	return [
		...returnAll,
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { resource: [resource.value], operation, returnAll: [false] } },
		},
	];
}

const retryOptions: INodeProperties[] = [
	{
		displayName: 'Max Retries',
		name: 'maxRetries',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 10 },
		default: 4,
		description: 'How many times a failed request is repeated after rate limiting (429), a server error (5xx), a timeout or a dropped connection',
	},
	{
		displayName: 'Retry Delay (Ms)',
		name: 'retryDelay',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 500,
		description: 'First wait before a retry, doubled on each further attempt. A Retry-After header from the API takes precedence; one of more than 60 s stops the retries with an error.',
	},
];

const idempotencyOptions: INodeProperties[] = [
	{
		displayName: 'Idempotency',
		name: 'idempotency',
		type: 'options',
		options: [
			{
				name: 'Derived From Request',
				value: 'derived',
				description: 'A key computed from the method, path, query and body: re-running the same item sends the same key, so the API applies the write once',
			},
			{ name: 'Custom Key', value: 'custom', description: 'A key you give, e.g. from an ID in the input item' },
			{ name: 'Off', value: 'off', description: 'No key: the write is repeated only when it provably did not reach the API' },
		],
		default: 'derived',
		description: 'Whether writes carry the X-SERVICE-IDEMPOTENT-OPERATION-KEY header, which makes retries and re-runs safe',
	},
	{
		displayName: 'Idempotency Key',
		name: 'idempotencyKey',
		type: 'string',
		default: '',
		description: 'Up to 255 characters, unique per intended write',
		displayOptions: { show: { idempotency: ['custom'] } },
	},
];

/** Retry settings on every operation; writes also get the idempotency key. */
export function faultHandlingFields(resource: ResourceDefinition): INodeProperties[] {
	const variants: Array<{ kinds: OperationKind[]; options: INodeProperties[] }> = [
		{ kinds: ['read', 'list'], options: retryOptions },
		{ kinds: ['write'], options: [...retryOptions, ...idempotencyOptions] },
	];
	return variants
		.map(({ kinds, options }) => ({ operation: operationsOfKind(resource, kinds), options }))
		.filter(({ operation }) => operation.length > 0)
		.map(({ operation, options }) => ({
			displayName: 'Fault Handling',
			name: 'faultHandling',
			type: 'collection',
			placeholder: 'Add option',
			default: {},
			displayOptions: { show: { resource: [resource.value], operation } },
			options,
		}));
}
