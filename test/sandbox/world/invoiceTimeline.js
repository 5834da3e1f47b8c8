'use strict';
// The invoice timeline of the sandbox's world: what happens to invoices besides being issued and
// paid, and when it happens relative to the integration's requests.
// - failPayment: a payment attempt with an error (the card was declined) appears on an open invoice;
// - refundInvoice: a paid invoice is refunded in full: a negative payment is added and it is open again;
// - passIssueTime: an invoice issued in the future reaches its issue time (the clock passed it);
// - onRequest / holdRequests (in-process only): something happens while the API serves a request,
//   e.g. an invoice issued between two pages of a listing, or a poll held half-way so that the next
//   one starts while it runs.
// Back-dated and future-dated invoices: issueInvoice({ issued_at }) (world.js).

const { badRequest } = require('../errors');
const { hashUuid } = require('../prng');
const { msToDateTime } = require('../dates');

const nowMs = () => Math.floor(Date.now() / 1000) * 1000;

/** A payment as the API shows it on an invoice. */
function paymentRecord(invoice, { id, amount, atMs, error = null }) {
	return {
		payment_id: id,
		invoice_number: invoice.invoice_number,
		invoice_version_id: hashUuid(`${invoice.invoice_id}:version`),
		paid_amount: amount,
		paid_at: msToDateTime(atMs),
		currency: invoice.currency,
		error,
	};
}

const methods = {
	/** A failed payment attempt on an open invoice, now or at `paid_at`: it stays open. */
	failPayment({ invoice_id, error = 'card_declined', amount, paid_at } = {}) {
		const invoice = this.invoice(invoice_id);
		if (invoice.paidMs != null) throw badRequest('invoice_id: the invoice is paid');
		if (typeof error !== 'string' || error === '') throw badRequest('error: a non-empty string');
		const atMs = paid_at === undefined ? nowMs() : Math.floor(Date.parse(paid_at) / 1000) * 1000;
		if (!Number.isFinite(atMs)) throw badRequest('paid_at: not a date-time');
		invoice.paymentLog = invoice.paymentLog || [];
		const payment = paymentRecord(invoice, {
			id: this.state.rng.uuid(),
			amount: amount === undefined ? invoice.remaining : Number(amount),
			atMs,
			error,
		});
		invoice.paymentLog.push(payment);
		this.state.invoiceVersion++;
		return {
			...this.summary(invoice),
			payment_id: payment.payment_id,
			attempts: invoice.paymentLog.filter((p) => p.paid_amount >= 0).length,
		};
	},

	/** Refunds a paid invoice in full: its payment stays listed, a negative one is added, and it is open again. */
	refundInvoice({ invoice_id } = {}) {
		const invoice = this.invoice(invoice_id);
		if (invoice.paidMs == null) throw badRequest('invoice_id: the invoice is not paid');
		invoice.paymentLog = invoice.paymentLog || [];
		invoice.paymentLog.push(
			paymentRecord(invoice, {
				id: hashUuid(
					`${invoice.invoice_id}:payment${invoice.paymentRound ? `:${invoice.paymentRound}` : ''}`,
				),
				amount: invoice.total,
				atMs: invoice.paidMs,
			}),
		);
		invoice.paymentLog.push(
			paymentRecord(invoice, { id: this.state.rng.uuid(), amount: -invoice.total, atMs: nowMs() }),
		);
		invoice.paymentRound = (invoice.paymentRound || 0) + 1;
		invoice.paidMs = null;
		invoice.remaining = invoice.total;
		invoice.status = invoice.dueMs < nowMs() ? 'PAST_DUE' : 'OPEN';
		this.state.invoiceVersion++;
		return this.summary(invoice);
	},

	/** The invoice's issue time is now (to the second), as if the clock had reached the future time it was issued at. */
	passIssueTime({ invoice_id } = {}) {
		const invoice = this.invoice(invoice_id);
		invoice.issuedMs = nowMs() - 1000;
		this.state.invoiceVersion++;
		return this.summary(invoice);
	},

	/**
	 * Runs `action(request)` before the API serves the first request (`once`, default) or every
	 * request that `matches(request)`; the request is served once the action has finished.
	 * request: { method, path, query } as the sandbox logs it. Returns a function that removes it.
	 */
	onRequest(matches, action, { once = true } = {}) {
		this.requestHooks = this.requestHooks || [];
		const hook = { matches, action, once };
		this.requestHooks.push(hook);
		return () => {
			this.requestHooks = this.requestHooks.filter((entry) => entry !== hook);
		};
	},

	/**
	 * Holds the first request that matches until release(): `arrived` resolves when it came in
	 * (a poll is then half-way), `release()` lets it be served.
	 */
	holdRequests(matches) {
		let release;
		let arrive;
		const released = new Promise((resolve) => (release = resolve));
		const arrived = new Promise((resolve) => (arrive = resolve));
		this.onRequest(matches, () => {
			arrive();
			return released;
		});
		return { arrived, release };
	},

	/** Called by the pipeline before a request is served. */
	async beforeRequest(request) {
		if (!this.requestHooks || this.requestHooks.length === 0) return;
		for (const hook of [...this.requestHooks]) {
			if (!hook.matches(request)) continue;
			if (hook.once) this.requestHooks = this.requestHooks.filter((entry) => entry !== hook);
			await hook.action(request);
		}
	},
};

const actions = {
	'fail-payment': 'failPayment',
	'refund-invoice': 'refundInvoice',
	'pass-issue-time': 'passIssueTime',
};

module.exports = { methods, actions };
