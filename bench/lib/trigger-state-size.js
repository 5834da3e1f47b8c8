'use strict';
// The trigger's saved state at scale: every event selected (customer list and invoices, All
// Customers), Compare Detail Fields on, against a sandbox in its own process without latency or
// rate limit. Polls until the first pass over the running subscriptions and the first invoice
// sweep have ended (the first, silent, sweep), then once more over a whole pass and sweep, and
// reports the JSON bytes of the node's static data as n8n saves it: after each phase, the most
// any poll left, and per section; and beside it the state predicted from the world's make-up
// (what the sandbox holds, counted by bench/lib/trigger-sandbox.js `makeup`) with the per-part
// figures of docs/trigger.md (bench/lib/state-figures.js). `openInvoices`: the sandbox's
// seed.openInvoices (open invoices a customer on net-30 terms, with the payments of the last
// 30 days); absent, the sandbox's default world (each subscription's last invoice open).

const { allEvents, fromBuild, sandboxPoller, startSandboxProcess } = require('./trigger-sweep');
const { predictState } = require('./state-figures');

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

/**
 * The saved state's bytes by part, as the per-part figures group them: the customers' own cells
 * (fingerprint and fields), their invoice cells (in their customers table rows as saved: `~~` for
 * a customer without), the subscriptions' rows, and the rest (headers, the date windows, the
 * sweep, the pass). Every customer with invoice rows is taken to be listed (every event).
 */
function measuredParts(staticData) {
	const { readTriggerState } = fromBuild('state', 'triggerState');
	const { RecordTable } = fromBuild('state', 'recordTable');
	const state = readTriggerState({ getWorkflowStaticData: () => staticData });
	const list = state.customerList ?? {};
	const customers = list.customers?.rows.length ?? 0;
	const listed = list.customers ? RecordTable.read(list.customers).rows.size : 0;
	const invoiceTable = state.invoices?.customers;
	const withRows = invoiceTable ? RecordTable.read(invoiceTable).rows.size : 0;
	const invoices = invoiceTable
		? invoiceTable.rows.length - 9 * withRows + 2 * (listed - withRows)
		: 0;
	const subscriptions = list.subscriptions?.rows.length ?? 0;
	const total = bytes(staticData);
	return { customers, invoices, subscriptions, rest: total - customers - invoices - subscriptions };
}

/** The predicted parts grouped as measuredParts groups the measured ones. */
function predictedParts({ parts }) {
	return {
		customers: parts.customers,
		invoices:
			parts.invoiceCells +
			parts.issuedInvoices +
			parts.openInvoices +
			parts.paidInvoices +
			parts.failedPayments,
		subscriptions: parts.subscriptions,
		rest: parts.dateWindows + parts.fixed,
	};
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

/**
 * Polls until the pass over the subscriptions and the invoice sweep have each ended, at the same
 * poll or not: at 100,000 customers both take six polls, out of step, and never end together.
 */
async function untilBothEnd(poller, onPoll) {
	let polls = 0;
	let sweepEnded = false;
	let passEnded = false;
	for (;;) {
		const result = await poller.poll();
		if (result.error) throw result.error;
		polls++;
		onPoll(poller.nodeStaticData);
		const state = poller.nodeStaticData.trigger;
		sweepEnded ||= state.invoices.sweep.nextCustomer === undefined;
		passEnded ||= state.customerList.detailPass?.lastRead === undefined;
		if (sweepEnded && passEnded) return polls;
	}
}

async function stateSizeRun({
	Poller,
	Trigger,
	Credential,
	customers,
	bigCustomerInvoices,
	openInvoices,
	readsPerPoll = 20000,
	log = console.log,
}) {
	const sandbox = await startSandboxProcess({
		customers,
		bigCustomerInvoices,
		openInvoices,
		limits: {},
	});
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
		// What n8n writes: the workflow's static data (every node's, under `node:<name>`) to the
		// workflow's row on a poll that emits; with durable cursors, the node's to poller_state.
		const workflowStaticData = bytes(poller.workflow.staticData);
		const { sweep } = poller.nodeStaticData.trigger.invoices;
		const makeup = await sandbox.call('makeup', { keepFrom: sweep.startedAt - sweep.lookBackMs });
		delete makeup.id;
		const predicted = predictState(makeup);
		log(
			`state size: ${customers.toLocaleString('en-US')} customers${openInvoices === undefined ? '' : `, ${openInvoices} open invoices a customer`}, ${firstPolls} + ${laterPolls} polls in ${((Date.now() - started) / 1000).toFixed(0)} s: ${later.total.toLocaleString('en-US')} bytes, predicted ${predicted.total.toLocaleString('en-US')}`,
		);
		return {
			customers,
			seededOpenInvoices: openInvoices ?? null,
			lookBackDays: sweep.lookBackMs / 86400000,
			makeup,
			predicted,
			parts: {
				measured: measuredParts(poller.nodeStaticData),
				predicted: predictedParts(predicted),
			},
			workflowStaticData,
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
