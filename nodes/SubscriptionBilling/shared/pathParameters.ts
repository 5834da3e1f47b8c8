import type { IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { invalidInput, quoted } from './invalidInput';

interface PathParameterRule {
	label: string;
	pattern: RegExp;
	hint: string;
	/** How the value is written before it is checked and sent. */
	normalise?: (value: string) => string;
}

export const ID_PATTERN = /^[a-zA-Z\d-]+$/;
export const ID_HINT = 'may contain only letters, digits and hyphens';
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UUID_HINT = 'is not a UUID such as 0b6c1b7e-2f1a-4c55-9d2e-0a1b2c3d4e5f';

/** The contract's patterns for every id that goes into a path, with the field's name as the editor shows it. */
const PATH_PARAMETERS: Record<string, PathParameterRule> = {
	customerId: { label: 'Customer', pattern: ID_PATTERN, hint: ID_HINT },
	subscriptionId: { label: 'Subscription', pattern: ID_PATTERN, hint: ID_HINT },
	// the API's pattern is lowercase; a UUID is the same UUID in capitals
	orderId: { label: 'Order ID', pattern: UUID_PATTERN, hint: UUID_HINT, normalise: (value) => value.trim().toLowerCase() },
	planId: { label: 'Plan', pattern: ID_PATTERN, hint: ID_HINT },
	milestoneId: { label: 'Milestone ID', pattern: ID_PATTERN, hint: ID_HINT },
};

/**
 * What is wrong with a list mapped into a field that takes one ID (such as a customer's
 * active_subscription_ids): how many it holds and how to run once per ID.
 */
export function listInsteadOfId(value: unknown): string | undefined {
	if (!Array.isArray(value)) return undefined;
	const count = value.length === 1 ? 'a list of 1 ID' : `a list of ${value.length} IDs`;
	return `received ${count}${value.length > 0 ? ` (${value.slice(0, 3).map(quoted).join(', ')}${value.length > 3 ? ', …' : ''})` : ''}, and it takes one ID. To run once per ID, turn the list into one item per ID first: a Split Out node on the field that holds the list (such as active_subscription_ids), then map the ID of each item here`;
}

function checkedPathParameter(ctx: IExecuteSingleFunctions, name: string, raw: unknown): string {
	const rule = PATH_PARAMETERS[name];
	const given = typeof raw === 'number' ? String(raw) : raw;
	const list = listInsteadOfId(given);
	if (list) throw invalidInput(ctx, rule.label, list);
	if (typeof given !== 'string' || given.trim() === '') throw invalidInput(ctx, rule.label, 'is empty');
	const value = rule.normalise ? rule.normalise(given) : given;
	if (!rule.pattern.test(value)) throw invalidInput(ctx, rule.label, `${quoted(value)} ${rule.hint}`);
	return value;
}

/** Fills the `{name}` placeholders of the operation's path with validated ids. */
export async function fillPathParameters(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.url = requestOptions.url.replace(/\{(\w+)\}/g, (_, name: string) => {
		const raw = this.getNodeParameter(name, undefined, { extractValue: true });
		return encodeURIComponent(checkedPathParameter(this, name, raw));
	});
	return requestOptions;
}
