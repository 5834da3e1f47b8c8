'use strict';
// The trigger's saved state at scale: every event selected (customer list and invoices, All
// Customers), Compare Detail Fields on, against a sandbox in its own process without latency or
// rate limit. Polls until the first pass over the running subscriptions and the first invoice
// sweep have ended (the first, silent, sweep), then once more over a whole pass and sweep, and
// reports the JSON bytes of the node's static data as n8n saves it: after each phase, the most
// any poll left, and per section.

const { allEvents, fromBuild, sandboxPoller, startSandboxProcess } = require('./trigger-sweep');

const bytes = (value) => (value === undefined ? 0 : JSON.stringify(value).length);

/**
 * Bytes of the state as the families read it: the invoice rows in their own table, keyed by their
 * own fingerprints, not joined into the customers table's rows (trigger/state/triggerState.ts).
 */
function unjoinedBytes(staticData) {
	const { readTriggerState } = fromBuild('state', 'triggerState');
	const state = readTriggerState({ getWorkflowStaticData: () => staticData });
	return bytes({ ...staticData, trigger: state });
}

/** Bytes of the whole static data and of each section of the trigger's state (trigger/state.ts). */
function sections(staticData) {
	const state = staticData.trigger ?? {};
	const list = state.customerList ?? {};
	return {
		total: bytes(staticData),
		customers: bytes(list.customers),
		subscriptions: bytes(list.subscriptions),
		otherCustomerList: bytes(list) - bytes(list.customers) - bytes(list.subscriptions),
		invoices: bytes(state.invoices),
	};
}

/** Polls until the pass over the subscriptions and the invoice sweep have both ended. */
async function untilBothEnd(poller, onPoll) {
	let polls = 0;
	for (;;) {
		const result = await poller.poll();
		if (result.error) throw result.error;
		polls++;
		onPoll(poller.nodeStaticData);
		const state = poller.nodeStaticData.trigger;
		if (
			state.invoices.sweep.nextCustomer === undefined &&
			state.customerList.detailPass?.lastRead === undefined
		)
			return polls;
	}
}

async function stateSizeRun({
	Poller,
	Trigger,
	Credential,
	customers,
	bigCustomerInvoices,
	readsPerPoll = 20000,
	log = console.log,
}) {
	const sandbox = await startSandboxProcess({ customers, bigCustomerInvoices, limits: {} });
	try {
		const poller = sandboxPoller({ Poller, Trigger, Credential }, sandbox, {
			events: allEvents(),
			scope: 'all',
			subscriptionDetails: true,
			subscriptionReadsPerPoll: readsPerPoll,
			requestsPerPoll: readsPerPoll,
		});
		let most = 0;
		const track = (staticData) => {
			most = Math.max(most, JSON.stringify(staticData).length);
		};
		const started = Date.now();
		const firstPolls = await untilBothEnd(poller, track);
		const first = sections(poller.nodeStaticData);
		const laterPolls = await untilBothEnd(poller, track);
		const later = sections(poller.nodeStaticData);
		const unjoined = unjoinedBytes(poller.nodeStaticData);
		log(
			`state size: ${customers.toLocaleString('en-US')} customers, ${firstPolls} + ${laterPolls} polls in ${((Date.now() - started) / 1000).toFixed(0)} s`,
		);
		return {
			customers,
			openInvoices: sandbox.info.openInvoices,
			subscriptions: sandbox.info.subscriptions,
			runningSubscriptions: sandbox.info.runningSubscriptions,
			firstPolls,
			laterPolls,
			first,
			later,
			most,
			unjoined,
		};
	} finally {
		await sandbox.close();
	}
}

module.exports = { stateSizeRun };
