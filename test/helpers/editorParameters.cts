/**
 * The parameters n8n's editor stores for a Subscription Billing node added fresh from the nodes
 * panel with a resource and operation, and the fields it marks as issues: what tests start from
 * instead of hand-written parameters.
 */
import { DirectoryLoader } from 'n8n-core';
import { NodeHelpers, type INode, type INodeParameters, type INodeProperties } from 'n8n-workflow';
import { SubscriptionBilling } from '../../nodes/SubscriptionBilling/SubscriptionBilling.node';

/** The description as n8n serves it to the editor: with the Request Options n8n adds to declarative nodes. */
const served = new SubscriptionBilling();
DirectoryLoader.applyDeclarativeNodeOptionParameters(served);
const description = served.description;

/** The node as getNodeParameters reads it: its one version. */
const NODE = { typeVersion: 1 };

/**
 * What the editor's number box does to a stored value when the panel opens (n8n 2.8.4's
 * N8nInputNumber, Element Plus's input-number, on mount): a value that is neither a number nor
 * null/undefined is replaced by Number(value), NaN by null. So a default of '' is stored as 0.
 */
function numberBoxValue(value: unknown): unknown {
	if (typeof value === 'number' || value === null || value === undefined) return value;
	if (typeof value === 'string' && value.startsWith('=')) return value; // an expression: no number box
	const number = Number(value);
	return Number.isNaN(number) ? null : number;
}

/** Applies the number box's rule to every number field among `properties` present in `values`. */
function asNumberBoxesStore(properties: INodeProperties[], values: INodeParameters): void {
	for (const property of properties) {
		if (!(property.name in values)) continue;
		if (property.type === 'number')
			values[property.name] = numberBoxValue(values[property.name]) as INodeParameters[string];
	}
}

/**
 * The parameters of a fresh node: n8n's own defaults for the fields shown for this resource and
 * operation (NodeHelpers.getNodeParameters, as the editor calls it), as the number boxes store them.
 */
export function freshParameters(resource: string, operation: string): INodeParameters {
	const values =
		NodeHelpers.getNodeParameters(
			description.properties,
			{ resource, operation },
			true,
			false,
			NODE,
			description,
		) ?? {};
	asNumberBoxesStore(description.properties, values);
	return values;
}

/**
 * A fresh node's parameters with `changes` made in the panel (top-level fields replaced), and
 * what n8n fills in for the fields the change shows, as the editor does.
 */
export function editedParameters(
	changes: INodeParameters & { resource: string; operation: string },
): INodeParameters {
	const edited = { ...freshParameters(changes.resource, changes.operation), ...changes };
	const values =
		NodeHelpers.getNodeParameters(description.properties, edited, true, false, NODE, description) ??
		{};
	asNumberBoxesStore(description.properties, values);
	return values;
}

/** The parameters the editor marks as issues ("Parameter … is required."), by name, as it does before running. */
export function editorIssues(parameters: INodeParameters): Record<string, string[]> {
	const node: INode = {
		id: 'fresh',
		name: 'Subscription Billing',
		type: 'subscriptionBilling',
		...NODE,
		position: [0, 0],
		parameters,
	};
	return (NodeHelpers.getNodeParametersIssues(description.properties, node, description)
		?.parameters ?? {}) as Record<string, string[]>;
}

/** The operations that send a body or change something (every one that is not a GET): [resource, operation]. */
export function nonGetOperations(): Array<[string, string]> {
	const found: Array<[string, string]> = [];
	for (const resource of description.properties.find((p) => p.name === 'resource')?.options ?? []) {
		const value = (resource as { value: string }).value;
		const picker = description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(value),
		);
		for (const option of (picker?.options ?? []) as Array<{
			value: string;
			routing?: { request?: { method?: string } };
		}>) {
			if (option.routing?.request?.method !== 'GET') found.push([value, option.value]);
		}
	}
	return found;
}
