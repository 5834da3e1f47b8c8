'use strict';
// n8n's floor for a declarative node: the least a node can be and still send the bench's write
// (PATCH /usage with transaction_id, value and an idempotency key, each mapped from the item by an
// expression) through n8n's RoutingNode, as this package's node does. Routing definitions only: no
// checks, no retries, no idempotency of its own, no output shaping. Measured beside this node and the
// HTTP Request node (`floor` way), it shows what n8n's per-item work costs any declarative node.

function floorNode(target) {
	const send = (type, property) => ({ routing: { send: { type, property } } });
	return {
		description: {
			displayName: 'Declarative Floor',
			name: 'declarativeFloor',
			group: ['transform'],
			version: 1,
			description: 'PATCH /usage through routing definitions only',
			defaults: { name: 'Declarative Floor' },
			inputs: ['main'],
			outputs: ['main'],
			requestDefaults: {
				baseURL: target.baseUrl,
				headers: { 'X-SERVICE-KEY': target.apiKey, 'Content-Type': 'application/json' },
			},
			properties: [
				{
					displayName: 'Operation',
					name: 'operation',
					type: 'options',
					noDataExpression: true,
					options: [
						{
							name: 'Update Usage',
							value: 'update',
							routing: { request: { method: 'PATCH', url: '/usage' } },
						},
					],
					default: 'update',
				},
				{
					displayName: 'Transaction ID',
					name: 'transactionId',
					type: 'string',
					default: '',
					...send('body', 'transaction_id'),
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'number',
					default: 0,
					...send('body', 'value'),
				},
				{
					displayName: 'Idempotency Key',
					name: 'idempotencyKey',
					type: 'string',
					default: '',
					routing: {
						request: { headers: { 'X-SERVICE-IDEMPOTENT-OPERATION-KEY': '={{ $value }}' } },
					},
				},
			],
		},
	};
}

module.exports = { floorNode };
