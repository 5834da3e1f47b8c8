'use strict';
// Workflows for queue mode (end-to-end tests, the queue demo and the queue benchmark): a webhook
// whose body becomes Usage → Create writes, each write keyed by its transaction id (Fault Handling
// → Idempotency: Custom Key), so a retried execution re-sends the same keys.
const crypto = require('node:crypto');
const { NODE_TYPE, EXAMPLE_CREDENTIAL_ID, PACKAGE_NAME, pollEverySeconds } = require('./helpers');

const TRIGGER_TYPE = `${PACKAGE_NAME}.subscriptionBillingTrigger`;
// n8n refuses a poll interval under a minute when the seconds field of the cron has a `*`; a list
// of seconds passes: a poll every 10 s keeps the tests short
const EVERY_10_SECONDS = pollEverySeconds(10);

/** The idempotency key the README recommends for executions that may be retried. */
const USAGE_IDEMPOTENCY_KEY = '={{ "usage-" + $json.transaction_id }}';

function webhookNode(path, responseMode) {
	return {
		id: crypto.randomUUID(),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: crypto.randomUUID(),
		parameters: { httpMethod: 'POST', path, responseMode, options: {} },
	};
}

/** Usage → Create for each input item `{ transaction_id, value }`. */
function usageCreateNode(fixtures, { position = [440, 0], batching } = {}) {
	return {
		id: crypto.randomUUID(),
		name: 'Record Usage',
		type: NODE_TYPE,
		typeVersion: 1,
		position,
		parameters: {
			resource: 'usage',
			operation: 'create',
			transactionId: '={{ $json.transaction_id }}',
			subscriptionId: { __rl: true, mode: 'id', value: fixtures.subscriptionId },
			brickId: fixtures.usageBrickId,
			value: '={{ $json.value }}',
			time: '2026-11-01T12:00:00Z',
			faultHandling: { idempotency: 'custom', idempotencyKey: USAGE_IDEMPOTENCY_KEY },
			...(batching ? { requestOptions: { batching: { batch: batching } } } : {}),
		},
		credentials: {
			subscriptionBillingApi: { id: EXAMPLE_CREDENTIAL_ID, name: 'Subscription Billing account' },
		},
	};
}

/**
 * Webhook → Split Out (`body.usage`, an array of `{ transaction_id, value }`) → Record Usage:
 * one execution writes as many entries as the call carries. `responseMode`: the webhook answers
 * at once ('onReceived') or when the execution has finished ('lastNode': 500 when it failed).
 */
function usageBatchWorkflow({ id, path, fixtures, batching, responseMode = 'onReceived' }) {
	const split = {
		id: crypto.randomUUID(),
		name: 'One Item per Entry',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [220, 0],
		parameters: { fieldToSplitOut: 'body.usage', options: {} },
	};
	return {
		id,
		name: `Queue: usage from webhook (${path})`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [webhookNode(path, responseMode), split, usageCreateNode(fixtures, { batching })],
		connections: {
			Webhook: { main: [[{ node: split.name, type: 'main', index: 0 }]] },
			[split.name]: { main: [[{ node: 'Record Usage', type: 'main', index: 0 }]] },
		},
	};
}

/** Subscription Billing Trigger (Events: `event`, polled every 10 s) → a No Operation node. */
function triggerWorkflow({ id, event, pollTimes = EVERY_10_SECONDS }) {
	const trigger = {
		id: crypto.randomUUID(),
		name: 'Subscription Billing Trigger',
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { pollTimes, events: [event] },
		credentials: {
			subscriptionBillingApi: { id: EXAMPLE_CREDENTIAL_ID, name: 'Subscription Billing account' },
		},
	};
	const received = {
		id: crypto.randomUUID(),
		name: 'Received',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [220, 0],
		parameters: {},
	};
	return {
		id,
		name: `Queue: ${event} trigger`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [trigger, received],
		connections: { [trigger.name]: { main: [[{ node: received.name, type: 'main', index: 0 }]] } },
	};
}

module.exports = { usageBatchWorkflow, triggerWorkflow, USAGE_IDEMPOTENCY_KEY };
