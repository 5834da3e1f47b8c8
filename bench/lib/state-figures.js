'use strict';
// The trigger's saved state, part by part: the bytes each record adds, as docs/trigger.md gives
// them ("What the state holds, part by part"), derived from the encoding (trigger/state/cells.ts,
// recordTable.ts, invoiceTable.ts) and checked against the state measured by bench/trigger.js
// (--only state) and bench/bookkeeping.js. Every event selected, Compare Detail Fields on, All
// Customers; JSON bytes (every cell is ASCII that JSON does not escape).

const FIGURES = {
	/** The customers table: fingerprint 9 and the six fields Customer Updated compares, each a 4-character hash. */
	customer: 33,
	/** A customer's field that is null: `.` instead of a hash. */
	nullCustomerField: -3,
	/** The customer's two invoice cells in its row, `~~` or `..` when it has none of either (invoice events selected). */
	invoiceCells: 2,
	/** A non-empty list of either (`[…]` instead of `.`). */
	invoiceList: 1,
	/** Issued within the look-back window (known): a fingerprint. */
	issuedInvoice: 9,
	/** Open (watched): a UUID in 22, its status 1, its overdue state 1. */
	openInvoice: 24,
	/** Paid within the look-back window (watched for Invoice Paid): a UUID in 22, its status 1, its paid time `<1790000000000>` 15. */
	paidInvoice: 38,
	/** A watched invoice with failed payments: the rest written out, `{"overdue":false,"failed":"…"}` URI-encoded, 53 instead of 1. */
	invoiceWithFailedPayments: 52,
	/** A paid one with failed payments: its paid time in the literal too (`,"paidAt":…`), 17 more. */
	paidInvoiceWithFailedPayments: 17,
	/** Each failed payment of a watched invoice: a fingerprint. */
	failedPayment: 9,
	/** The subscriptions table, a running subscription: fingerprint 9, status 1, name 4, three dates 9, auto-renewal 1, four hashes 16. */
	subscription: 40,
	/** One not running: its six detail cells not read, `~` each. */
	notRunningSubscription: -14,
	/** Ending Soon, Renewal Due: a fingerprint of `id|date` for each subscription inside the window. */
	inWindow: 9,
	/** Everything else: the tables' columns, kinds and words, the events, the sweep, the pass, pollBoot and pollSeq. */
	fixed: 1200,
};

/**
 * The state predicted for a make-up (counts of each part), by part and in total. `makeup`: the
 * counts bench/lib/trigger-sandbox.js `makeup` answers (or a synthetic state's).
 */
function predictState(m, f = FIGURES) {
	const parts = {
		customers: m.customers * f.customer + m.nullCustomerFields * f.nullCustomerField,
		invoiceCells:
			m.customers * f.invoiceCells +
			(m.customersWithIssued + m.customersWithWatched) * f.invoiceList,
		issuedInvoices: m.issuedInvoices * f.issuedInvoice,
		openInvoices: m.openInvoices * f.openInvoice,
		paidInvoices: m.paidInvoices * f.paidInvoice,
		failedPayments:
			m.invoicesWithFailedPayments * f.invoiceWithFailedPayments +
			(m.paidInvoicesWithFailedPayments ?? 0) * f.paidInvoiceWithFailedPayments +
			m.failedPayments * f.failedPayment,
		subscriptions:
			m.subscriptions * f.subscription +
			(m.subscriptions - m.runningSubscriptions) * f.notRunningSubscription,
		dateWindows: (m.endingSoon + m.renewalDue) * f.inWindow,
		fixed: f.fixed,
	};
	return { parts, total: Object.values(parts).reduce((a, b) => a + b, 0) };
}

/** Measured against predicted, in percent of the measured. */
const errorPercent = (measured, predicted) => (100 * (predicted - measured)) / measured;

/** A make-up with nothing counted yet: the counts predictState reads. */
function emptyMakeup(customers, subscriptions = 0) {
	return {
		customers,
		nullCustomerFields: 0,
		customersWithIssued: 0,
		customersWithWatched: 0,
		issuedInvoices: 0,
		openInvoices: 0,
		paidInvoices: 0,
		invoicesWithFailedPayments: 0,
		paidInvoicesWithFailedPayments: 0,
		failedPayments: 0,
		subscriptions,
		runningSubscriptions: 0,
		endingSoon: 0,
		renewalDue: 0,
	};
}

module.exports = { FIGURES, predictState, errorPercent, emptyMakeup };
