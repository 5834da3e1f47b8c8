'use strict';
// Pricing, billing schedules and invoice creation shared by the seed and the routes.
// Money: invoice and subscription amounts are numbers in currency units with 2 decimals;
// only renewal_total is in integer cents (as the contract says).

const { addDays, dateToMs, termEnd, DAY_MS } = require('./dates');

const FREQUENCY_MONTHS = { MONTHLY: 1, QUARTERLY: 3, SEMI_ANNUALLY: 6, ANNUALLY: 12 };

function round2(x) {
	return Math.round(x * 100) / 100;
}

function money(x) {
	return round2(x).toFixed(2);
}

function periodMonths(frequency, termMonths) {
	return FREQUENCY_MONTHS[frequency] || termMonths; // ALL_UPFRONT / CUSTOM: the whole term
}

function tierSplit(brick, quantity) {
	if (!brick.tiers) return [{ quantity, unit_price: brick.unit_price }];
	const out = [];
	let remaining = quantity;
	let previousCap = 0;
	for (const tier of brick.tiers) {
		const cap = tier.up_to == null ? Infinity : tier.up_to - previousCap;
		const q = Math.min(remaining, cap);
		if (q > 0) out.push({ quantity: q, unit_price: tier.unit_price });
		remaining -= q;
		previousCap = tier.up_to;
		if (remaining <= 0) break;
	}
	return out;
}

/**
 * Prices one internal line item ({brick_id, quantity, discount:{rate, renews}|null}) for a
 * span of `months` months. `renewal` applies only renewing discounts.
 */
function priceLine(state, item, months, { renewal = false, includeOneTime = true } = {}) {
	const brick = state.bricks.get(item.brick_id);
	const type = brick.brick_type;
	let subTotal = 0;
	let tiers;
	if (type === 'USAGE') {
		tiers = [
			{
				quantity: 0,
				unit_price: brick.unit_price.toFixed(4),
				sub_total: '0.00',
				duration_text: `per ${brick.unit_label}, billed monthly in arrears`,
			},
		];
	} else {
		// A renewal repeats only the recurring bricks.
		const billable =
			type === 'RECURRING' ||
			(!renewal && (type === 'MILESTONE' || (type === 'ONE_TIME' && includeOneTime)));
		const factor = type === 'RECURRING' ? months : 1;
		const duration =
			type === 'RECURRING'
				? `${months} month${months === 1 ? '' : 's'}`
				: type === 'MILESTONE'
					? 'per milestone'
					: 'one time';
		tiers = tierSplit(brick, item.quantity).map((t) => {
			const st = billable ? round2(t.quantity * t.unit_price * factor) : 0;
			subTotal += st;
			return {
				quantity: t.quantity,
				unit_price: t.unit_price.toFixed(2),
				sub_total: money(st),
				duration_text: duration,
			};
		});
	}
	subTotal = round2(subTotal);
	const discount = item.discount && (!renewal || item.discount.renews) ? item.discount : null;
	const discountAmount = discount ? round2((subTotal * discount.rate) / 100) : 0;
	return { brick, subTotal, discountAmount, grand: round2(subTotal - discountAmount), tiers };
}

/** Amount of the recurring (and, on the first period, one-time) items for one billing period. */
function periodAmounts(state, lineItems, months, first) {
	let subTotal = 0;
	let discount = 0;
	for (const item of lineItems) {
		const brick = state.bricks.get(item.brick_id);
		if (brick.brick_type === 'RECURRING' || (brick.brick_type === 'ONE_TIME' && first)) {
			const p = priceLine(state, item, months);
			subTotal += p.subTotal;
			discount += p.discountAmount;
		}
	}
	return {
		subTotal: round2(subTotal),
		discount: round2(discount),
		grand: round2(subTotal - discount),
	};
}

function segmentSchedule(state, segment, termMonths, firstOfTerm) {
	const entries = [];
	const step = periodMonths(segment.billing_frequency, termMonths);
	let start = segment.starts_at;
	let first = firstOfTerm;
	while (start <= segment.ends_at) {
		let end = termEnd(start, step);
		if (end > segment.ends_at) end = segment.ends_at;
		const a = periodAmounts(state, segment.line_items, step, first);
		entries.push({
			starts_at: start,
			ends_at: end,
			sub_total: a.subTotal,
			discount: a.discount,
			grand: a.grand,
			invoiced: false,
			invoice_id: null,
			pending_charges: [],
		});
		start = addDays(end, 1);
		first = false;
	}
	return entries;
}

