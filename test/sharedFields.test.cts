/**
 * The fields several resources show are written once (nodes/SubscriptionBilling/resources/sharedFields.ts),
 * with the operations that show them: every operation shows the ones its definition needs, and no
 * definition of the node is another's twin but for the resources and operations that show it.
 */
import type { INodeProperties } from 'n8n-workflow';
import {
	SubscriptionBilling,
	resources,
} from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { isPaged, type OperationDefinition } from '../nodes/SubscriptionBilling/editor';

const { properties } = new SubscriptionBilling().description;
const SHARED = 'resources/sharedFields.ts';

const operations = resources.flatMap((resource) =>
	resource.operations.map((operation) => ({ resource: resource.value, operation })),
);

const shows = (property: INodeProperties, resource: string, operation: string) =>
	property.displayOptions?.show?.resource?.includes(resource) === true &&
	property.displayOptions.show.operation?.includes(operation) === true;

const shownAt = (name: string, resource: string, operation: string) =>
	properties.filter((property) => property.name === name && shows(property, resource, operation));

/** The definition without the resources and operations that show it. */
function withoutWhere(property: INodeProperties): string {
	const { resource: _r, operation: _o, ...show } = property.displayOptions?.show ?? {};
	return JSON.stringify(
		{ ...property, displayOptions: { ...property.displayOptions, show } },
		(_k, v) => (typeof v === 'function' ? String(v) : (v as unknown)),
	);
}

const where = (property: INodeProperties) =>
	`${property.name} (${String(property.displayOptions?.show?.resource)} → ${String(property.displayOptions?.show?.operation)})`;

/** The definitions an operation shows, in order, as what they are (not where they are shown). */
const sequence = (list: INodeProperties[], resource: string, operation: string) =>
	list
		.filter((property) => {
			const show = property.displayOptions?.show;
			return (
				(show?.resource === undefined || show.resource.includes(resource)) &&
				(show?.operation === undefined || show.operation.includes(operation))
			);
		})
		.map(withoutWhere)
		.join('\n');

/** The two as one definition, shown for both, at the place of one of them. */
function saidOnce(a: INodeProperties, b: INodeProperties, place: INodeProperties) {
	const union = (key: 'resource' | 'operation') => [
		...new Set([a, b].flatMap((member) => member.displayOptions?.show?.[key] as string[])),
	];
	const show = {
		...a.displayOptions?.show,
		resource: union('resource'),
		operation: union('operation'),
	};
	const one = { ...a, displayOptions: { ...a.displayOptions, show } };
	return properties.flatMap((property) =>
		property === place ? [one] : property === a || property === b ? [] : [property],
	);
}

// RoutingNode walks every definition for every item: a field said twice where once would show the
// same costs each item, and is a second place to change.
test('no two definitions are the same but for where they are shown, where one would show every operation the same fields', () => {
	const twins: string[] = [];
	properties.forEach((b, j) =>
		properties.slice(0, j).forEach((a) => {
			if (withoutWhere(a) !== withoutWhere(b)) return;
			const once = [a, b].some((place) => {
				const candidate = saidOnce(a, b, place);
				return operations.every(
					({ resource, operation }) =>
						sequence(candidate, resource, operation.value) ===
						sequence(properties, resource, operation.value),
				);
			});
			if (once)
				twins.push(`${where(a)} and ${where(b)}: write it once in ${SHARED}, shown for both`);
		}),
	);
	expect(twins).toEqual([]);
});

/** What an operation's kind asks for, and where it is missing or too much. */
function listAndFaultProblems(resource: string, operation: OperationDefinition): string[] {
	const at = `${resource} → ${operation.value}`;
	const problems: string[] = [];
	const returnAll = shownAt('returnAll', resource, operation.value);
	const limit = shownAt('limit', resource, operation.value);
	if (operation.kind === 'list') {
		const reading = isPaged(operation) ? 'paged' : 'whole';
		const hint = isPaged(operation) ? /follows every page/ : /whole, in one answer/;
		if (returnAll.length !== 1 || !hint.test(String(returnAll[0].hint)))
			problems.push(`${at} is a list: list it in returnAll.${reading} (only) in ${SHARED}`);
		if (limit.length !== 1) problems.push(`${at} is a list: list it in limit in ${SHARED}`);
	} else if (returnAll.length + limit.length > 0) {
		problems.push(`${at} is no list: take it out of returnAll and limit in ${SHARED}`);
	}
	const faultHandling = shownAt('faultHandling', resource, operation.value);
	const variant = operation.kind === 'write' ? 'write' : 'read';
	const withKey = faultHandling.map((field) =>
		(field.options ?? []).some((option) => option.name === 'idempotency'),
	);
	if (faultHandling.length !== 1 || withKey[0] !== (variant === 'write'))
		problems.push(`${at}: list it in faultHandling.${variant} (only) in ${SHARED}`);
	return problems;
}

test('every list shows Return All (its hint saying how it is read) and Limit, every operation its Fault Handling', () => {
	expect(operations.length).toBeGreaterThan(30);
	expect(
		operations.flatMap(({ resource, operation }) => listAndFaultProblems(resource, operation)),
	).toEqual([]);
});

test('an ID field several resources show is shown exactly where the path takes that ID', () => {
	const sharedIds = properties.filter(
		(property) =>
			(property.displayOptions?.show?.resource?.length ?? 0) > 1 &&
			property.type === 'resourceLocator',
	);
	expect(sharedIds.map((property) => property.name)).toContain('subscriptionId');
	const problems = sharedIds.flatMap((field) =>
		operations.flatMap(({ resource, operation }) => {
			const inPath = operation.path.includes(`{${field.name}}`);
			const shown = shows(field, resource, operation.value);
			const own = properties.some(
				(property) =>
					property !== field &&
					property.name === field.name &&
					shows(property, resource, operation.value),
			);
			if (shown && !inPath)
				return [
					`${resource} → ${operation.value} shows ${field.name}, which its path does not take`,
				];
			if (inPath && !shown && !own)
				return [`${resource} → ${operation.value} takes ${field.name}: list it in ${SHARED}`];
			return [];
		}),
	);
	expect(problems).toEqual([]);
});
