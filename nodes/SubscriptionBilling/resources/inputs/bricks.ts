import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { checkFields } from '../../execute/bodyRules';
import { invalidInput, quoted } from '../../shared/invalidInput';
import type { StructuredInput } from './structuredInput';
import { stringListInput } from './stringList';
import { brickIdField } from '../../shared/idFields';

/** A row's resource locator holds `{mode, value}`; a row saved as plain text holds the ID itself. */
function locatorValue(value: unknown): unknown {
	return value !== null && typeof value === 'object' && 'value' in value
		? (value as { value: unknown }).value
		: value;
}

/** The fields the public reference gives a brick of an order, and its discount. */
const BRICK_FIELDS = ['brick_id', 'quantity', 'discount'];
const DISCOUNT_FIELDS = ['rate', 'renews'];

function checkOnlyKnown(
	ctx: IExecuteSingleFunctions,
	value: IDataObject,
	known: string[],
	owner: string,
): void {
	const unknown = Object.keys(value).find((key) => !known.includes(key));
	if (unknown !== undefined)
		throw invalidInput(
			ctx,
			'Bricks',
			`${owner} has ${quoted(unknown)}, which is not one of its fields (${known.join(', ')})`,
		);
}

/** The bricks (line items) of an upgrade or recast order. */
export const bricksInput: StructuredInput = {
	name: 'bricks',
	displayName: 'Bricks',
	apiField: 'bricks',
	shape: 'array',
	required: true,
	rowName: 'brick',
	rowDisplayName: 'Brick',
	rowFields: [
		{ ...brickIdField, required: false },
		{
			displayName: 'Quantity',
			name: 'quantity',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: null,
			placeholder: 'e.g. 1',
			description: 'Whole number, at least 1; no default',
		},
		{
			displayName: 'Discount Rate',
			name: 'discountRate',
			type: 'string',
			default: '',
			description: 'Optional discount, e.g. 10 for 10%; leave empty for none',
		},
		{
			displayName: 'Discount Renews',
			name: 'discountRenews',
			type: 'boolean',
			default: false,
			description: 'Whether the discount also applies after renewal',
		},
	],
	jsonExample:
		'[{"brick_id": "7d1e0c52-3f0b-4a8e-9d6c-2b4f1a0e9c31", "quantity": 2, "discount": {"rate": "10", "renews": false}}]',
	description: 'The line items of the order, each with brick ID, quantity and an optional discount',
	fromRows(_ctx: IExecuteSingleFunctions, rows: IDataObject[]) {
		return rows.map((row) => ({
			brick_id: locatorValue(row.brickId),
			quantity: row.quantity,
			...(row.discountRate !== undefined && row.discountRate !== ''
				? { discount: { rate: String(row.discountRate), renews: row.discountRenews === true } }
				: {}),
		}));
	},
	check(ctx: IExecuteSingleFunctions, value: unknown) {
		const bricks = value as IDataObject[];
		if (bricks.length === 0) throw invalidInput(ctx, 'Bricks', 'give at least one brick');
		bricks.forEach((brick, index) => {
			const at = { list: 'Bricks', entry: index + 1 };
			if (brick === null || typeof brick !== 'object' || Array.isArray(brick))
				throw invalidInput(
					ctx,
					'Bricks',
					`entry ${at.entry}, ${quoted(brick)}, is not a JSON object such as {"brick_id": "…", "quantity": 1}`,
				);
			checkOnlyKnown(ctx, brick, BRICK_FIELDS, `entry ${at.entry}`);
			checkFields(
				ctx,
				brick,
				[
					{ field: 'brick_id', label: brickIdField.displayName, type: 'string', required: true },
					{ field: 'quantity', label: 'Quantity', type: 'integer', required: true, min: 1 },
					{ field: 'discount', label: 'Discount', type: 'object' },
				],
				at,
			);
			if (brick.discount) {
				checkOnlyKnown(
					ctx,
					brick.discount as IDataObject,
					DISCOUNT_FIELDS,
					`the discount of entry ${at.entry}`,
				);
				checkFields(
					ctx,
					brick.discount as IDataObject,
					[{ field: 'renews', label: 'Discount Renews', type: 'boolean' }],
					{ ...at, part: 'discount' },
				);
			}
		});
	},
};

/** Discount coupon codes of an order. */
export const discountCouponsInput = stringListInput(
	'discountCoupons',
	'Discount Coupons',
	'discount_coupons',
	'Coupon',
	'Coupon codes applied to the order',
	['WELCOME10', 'ANNUAL-15'],
);
