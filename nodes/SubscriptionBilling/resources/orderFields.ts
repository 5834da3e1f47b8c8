import type { INodeProperties, PreSendAction } from 'n8n-workflow';
import { validateFields, type FieldRule } from '../execute/bodyRules';
import { showFor } from '../editor';
import { structuredInputFields, structuredInputStep } from './inputs/structuredInput';
import { planIdField } from '../shared/idFields';
import { bricksInput, discountCouponsInput } from './inputs/bricks';
import { keyValueObjectInput } from './inputs/keyValueObject';
import { redirectUrlRule } from './redirectUrl';

const metadataInput = keyValueObjectInput(
	'metadata',
	'Metadata',
	'metadata',
	'Free-form metadata stored on the order',
);

const commonAdditionalFields: INodeProperties[] = [
	{
		displayName: 'Custom Order Form HTML',
		name: 'customOrderFormHtml',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		routing: { send: { type: 'body', property: 'custom_order_form_html' } },
	},
	{
		...planIdField,
		required: false,
		description: 'Plan the bricks come from',
		routing: { send: { type: 'body', property: 'plan_id' } },
	},
];

/** The create fields and steps upgrade and recast orders share (their other shared fields: sharedFields.ts). */
export function orderCreateFields(
	resource: string,
	label: 'upgrade' | 'recast',
	createFields: INodeProperties[],
	additionalFields: INodeProperties[],
): INodeProperties[] {
	const show = (...operation: string[]) => showFor(resource, operation);
	return [
		{
			displayName: 'Starts At',
			name: 'startsAt',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. 2026-10-01',
			description: `Date the ${label} takes effect, as YYYY-MM-DD`,
			displayOptions: show('create'),
			routing: { send: { type: 'body', property: 'starts_at' } },
		},
		...createFields.map((field) => ({ ...field, displayOptions: show('create') })),
		...structuredInputFields(bricksInput, show('create')),
		...structuredInputFields(discountCouponsInput, show('create')),
		...structuredInputFields(metadataInput, show('create')),
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add field',
			default: {},
			displayOptions: show('create'),
			options: [...additionalFields, ...commonAdditionalFields].sort((a, b) =>
				a.displayName.localeCompare(b.displayName),
			),
		},
	];
}

/** Builds and checks the create body: bricks, coupons, metadata, then every field rule. */
export function orderCreateSteps(rules: FieldRule[]): PreSendAction[] {
	return [
		structuredInputStep(bricksInput),
		structuredInputStep(discountCouponsInput),
		structuredInputStep(metadataInput),
		validateFields([
			{ field: 'starts_at', label: 'Starts At', type: 'date', required: true },
			{ field: 'plan_id', label: 'Plan', type: 'string' },
			...rules,
		]),
	];
}

export const signSteps: PreSendAction[] = [validateFields([redirectUrlRule])];
