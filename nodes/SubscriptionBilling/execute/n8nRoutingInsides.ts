import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeParameters,
	INodeProperties,
} from 'n8n-workflow';

/**
 * What this package relies on in n8n's declarative engine (n8n-core's RoutingNode and its item
 * contexts) beyond n8n-workflow's interfaces, each tested against every supported n8n release
 * (test/n8nRoutingInsides.test.cts; CI runs it on 1.123.81, 2.8.4 and 2.41.1):
 * 1. `runOf`: every item of a run hands its steps the same execute data object.
 * 2. `itemContext`: an item context resolves parameters, input and item index for its `itemIndex`
 *    field, which `Object.create(context, { itemIndex })` replaces (n8n builds the request step's
 *    context from the item's the same way).
 * 3. `requestComposer`: RoutingNode's mapping of parameters to body and query (`routing.send`), as
 *    far as this node's parameters use it.
 * 4. `keepWithRequest`: the request options the last preSend step returns are the object the
 *    request step (the routing's pagination function) receives.
 * 5. `runIndexOf`: the item contexts carry the run's index as `runIndex`.
 * Where one of them fails, the callers fall back to what n8n-workflow's interfaces give (holding a
 * run's items at the gate, the WorkflowDataProxy's `$runIndex`), except 1 and 4, which the tests guard.
 */

/** 1. The run the item belongs to: an object all its items share; none outside a run. */
export function runOf(ctx: Pick<IExecuteSingleFunctions, 'getExecuteData'>): object | undefined {
	return ctx.getExecuteData() ?? undefined;
}

/** How many input items the run has. */
export function runSize(run: object): number {
	const inputs = (run as { data?: Record<string, unknown[][] | undefined> }).data;
	const items = inputs?.main?.[0] ?? inputs?.ai_tool?.[0];
	return Array.isArray(items) ? items.length : 0;
}

/** 2. The context of another item of the run; undefined where the context does not follow `itemIndex`. */
export function itemContext<Context extends IExecuteSingleFunctions>(
	ctx: Context,
	itemIndex: number,
): Context | undefined {
	const other = Object.create(ctx, { itemIndex: { value: itemIndex } }) as Context;
	return other.getItemIndex() === itemIndex ? other : undefined;
}

/** 5. The run's index as the context carries it; undefined where it does not. */
export function runIndexOf(ctx: IExecuteSingleFunctions): number | undefined {
	const carried = (ctx as { runIndex?: unknown }).runIndex;
	return typeof carried === 'number' ? carried : undefined;
}

const kept = new WeakMap<IHttpRequestOptions, unknown>();

/** 4. Keeps a value with the request for the request step; the request is returned as it is. */
export function keepWithRequest(options: IHttpRequestOptions, value: unknown): IHttpRequestOptions {
	kept.set(options, value);
	return options;
}

/** Whether a value is kept with the request. */
export function keptWithRequest(options: IHttpRequestOptions): boolean {
	return kept.has(options);
}

/** The value kept with the request, taken from it; undefined when none. */
export function takeFromRequest(options: IHttpRequestOptions): unknown {
	const value = kept.get(options);
	kept.delete(options);
	return value;
}

/** 3. A parameter RoutingNode sends: where it is read and where it goes. */
interface Routed {
	path: string;
	extractValue: boolean;
	to: 'body' | 'qs';
	field: string;
	dotted: boolean;
}

/** Composes the request of the item whose context it is given. */
export type RequestComposer = (ctx: IExecuteSingleFunctions) => IHttpRequestOptions;

/**
 * 3. How RoutingNode composes the run's requests, given the first item's as it composed it (before
 * any preSend step) and `ctx`, the first item's context: each item's request is the first one's
 * with the item's body and query. Undefined where the routing uses what this does not compose (a
 * computed value or field name, a fixed collection, display rules on other than top-level values),
 * or where it would not compose the first request as RoutingNode did.
 */
