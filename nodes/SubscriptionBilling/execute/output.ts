import type {
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	PreSendAction,
} from 'n8n-workflow';
import { invalidSetting, quoted } from '../shared/invalidInput';
import type { Shaper } from './perform';

/** The Simplified shape of a result. */
export type Simplifier = (result: IDataObject) => IDataObject;

/** The names the Output and Fields parameters are stored under. */
export interface OutputParameterNames {
	output: string;
	fields: string;
}

/**
 * Documented fields of a result: `true` a value, a nested tree an object with documented fields,
 * `'list'` a list (selected whole), `'any'` a value of undocumented shape (any path below it).
 */
export interface FieldTree {
	[field: string]: FieldTree | true | 'list' | 'any';
}

/** What Output offers for one kind of result. */
export interface OutputDefinition {
	/** The result, as the messages name it: "customer". */
	noun: string;
	simplify: Simplifier;
	/** The Simplified fields, as the option's description lists them. */
	simplifiedFields: string;
	/** The contract's fields of the result: Selected Fields accepts only these. */
	documented: FieldTree;
	/** Fields of this result shown as the example, e.g. `customer_id, name, address.city`. */
	example: string;
	/**
	 * Each kind of result keeps its Output and Fields under names of its own, so that switching the
	 * resource in the editor does not carry them over to a result they do not fit.
	 */
	parameters: OutputParameterNames;
}

/** The names in a Fields text, trimmed, without empty entries or repeats. */
export function selectedPaths(text: unknown): string[] {
	const paths = String(text ?? '')
		.split(',')
		.map((path) => path.trim())
		.filter(Boolean);
	return [...new Set(paths)];
}

/** Why a path is not a documented field of the result, or undefined when it is. */
export function undocumentedPath(path: string, output: OutputDefinition): string | undefined {
	const segments = path.split('.');
	let tree: FieldTree = output.documented;
	let parent = `${/^[aeiou]/i.test(output.noun) ? 'an' : 'a'} ${output.noun}`;
	for (const [index, segment] of segments.entries()) {
		const node = Object.prototype.hasOwnProperty.call(tree, segment) ? tree[segment] : undefined;
		if (node === undefined)
			return `${quoted(path)} is not a field of ${parent} (its fields: ${Object.keys(tree).join(', ')})`;
		const rest = segments.length - index - 1;
		if (node === 'any' || rest === 0) return undefined;
		const reached = segments.slice(0, index + 1).join('.');
		if (node === 'list')
			return `${quoted(path)}: ${reached} is a list, which is selected whole (${reached})`;
		if (node === true)
			return `${quoted(path)}: ${reached} is a single value, with no fields inside`;
		tree = node;
		parent = reached;
	}
	return undefined;
}

function pick(result: IDataObject, segments: string[]): unknown {
	return segments.reduce<unknown>(
		(value, key) =>
			value && typeof value === 'object' && !Array.isArray(value)
				? (value as IDataObject)[key]
				: undefined,
		result,
	);
}

/**
 * Only the selected paths, nested as in the result (`address.city` → `{address: {city}}`); a
 * documented field the API left out of this result is null. A path inside another selected path
 * is already part of it.
 */
function selectFields(result: IDataObject, paths: string[]): IDataObject {
	const selected: IDataObject = {};
	const covered = (path: string) => paths.some((other) => path.startsWith(`${other}.`));
	for (const path of paths.filter((candidate) => !covered(candidate))) {
		const segments = path.split('.');
		let target = selected;
		for (const segment of segments.slice(0, -1)) {
			if (
				target[segment] === undefined ||
				target[segment] === null ||
				typeof target[segment] !== 'object'
			)
				target[segment] = {};
			target = target[segment] as IDataObject;
		}
		const value = pick(result, segments);
		target[segments[segments.length - 1]] = (
			value === undefined ? null : value
		) as IDataObject[string];
	}
	return selected;
}

/**
 * One choice of Output, offered for every kind of result: the option the editor shows, the
 * setting it takes (shown under Output when chosen), its check before anything is sent and how it
 * shapes each result. A new mode is a new entry here; the stored values of the existing modes stay.
 */
interface OutputMode {
	name: string;
	value: string;
	description: (output: OutputDefinition) => string;
	setting?: (output: OutputDefinition) => INodeProperties;
	check?: (ctx: IExecuteSingleFunctions, output: OutputDefinition) => void;
	shaper: (
		ctx: IExecutePaginationFunctions,
		output: OutputDefinition,
	) => (result: IDataObject) => IDataObject;
}

