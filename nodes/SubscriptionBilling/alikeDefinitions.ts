import type { INodeProperties } from 'n8n-workflow';

/** A resource and one of its operations, as `resource.operation`. */
type Pair = string;

const pairsOf = (resources: readonly string[], operations: readonly string[]): Pair[] =>
	resources.flatMap((resource) => operations.map((operation) => `${resource}.${operation}`));

/** Whether a definition is shown for the pair, before its other display rules. */
function shownAt(property: INodeProperties, pair: Pair): boolean {
	const show = property.displayOptions?.show;
	const [resource, operation] = pair.split('.');
	return (
		(show?.resource === undefined || show.resource.includes(resource)) &&
		(show?.operation === undefined || show.operation.includes(operation))
	);
}

const samenessOf = new WeakMap<INodeProperties, string>();
const functionIds = new WeakMap<object, number>();
let functionsSeen = 0;

/** Functions (a routing's preSend, postReceive) are the same only if they are the same function. */
function functionsById(_key: string, value: unknown): unknown {
	if (typeof value !== 'function') return value;
	if (!functionIds.has(value)) functionIds.set(value, functionsSeen++);
	return `function #${functionIds.get(value)}`;
}

/** The definition without the resources and operations it is shown for. */
function sameness(property: INodeProperties): string {
	let text = samenessOf.get(property);
	if (text === undefined) {
		const show = { ...property.displayOptions?.show };
		delete show.resource;
		delete show.operation;
		text = JSON.stringify(
			{ ...property, displayOptions: { ...property.displayOptions, show } },
			functionsById,
		);
		samenessOf.set(property, text);
	}
	return text;
}

/** The definitions shown for the pair, in the order the editor shows them. */
const sequence = (properties: INodeProperties[], pair: Pair): string =>
	properties
		.filter((property) => shownAt(property, pair))
		.map(sameness)
		.join('\n');

/**
 * The same definitions with the alike ones said once: definitions equal but for the resources and
 * operations that show them become one, shown for all of them, where that shows nothing more for
 * any resource and operation and keeps each one's fields in the same order. n8n's RoutingNode walks
 * every definition for every item, so fewer definitions cost less per item; what the editor shows
 * and what a tool is told stay the same.
 */
export function mergeAlikeDefinitions(properties: INodeProperties[]): INodeProperties[] {
	const valid = properties
		.filter((property) => property.name === 'operation')
		.flatMap((picker) =>
			pairsOf(
				(picker.displayOptions?.show?.resource ?? []) as string[],
				(picker.options ?? []).map((option) => String((option as { value: unknown }).value)),
			),
		);
	const expected = new Map(valid.map((pair) => [pair, sequence(properties, pair)]));
	const groups = new Map<string, INodeProperties[]>();
	for (const property of properties) {
		const show = property.displayOptions?.show;
		if (!show?.resource || !show.operation || property.name === 'operation') continue;
		const key = sameness(property);
		groups.set(key, [...(groups.get(key) ?? []), property]);
	}
	let merged = properties;
	let pending = [...groups.values()].filter((members) => members.length > 1);
	// A merge can make room for another (a field moved after one that now comes last): until none does.
	for (let before = Infinity; pending.length < before; ) {
		before = pending.length;
		pending = pending.filter((members) => {
			for (const place of members) {
				const candidate = withMerged(merged, members, place);
				const affected = valid.filter((pair) => shownAt(candidate.one, pair));
				if (affected.every((pair) => sequence(candidate.properties, pair) === expected.get(pair))) {
					merged = candidate.properties;
					return false;
				}
			}
			return true;
		});
	}
	return merged;
}

/** The members as one definition, at the place of one of them. */
function withMerged(
	properties: INodeProperties[],
	members: INodeProperties[],
	place: INodeProperties,
): { properties: INodeProperties[]; one: INodeProperties } {
	const union = (key: 'resource' | 'operation') => [
		...new Set(members.flatMap((member) => member.displayOptions!.show![key] as string[])),
	];
	const one: INodeProperties = {
		...members[0],
		displayOptions: {
			...members[0].displayOptions,
			show: {
				...members[0].displayOptions!.show,
				resource: union('resource'),
				operation: union('operation'),
			},
		},
	};
	samenessOf.set(one, sameness(members[0]));
	return {
		one,
		properties: properties.flatMap((property) =>
			property === place ? [one] : members.includes(property) ? [] : [property],
		),
	};
}