export function requestComposer(
	ctx: IExecuteSingleFunctions,
	properties: INodeProperties[],
	first: IHttpRequestOptions,
): RequestComposer | undefined {
	const { parameters } = ctx.getNode();
	const routed = routedParameters(properties, parameters, parameters);
	if (!routed) return undefined;
	const compose: RequestComposer = (item) => {
		const body: IDataObject = {};
		const qs: IDataObject = {};
		for (const { path, extractValue, to, field, dotted } of routed)
			put(
				to === 'qs' ? qs : body,
				field,
				dotted,
				item.getNodeParameter(path, undefined, { extractValue }),
			);
		return { ...first, headers: { ...first.headers }, body, qs };
	};
	const asComposed = compose(ctx);
	return same(asComposed.body, first.body ?? {}) && same(asComposed.qs, first.qs ?? {})
		? compose
		: undefined;
}

/** Whether a property is shown, for display options on parameters at the top level; undefined for any other kind. */
function shown(property: INodeProperties, parameters: INodeParameters): boolean | undefined {
	const { show = {}, hide = {}, ...other } = property.displayOptions ?? {};
	const names = [...Object.keys(show), ...Object.keys(hide)];
	if (
		Object.keys(other).length > 0 ||
		names.some((name) => name.startsWith('@') || name.startsWith('/'))
	)
		return undefined;
	const has = (values: unknown[] | undefined, name: string) =>
		(values ?? []).includes(parameters[name]);
	return (
		Object.entries(show).every(([name, values]) => has(values, name)) &&
		!Object.entries(hide).some(([name, values]) => has(values, name))
	);
}

const routing = new WeakMap<object, boolean>();

/** Whether RoutingNode sends anything for the property, one of its options or a field within it. */
function routes(property: object): boolean {
	let found = routing.get(property);
	if (found === undefined) {
		const {
			routing: own,
			options,
			values,
		} = property as {
			routing?: unknown;
			options?: unknown[];
			values?: unknown[];
		};
		found =
			own !== undefined ||
			[...(options ?? []), ...(values ?? [])].some(
				(inner) => typeof inner === 'object' && inner !== null && routes(inner),
			);
		routing.set(property, found);
	}
	return found;
}

/**
 * The parameters RoutingNode sends for these parameter values, or undefined where its routing
 * uses what this composition does not.
 */
function routedParameters(
	properties: INodeProperties[],
	parameters: INodeParameters,
	values: unknown,
	base = '',
): Routed[] | undefined {
	const routed: Routed[] = [];
	for (const property of properties) {
		if (!routes(property)) continue;
		const isShown =
			base === ''
				? shown(property, parameters)
				: property.displayOptions === undefined
					? true
					: undefined;
		if (isShown === undefined) return undefined;
		if (!isShown) continue;
		const path = `${base}${property.name}`;
		const send = property.routing?.send;
		if (send?.property !== undefined) {
			if (send.value !== undefined || String(send.property).startsWith('=')) return undefined;
			routed.push({
				path,
				extractValue: property.extractValue !== undefined || property.type === 'resourceLocator',
				to: send.type === 'query' ? 'qs' : 'body',
				field: String(send.property),
				dotted: send.propertyInDotNotation !== false,
			});
		}
		if (property.type === 'collection') {
			const present = (values as IDataObject | undefined)?.[property.name];
			const options = (property.options as INodeProperties[]).filter(
				(option) => present && typeof present === 'object' && option.name in present,
			);
			const inner = routedParameters(options, parameters, present, `${path}.`);
			if (!inner) return undefined;
			routed.push(...inner);
		} else if (property.type === 'fixedCollection') {
			return undefined;
		}
	}
	return routed;
}

function put(target: IDataObject, field: string, dotted: boolean, value: unknown): void {
	const path = dotted ? field.split('.') : [field];
	let at = target;
	for (const key of path.slice(0, -1)) {
		if (!at[key] || typeof at[key] !== 'object') at[key] = {};
		at = at[key] as IDataObject;
	}
	at[path[path.length - 1]] = value as IDataObject[string];
}

function same(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (
		!a ||
		!b ||
		typeof a !== 'object' ||
		typeof b !== 'object' ||
		Array.isArray(a) !== Array.isArray(b)
	)
		return false;
	const keys = Object.keys(a);
	if (keys.length !== Object.keys(b).length) return false;
	return keys.every((key) => key in b && same((a as IDataObject)[key], (b as IDataObject)[key]));
}