export const OUTPUT_MODES: OutputMode[] = [
	{
		name: 'Simplified',
		value: 'simplified',
		description: (output) => `Only the fields people act on: ${output.simplifiedFields}`,
		shaper: (ctx, output) => output.simplify,
	},
	{
		name: 'Raw',
		value: 'raw',
		description: () => 'Everything the API returns',
		shaper: () => (result) => result,
	},
	{
		name: 'Selected Fields',
		value: 'selected',
		description: () => 'Only the fields you name',
		setting: (output) => ({
			displayName: 'Fields',
			name: output.parameters.fields,
			type: 'string',
			required: true,
			default: '',
			placeholder: `e.g. ${output.example}`,
			description: `Comma-separated fields of the ${output.noun} as the API documents them; a dot reaches into an object and keeps it nested (address.city gives {"address": {"city": …}})`,
		}),
		check(ctx, output) {
			const name = output.parameters.fields;
			const paths = selectedPaths(ctx.getNodeParameter(name, ''));
			if (paths.length === 0)
				throw invalidSetting(
					ctx,
					name,
					'Fields',
					`is empty: name the ${output.noun} fields to return, e.g. ${output.example}`,
				);
			for (const path of paths) {
				const problem = undocumentedPath(path, output);
				if (problem) throw invalidSetting(ctx, name, 'Fields', problem);
			}
		},
		shaper(ctx, output) {
			const paths = selectedPaths(ctx.getNodeParameter(output.parameters.fields, ''));
			return (result) => selectFields(result, paths);
		},
	},
];

function chosenMode(
	ctx: IExecuteSingleFunctions | IExecutePaginationFunctions,
	output: OutputDefinition,
): OutputMode | undefined {
	const value = ctx.getNodeParameter(output.parameters.output, OUTPUT_MODES[0].value);
	return OUTPUT_MODES.find((mode) => mode.value === value);
}

/** The preSend check of the chosen mode and its setting: nothing is sent when it fails. */
export function outputCheck(output: OutputDefinition): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const mode = chosenMode(this, output);
		if (!mode)
			throw invalidSetting(
				this,
				output.parameters.output,
				'Output',
				`${quoted(this.getNodeParameter(output.parameters.output))} is not one of its choices (${OUTPUT_MODES.map((choice) => choice.name).join(', ')})`,
			);
		mode.check?.(this, output);
		return requestOptions;
	};
}

/** Applies the chosen output mode to each result. */
export function outputShaper(output: OutputDefinition): Shaper {
	return function (this: IExecutePaginationFunctions) {
		return (chosenMode(this, output) ?? OUTPUT_MODES[0]).shaper(this, output);
	};
}

/** A delete's output: `{deleted: true}`, the id the API acted on, and what the API answered. */
export function deletedShaper(apiField: string, parameter: string): Shaper {
	return function (this: IExecutePaginationFunctions) {
		const id = this.getNodeParameter(parameter) as string;
		return (result) => ({ deleted: true, [apiField]: id, ...result });
	};
}

/**
 * A write whose answer is only a message: the message, then what the request wrote (the listed
 * body fields that were sent), so the item shows what changed.
 */
export function writtenShaper(fields: string[]): Shaper {
	return function (this: IExecutePaginationFunctions, request: IHttpRequestOptions) {
		const body = (request.body ?? {}) as IDataObject;
		const written = Object.fromEntries(
			fields.filter((field) => body[field] !== undefined).map((field) => [field, body[field]]),
		);
		return (result) => ({ ...result, ...written });
	};
}

/** The fields the contract documents for each result that Output → Selected Fields applies to. */
const address: FieldTree = {
	line_1: true,
	line_2: true,
	city: true,
	region: true,
	zip: true,
	country: true,
};

const person: FieldTree = {
	person_id: true,
	first_name: true,
	last_name: true,
	email: true,
	role: true,
	preferred_name: true,
};

const CUSTOMER_FIELDS: FieldTree = {
	customer_id: true,
	name: true,
	legal_name: true,
	external_id: true,
	address,
	processor_customer_id: true,
	tax_id: true,
	subscriptions: 'list',
};

const INVOICE_FIELDS: FieldTree = {
	invoice_id: true,
	subscription_id: true,
	customer_id: true,
	invoice_number: true,
	due_at: true,
	bill_at: true,
	issued_at: true,
	status: true,
	fully_paid_at: true,
	grand_total: true,
	remaining_amount: true,
	currency: true,
	is_renewal_estimate: true,
	customer_name: true,
	time_zone: true,
	payments: 'list',
	attachments: 'list',
	line_items: 'list',
	metadata: 'any',
};