/** Billing schedule of the subscription's current term (phases when it has some). */
function buildSchedule(state, sub) {
	if (sub.phases && sub.phases.length) {
		const out = [];
		sub.phases.forEach((phase, i) => {
			out.push(...segmentSchedule(state, phase, sub.contract_length, i === 0));
		});
		return out;
	}
	return segmentSchedule(
		state,
		{
			starts_at: sub.term_starts_at,
			ends_at: sub.ends_at,
			billing_frequency: sub.billing_frequency,
			line_items: sub.line_items,
		},
		sub.contract_length,
		true,
	);
}

/** Rebuilds the schedule after a change, keeping what was already invoiced or pending. */
function rebuildSchedule(state, sub) {
	const previous = new Map((sub.schedule || []).map((e) => [e.starts_at, e]));
	sub.schedule = buildSchedule(state, sub).map((entry) => {
		const old = previous.get(entry.starts_at);
		if (old && (old.invoiced || old.pending_charges.length)) {
			entry.invoiced = old.invoiced;
			entry.invoice_id = old.invoice_id;
			entry.pending_charges = old.pending_charges;
		}
		return entry;
	});
	return sub.schedule;
}

function scheduleEntryOut(entry) {
	return {
		starts_at: entry.starts_at,
		ends_at: entry.ends_at,
		sub_total: entry.sub_total,
		grand_total: money(entry.grand),
		grand_total_details: JSON.stringify({ discount: money(entry.discount), tax: '0.00' }),
	};
}

function invoiceStatus(dueMs, paid, nowMs) {
	if (paid) return 'PAID';
	return dueMs < nowMs ? 'PAST_DUE' : 'OPEN';
}

/** Registers an invoice record in the state (numbering, indexes, cache version). */
function addInvoice(state, inv) {
	inv.seq = ++state.invoiceSeq;
	inv.invoice_number = `INV-${String(inv.seq).padStart(7, '0')}`;
	let list = state.invoicesByCustomer.get(inv.customer_id);
	if (!list) state.invoicesByCustomer.set(inv.customer_id, (list = []));
	list.push(inv);
	state.invoicesById.set(inv.invoice_id, inv);
	state.invoiceVersion++;
	return inv;
}

/** Raises the invoice of a schedule entry (recurring lines + pending milestone charges). */
function invoiceScheduleEntry(state, sub, entry, { invoiceId, issuedMs, paid, nowMs }) {
	const startsMs = dateToMs(entry.starts_at);
	const endsMs = dateToMs(entry.ends_at) + DAY_MS - 1000;
	const lines = [];
	const phase =
		sub.phases &&
		sub.phases.find((p) => p.starts_at <= entry.starts_at && entry.starts_at <= p.ends_at);
	const segmentItems = phase ? phase.line_items : sub.line_items;
	const months = periodMonths(
		phase ? phase.billing_frequency : sub.billing_frequency,
		sub.contract_length,
	);
	const firstEntry = sub.schedule[0] === entry;
	for (const item of segmentItems) {
		const brick = state.bricks.get(item.brick_id);
		if (brick.brick_type === 'RECURRING' || (brick.brick_type === 'ONE_TIME' && firstEntry)) {
			const p = priceLine(state, item, months);
			lines.push({
				brick_name: brick.brick_name,
				brick_id: brick.brick_id,
				quantity: item.quantity,
				tax: 0,
				grand_total: p.grand,
				startsMs,
				endsMs,
			});
		}
	}
	for (const charge of entry.pending_charges) {
		lines.push({ ...charge, startsMs, endsMs });
	}
	const total = round2(lines.reduce((s, l) => s + l.grand_total, 0));
	const dueMs = issuedMs + sub.payment_terms * DAY_MS;
	const inv = addInvoice(state, {
		invoice_id: invoiceId,
		customer_id: sub.customer_id,
		subscription_id: sub.subscription_id,
		issuedMs,
		dueMs,
		billMs: issuedMs,
		status: invoiceStatus(dueMs, paid, nowMs),
		total,
		remaining: paid ? 0 : total,
		paidMs: paid ? Math.min(dueMs, nowMs) - 3 * 3600000 : null,
		currency: sub.currency,
		time_zone: sub.time_zone,
		periodStartMs: startsMs,
		lines,
		metadata: { source: 'schedule', period: `${entry.starts_at}/${entry.ends_at}` },
	});
	entry.invoiced = true;
	entry.invoice_id = inv.invoice_id;
	entry.pending_charges = [];
	return inv;
}

module.exports = {
	FREQUENCY_MONTHS,
	round2,
	money,
	periodMonths,
	priceLine,
	buildSchedule,
	rebuildSchedule,
	scheduleEntryOut,
	invoiceStatus,
	addInvoice,
	invoiceScheduleEntry,
};
