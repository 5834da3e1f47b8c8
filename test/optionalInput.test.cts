/**
 * Where the contract is silent the node is not stricter than it, and it never sends a value the
 * user did not give: the fields as the editor shows them. The runs (an optional redirect URL,
 * added-but-empty customer fields, a usage value with no default, the sort order of plans) are
 * rows of the operation tables in test/operations/.
 */
import { SubscriptionBilling } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';

describe('Usage → Update: the value has no default', () => {
	test('the editor shows an empty, required Value on create and update (a default of null, which its number box keeps; "" would be stored as 0)', () => {
		const value = new SubscriptionBilling().description.properties.find(
			(property) => property.name === 'value',
		);
		expect(value).toMatchObject({
			displayName: 'Value',
			type: 'number',
			required: true,
			default: null,
		});
		expect(value?.displayOptions?.show).toMatchObject({
			resource: ['usage'],
			operation: ['create', 'update'],
		});
	});
});

describe('Plan → Get Many: the sort the editor shows is the sort sent', () => {
	test('Sort is a top-level option whose default is Created, Newest First', () => {
		const sort = new SubscriptionBilling().description.properties.find(
			(property) =>
				property.name === 'ordering' && property.displayOptions?.show?.resource?.includes('plan'),
		);
		expect(sort).toMatchObject({ displayName: 'Sort', type: 'options', default: '-created_at' });
		expect(sort?.options).toEqual(
			expect.arrayContaining([{ name: 'Created, Newest First', value: '-created_at' }]),
		);
	});
});
