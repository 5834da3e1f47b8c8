import type { INodeProperties } from 'n8n-workflow';
import { ID, ORDER_ID, idSource } from './idChecks';

/** A required id, picked from a searchable list or given as an id such as `exampleId`. */
function resourceLocator(
	displayName: string,
	name: string,
	description: string,
	searchListMethod: string,
	exampleId: string,
	editorCheck: { regex: string; errorMessage: string } = ID.editor,
): INodeProperties {
	const source = idSource(name);
	const inTool = source
		? `. In an AI tool, mode id with $fromAI('${source.field}', \`The ${source.field.replace(/_id$/, '')}'s ID (${source.field}) from ${source.from}\`, 'string'): the description tells the model what to give and where to find it`
		: '';
	return {
		displayName,
		name,
		type: 'resourceLocator',
		builderHint: {
			propertyHint: `Usually mapped from an earlier node in mode id: the ${displayName} ID its items carry (a trigger item or a previous Subscription Billing step)${inTool}`,
		},
		required: true,
		default: { mode: 'list', value: '' },
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${exampleId}`,
				validation: [{ type: 'regex', properties: editorCheck }],
			},
		],
	};
}

export const customerIdField = resourceLocator(
	'Customer',
	'customerId',
	'The customer: pick it by name or give its ID',
	'searchCustomers',
	'938624d0-4bbd-4928-85b9-5506372accfa',
);

export const subscriptionIdField = resourceLocator(
	'Subscription',
	'subscriptionId',
	"The subscription: type its name or its customer's name to list matches, or give the subscription ID",
	'searchSubscriptions',
	'5c0d3acd-6adc-48b5-bb47-a920115142f1',
);

export const planIdField = resourceLocator(
	'Plan',
	'planId',
	'The plan: pick it by name or give its ID',
	'searchPlans',
	'4b8abbe6-1f4e-4232-b74f-a393af35b05e',
);

export const brickIdField = resourceLocator(
	'Brick',
	'brickId',
	'The brick (line item of a plan): pick it from the bricks of the plans or give its ID',
	'searchBricks',
	'7d1e0c52-3f0b-4a8e-9d6c-2b4f1a0e9c31',
);

/** An upgrade or recast order of the chosen subscription (`kind`: "upgrade" or "recast"). */
export function orderIdField(kind: 'upgrade' | 'recast'): INodeProperties {
	return resourceLocator(
		'Order ID',
		'orderId',
		`The ${kind} order: pick it from the subscription's ${kind} orders (choose the Subscription first) or give its UUID`,
		kind === 'upgrade' ? 'searchUpgradeOrders' : 'searchRecastOrders',
		'e1e02167-f737-41fe-8eff-1f8971f96832',
		ORDER_ID.editor,
	);
}

export const milestoneIdField = resourceLocator(
	'Milestone ID',
	'milestoneId',
	"The milestone: pick it from the subscription's milestones (choose the Subscription first) or give its ID",
	'searchMilestones',
	'497031b1-067e-48bc-a6b6-74817d0915b5',
);