const SUBSCRIPTION_FIELDS: FieldTree = {
	subscription_id: true,
	status: true,
	stage: true,
	transaction_method: true,
	starts_at: true,
	ends_at: true,
	renews_at: true,
	terminates_at: true,
	time_zone: true,
	billing_frequency: true,
	currency: true,
	payment_terms: true,
	auto_renews: true,
	renewal_total: true,
	renewal_contract_period: true,
	sub_total: true,
	grand_total: true,
	grand_total_details: 'any',
	line_items: 'list',
	billing_schedule: 'list',
	customer: CUSTOMER_FIELDS,
	crm_account_id: true,
	crm_opportunity_id: true,
	point_of_contact: person,
	signatory_user: person,
	accounts_payable_emails: 'list',
	products: 'list',
	pauses: 'list',
	phases: 'list',
	metadata: 'any',
	attributed_to: { user_id: true, first_name: true, last_name: true, email: true },
	purchase_order: { code: true },
};

export const customerOutput: OutputDefinition = {
	noun: 'customer',
	simplify: simplifyCustomer,
	simplifiedFields:
		'ID, names, external and processor IDs, tax ID, country, the number of subscriptions in any status (all_subscriptions_count), and the number and IDs of the active ones',
	documented: CUSTOMER_FIELDS,
	example: 'customer_id, name, address.city',
	parameters: { output: 'customerOutput', fields: 'customerFields' },
};

export const invoiceOutput: OutputDefinition = {
	noun: 'invoice',
	simplify: simplifyInvoice,
	simplifiedFields:
		'ID, number, status, customer, subscription, dates, grand total, remaining amount and currency (amounts as the API returns them)',
	documented: INVOICE_FIELDS,
	example: 'invoice_number, status, grand_total, currency',
	parameters: { output: 'invoiceOutput', fields: 'invoiceFields' },
};

export const subscriptionOutput: OutputDefinition = {
	noun: 'subscription',
	simplify: simplifySubscription,
	simplifiedFields:
		'ID, status, stage, dates, renewal (renewal_total_cents: in cents of the currency, as the API gives it), grand total (as the API gives it), currency, customer and the current pause',
	documented: SUBSCRIPTION_FIELDS,
	example: 'subscription_id, status, customer.name',
	parameters: { output: 'subscriptionOutput', fields: 'subscriptionFields' },
};

/**
 * The Simplified shapes. Every key is always there: a value the API left out or sent as null
 * (`customer: null`, `address: null`) is null, so later nodes can rely on the same keys.
 */

type Source = IDataObject | null | undefined;

/** The object at `key`, or undefined when the API sent none (null, a missing key, not an object). */
function objectAt(source: Source, key: string): IDataObject | undefined {
	const value = source?.[key];
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/** `fields` of `source` under the same names, null where missing. */
function keep(source: Source, fields: string[]): IDataObject {
	return Object.fromEntries(fields.map((field) => [field, source?.[field] ?? null]));
}

function currentPause(pauses: unknown, now = Date.now()): IDataObject | null {
	if (!Array.isArray(pauses)) return null;
	const current = (pauses as IDataObject[]).find((pause) => {
		const pausedAt = Date.parse(String(pause?.paused_at));
		const resumeAt = pause?.resume_at ? Date.parse(String(pause.resume_at)) : Infinity;
		return pausedAt <= now && resumeAt > now;
	});
	return current ?? null;
}

/**
 * A subscription. `renewal_total` is in cents of the currency (the contract says so) while the other
 * totals are as the API gives them: the field's name says so (`renewal_total_cents`).
 */
export function simplifySubscription(subscription: IDataObject): IDataObject {
	const customer = objectAt(subscription, 'customer');
	return {
		...keep(subscription, [
			'subscription_id',
			'status',
			'stage',
			'starts_at',
			'ends_at',
			'renews_at',
			'terminates_at',
			'auto_renews',
		]),
		renewal_total_cents: subscription.renewal_total ?? null,
		...keep(subscription, ['grand_total', 'currency', 'billing_frequency']),
		customer_id: customer?.customer_id ?? null,
		customer_name: customer?.name ?? null,
		current_pause: currentPause(subscription.pauses),
	};
}

export function simplifyInvoice(invoice: IDataObject): IDataObject {
	return keep(invoice, [
		'invoice_id',
		'invoice_number',
		'status',
		'customer_id',
		'customer_name',
		'subscription_id',
		'issued_at',
		'due_at',
		'fully_paid_at',
		'grand_total',
		'remaining_amount',
		'currency',
	]);
}

export function simplifyCustomer(customer: IDataObject): IDataObject {
	const listed = customer.subscriptions;
	const subscriptions = (Array.isArray(listed) ? listed : []) as IDataObject[];
	const active = subscriptions.filter((entry) => entry?.status === 'ACTIVE');
	return {
		...keep(customer, [
			'customer_id',
			'name',
			'legal_name',
			'external_id',
			'processor_customer_id',
			'tax_id',
		]),
		country: objectAt(customer, 'address')?.country ?? null,
		all_subscriptions_count: subscriptions.length,
		active_subscriptions_count: active.length,
		active_subscription_ids: active.map((entry) => entry.subscription_id),
	};
}
