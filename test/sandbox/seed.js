'use strict';
// Deterministic in-memory state of the sandbox.
//
// Same options -> same ids and data on every run: every id comes from a PRNG derived from
// (seed.seed, label). The world is written as of SEED_TODAY, then every seeded date is moved by
// the days from SEED_TODAY to the clock's today (shiftDates), so it looks the same on any day:
// renewals coming up, invoices overdue. Unit tests run on SEED_TODAY (test/clock.js), so there
// the dates are the ones written here. Runtime ids still come from a seeded PRNG.
//
// Layout (indices are positions in the customer list):
//   customer 0  "Acme Corporation"      -> fixtures.customerId; 4 subscriptions:
//     S1 subscriptionId        ACTIVE/CLOSED, plan Growth, QUARTERLY, 2025-01-01..2027-12-31,
//                              2 phases, a past pause and an upcoming one, purchase order,
//                              contacts, tiers + discounts, usage entries, milestone
//                              (milestoneId: 10 contracted, 3 completed, scheduled invoices left),
//                              recast orders (recastOrderId BUILDING, deletedRecastOrderId
//                              CLOSED_DELETE, one CLOSED_LOST) and an upgrade (upgradeOrderId
//                              BUILDING). Because recast/upgrade orders are open, its
//                              renewal_total is null (contract: "Null while a renewal, upgrade or
//                              recast is open"); it becomes an integer once they are closed.
//     S2 noPhasesSubscriptionId / finishedMilestoneSubscriptionId
//                              ACTIVE/CLOSED, plan Starter, ALL_UPFRONT, no phases, no pauses,
//                              no purchase order, not auto-renewing (terminates_at set), a
//                              previous term (scope=past) and the current term, whose only
//                              scheduled invoice is already issued: completing its milestone
//                              (finishedMilestoneId) with bill_on NEXT_INVOICE is rejected (400).
//                              renewal_total is an integer (no open order).
//     S3 pausedSubscriptionId  PAUSED, MONTHLY, with a current pause (resume_at null).
//     S4 openOrderSubscriptionId  OPEN_ORDER/BUILDING (sign URL available).
//   customer 1  "Globex Industries"     -> fixtures.bigCustomerId; 2 subscriptions and
//                                          seed.bigCustomerInvoices invoices.
//   customer 2  "Acme Widgets Ltd"      -> owns foreignPaymentMethodId.
//   customer 3  "Initech"               -> no payment method (noPaymentMethodSubscriptionId).
//   customers 4.. one subscription each.
//   seed.openInvoices (absent by default): customers 2.. are billed on net-30 terms instead of by
//     their subscription's schedule (cadenceInvoices below): an invoice every 30 / openInvoices
//     days, each paid on its due date, so each customer has about openInvoices open (none overdue
//     at the world's noon) and, in any week, openInvoices × 7 / 30 issued and as many paid.
// Names containing "acme" (case-insensitive): see fixtures.searchName / searchNameMatches.

const { Rng } = require('./prng');
const { addDays, dateToMs, termEnd, todayDate, DAY_MS } = require('./dates');
const {
	buildSchedule,
	invoiceScheduleEntry,
	addInvoice,
	round2,
	priceLine,
	invoiceStatus,
} = require('./billing');

const SEED_TODAY = '2026-09-15';
const DEFAULT_SEED = { customers: 12, bigCustomerInvoices: 250, seed: 1 };

const BASE_NAMES = [
	'Acme Corporation',
	'Globex Industries',
	'Acme Widgets Ltd',
	'Initech',
	'ACME Rocket Supply',
	'Umbrella Health',
	'Northwind Traders',
	'Acme-Bolt Partners',
	'Stark Components',
	'Wayne Logistics',
	'Tyrell Systems',
	'Acme Analytics',
];
const NAME_A = [
	'Blue',
	'Silver',
	'Granite',
	'Harbor',
	'Summit',
	'Maple',
	'Cobalt',
	'Orchid',
	'Pioneer',
	'Vertex',
];
const NAME_B = [
	'Labs',
	'Foods',
	'Freight',
	'Studios',
	'Dynamics',
	'Retail',
	'Energy',
	'Clinics',
	'Robotics',
	'Media',
];
const FIRST = [
	'Ada',
	'Grace',
	'Alan',
	'Linus',
	'Margaret',
	'Ken',
	'Barbara',
	'Dennis',
	'Frances',
	'Edsger',
];
const LAST = [
	'Lovelace',
	'Hopper',
	'Turing',
	'Torvalds',
	'Hamilton',
	'Thompson',
	'Liskov',
	'Ritchie',
	'Allen',
	'Dijkstra',
];
const CITIES = [
	['Springfield', 'IL', 'US', '62701'],
	['Portland', 'OR', 'US', '97201'],
	['Austin', 'TX', 'US', '73301'],
	['Berlin', 'BE', 'DE', '10115'],
	['London', 'LDN', 'GB', 'EC1A 1BB'],
	['Toronto', 'ON', 'CA', 'M5H 2N2'],
];

function normaliseSeedOptions(seed = {}) {
	const o = { ...DEFAULT_SEED, ...seed };
	o.customers = Math.max(4, Math.floor(o.customers));
	o.bigCustomerInvoices = Math.max(0, Math.floor(o.bigCustomerInvoices));
	if (o.openInvoices === undefined) delete o.openInvoices;
	else if (!(Number(o.openInvoices) > 0 && Number(o.openInvoices) <= 30))
		throw new Error(
			`seed.openInvoices: a number of open invoices a customer, over 0 and at most 30`,
		);
	else o.openInvoices = Number(o.openInvoices);
	return o;
}

function customerName(i, rng) {
	if (i < BASE_NAMES.length) return BASE_NAMES[i];
	const n = String(i + 1).padStart(3, '0');
	if (i % 5 === 0) return `Acme ${rng.pick(NAME_B)} ${n}`;
	return `${rng.pick(NAME_A)} ${rng.pick(NAME_B)} ${n}`;
}

function person(rng, domain, role) {
	const first = rng.pick(FIRST);
	const last = rng.pick(LAST);
	return {
		person_id: rng.uuid(),
		first_name: first,
		last_name: last,
		email: `${first}.${last}@${domain}`.toLowerCase(),
		role,
		preferred_name: first,
	};
}

function user(rng) {
	const first = rng.pick(FIRST);
	const last = rng.pick(LAST);
	return {
		user_id: rng.uuid(),
		first_name: first,
		last_name: last,
		email: `${first}.${last}@seller.example`.toLowerCase(),
	};
}

function seedPlans(state, rng) {
	const defs = [
		{
			name: 'Starter',
			created_at: '2023-01-10T09:00:00Z',
			bricks: [
				['Starter Seats', 'STARTER-SEATS', 'RECURRING', 15, 'seat'],
				['Training Sessions', 'STARTER-TRAINING', 'MILESTONE', 400, 'session'],
				['Email Support', 'STARTER-EMAIL', 'RECURRING', 50, 'package'],
			],
		},
		{
			name: 'Growth',
			created_at: '2023-06-01T09:00:00Z',
			bricks: [
				[
					'Platform Seats',
					'GROWTH-SEATS',
					'RECURRING',
					50,
					'seat',
					[
						{ up_to: 10, unit_price: 50 },
						{ up_to: null, unit_price: 40 },
					],
				],
				['API Calls', 'GROWTH-API', 'USAGE', 0.002, 'API call'],
				['Onboarding Services', 'GROWTH-ONBOARD', 'MILESTONE', 1500, 'milestone'],
				['Premium Support', 'GROWTH-SUPPORT', 'RECURRING', 500, 'package'],
				['Setup Fee', 'GROWTH-SETUP', 'ONE_TIME', 2500, 'fee'],
			],
		},
		{
			name: 'Enterprise',
			created_at: '2024-02-01T09:00:00Z',
			bricks: [
				[
					'Enterprise Seats',
					'ENT-SEATS',
					'RECURRING',
					80,
					'seat',
					[
						{ up_to: 50, unit_price: 80 },
						{ up_to: null, unit_price: 65 },
					],
				],
				['Data Warehouse Connector', 'ENT-DWH', 'RECURRING', 1200, 'connector'],
				['Implementation Milestones', 'ENT-IMPL', 'MILESTONE', 5000, 'milestone'],
				['Storage GB', 'ENT-STORAGE', 'USAGE', 0.05, 'GB'],
			],
		},
	];
	const byName = {};
	for (const def of defs) {
		const plan = {
			plan_id: rng.uuid(),
			plan_name: def.name,
			created_at: def.created_at,
			brick_ids: [],
		};
		for (const [name, code, type, price, unitLabel, tiers] of def.bricks) {
			const brick = {
				brick_id: rng.uuid(),
				brick_name: name,
				brick_code: code,
				brick_type: type,
				plan_id: plan.plan_id,
				plan_name: plan.plan_name,
				unit_price: price,
				unit_label: unitLabel,
				tiers: tiers || null,
			};
			state.bricks.set(brick.brick_id, brick);
			plan.brick_ids.push(brick.brick_id);
			byName[name] = brick;
		}
		state.plans.set(plan.plan_id, plan);
		byName[`plan:${def.name}`] = plan;
	}
	return byName;
}

function seedCustomers(state, rng, count) {
	const list = [];
	for (let i = 0; i < count; i++) {
		const name = customerName(i, rng);
		const city = CITIES[i % CITIES.length];
		const c = {
			customer_id: rng.uuid(),
			name,
			legal_name: i % 3 === 2 ? null : `${name} Inc.`,
			external_id: `EXT-${String(i + 1).padStart(5, '0')}`,
			address:
				i === 5
					? null
					: {
							line_1: `${100 + i} Market Street`,
							line_2: i % 2 ? `Suite ${i * 10}` : null,
							city: city[0],
							region: city[1],
							zip: city[3],
							country: city[2],
						},
			processor_customer_id: `cus_${rng.alnum(14)}`,
			tax_id: i % 2 ? null : `US-${rng.digits(2)}-${rng.digits(7)}`,
			default_payment_method_id: null,
			created_at: `2023-01-${String((i % 28) + 1).padStart(2, '0')}T12:00:00Z`,
		};
		state.customers.set(c.customer_id, c);
		state.invoicesByCustomer.set(c.customer_id, []);
		list.push(c);
	}
	return list;
}

function addPaymentMethod(state, rng, customer, kind, details, isDefault) {
	const pm = {
		payment_method_id: `pm_${rng.alnum(24)}`,
		customer_id: customer.customer_id,
		type: kind,
		...details,
	};
	state.paymentMethods.set(pm.payment_method_id, pm);
	if (isDefault) customer.default_payment_method_id = pm.payment_method_id;
	return pm;
}

function makeSubscription(rng, customer, fields) {
	const sub = {
		subscription_id: rng.uuid(),
		customer_id: customer.customer_id,
		name: `${customer.name} - ${fields.planName}`,
		status: 'ACTIVE',
		stage: 'CLOSED',
		transaction_method: 'ORDER_FORM',
		time_zone: 'UTC',
		currency: 'USD',
		payment_terms: 30,
		auto_renews: true,
		terminates_at: null,
		phases: null,
		pauses: [],
		crm_account_id: null,
		crm_opportunity_id: null,
		point_of_contact: null,
		signatory_user: null,
		accounts_payable_emails: [],
		products: [
			{
				name: `${fields.planName} Platform`,
				logo_image: `https://cdn.sandbox.invalid/logos/${fields.planName.toLowerCase()}.png`,
			},
		],
		metadata: null,
		attributed_to: null,
		purchase_order: null,
		...fields,
	};
	delete sub.planName;
	if (!sub.term_starts_at) sub.term_starts_at = sub.starts_at;
	if (!sub.ends_at) sub.ends_at = termEnd(sub.term_starts_at, sub.contract_length);
	if (sub.renews_at === undefined) sub.renews_at = sub.auto_renews ? addDays(sub.ends_at, 1) : null;
	if (sub.renewal_contract_period === undefined) sub.renewal_contract_period = sub.contract_length;
	return sub;
}

/** Adds the subscription, builds its schedule and invoices every entry started by `today`. */
function registerSubscription(
	state,
	rng,
	sub,
	{ invoiceUntil = SEED_TODAY, openLast = true } = {},
) {
	state.subscriptions.set(sub.subscription_id, sub);
	sub.schedule = buildSchedule(state, sub);
	const due = sub.schedule.filter((e) => e.starts_at <= invoiceUntil);
	const nowMs = dateToMs(SEED_TODAY);
	due.forEach((entry, i) => {
		const last = i === due.length - 1;
		invoiceScheduleEntry(state, sub, entry, {
			invoiceId: rng.uuid(),
			issuedMs: dateToMs(entry.starts_at) + 6 * 3600000,
			paid: !(openLast && last),
			nowMs,
		});
	});
	return sub;
}

/** Days of invoices paid before the world's noon that cadenceInvoices seeds (the longest look-back window it serves). */
const CADENCE_PAID_DAYS = 30;

/**
 * seed.openInvoices: the customer is invoiced every payment_terms / openInvoices days on its
 * subscription and pays each invoice on its due date (payment_terms days after issue), so that
 * about openInvoices are open at any time, as in an account that bills on net-30 terms; the
 * invoices paid within the last CADENCE_PAID_DAYS days are seeded (none before). Customer `index`
 * is offset by a fraction of the period (the golden ratio's), so the issue and payment times of
 * all customers spread evenly over the days: in any week, 7 / period invoices a customer are
 * issued and as many paid. The subscription's schedule counts as invoiced, as the big customer's.
 */
function cadenceInvoices(state, rng, sub, index, openInvoices) {
	for (const e of sub.schedule) if (e.starts_at <= SEED_TODAY) e.invoiced = true;
	const noonMs = dateToMs(SEED_TODAY) + DAY_MS / 2;
	const termsMs = sub.payment_terms * DAY_MS;
	const periodMs = termsMs / openInvoices;
	const list = state.invoicesByCustomer.get(sub.customer_id);
	const brick = sub.line_items[0];
	const ages = [];
	for (
		let age = ((index * 0.6180339887498949) % 1) * periodMs;
		age < termsMs + CADENCE_PAID_DAYS * DAY_MS;
		age += periodMs
	)
		ages.unshift(age);
	for (const age of ages) {
		const issuedMs = Math.floor((noonMs - age) / 1000) * 1000;
		const dueMs = issuedMs + termsMs;
		const paid = dueMs <= noonMs;
		const total = round2(100 + rng.next() * 900);
		seedCompactInvoice(state, rng, list, sub, brick, {
			issuedMs,
			dueMs,
			status: invoiceStatus(dueMs, paid, noonMs),
			total,
			remaining: paid ? 0 : total,
			paidMs: paid ? dueMs : null,
		});
	}
	state.invoiceVersion++;
}

/**
 * An invoice of the subscription with one line (the serializer builds it from brick, quantity and
 * total), numbered and registered in the customer's list and by ID.
 */
function seedCompactInvoice(
	state,
	rng,
	list,
	sub,
	brick,
	{ issuedMs, dueMs, status, total, remaining, paidMs },
) {
	const inv = {
		invoice_id: rng.uuid(),
		customer_id: sub.customer_id,
		subscription_id: sub.subscription_id,
		issuedMs,
		dueMs,
		billMs: issuedMs,
		status,
		total,
		remaining,
		paidMs,
		currency: sub.currency,
		time_zone: sub.time_zone,
		periodStartMs: issuedMs,
		lines: null,
		brickId: brick.brick_id,
		qty: brick.quantity,
		metadata: null,
	};
	inv.seq = ++state.invoiceSeq;
	inv.invoice_number = `INV-${String(inv.seq).padStart(7, '0')}`;
	list.push(inv);
	state.invoicesById.set(inv.invoice_id, inv);
}

function seedBigInvoices(state, rng, customer, subs, count) {
	const list = state.invoicesByCustomer.get(customer.customer_id);
	const startMs = Date.UTC(2012, 0, 1);
	const endMs = dateToMs(SEED_TODAY);
	const step = count ? (endMs - startMs) / count : 0;
	const terms = [0, 15, 30, 45, 60];
	const bricks = subs.map((s) => s.line_items[0]);
	for (let i = 0; i < count; i++) {
		const issuedMs = Math.floor(startMs + i * step + rng.next() * step * 0.9);
		const dueMs = issuedMs + terms[rng.u32() % 5] * DAY_MS;
		const roll = rng.next();
		const paid = roll < 0.96 && dueMs < endMs;
		const total = round2(100 + rng.next() * 9900);
		const which = i & 1;
		const sub = subs[which];
		seedCompactInvoice(state, rng, list, sub, bricks[which], {
			issuedMs,
			dueMs,
			status: roll >= 0.99 ? 'VOID' : invoiceStatus(dueMs, paid, endMs),
			total,
			remaining: paid || roll >= 0.99 ? 0 : total,
			paidMs: paid ? Math.max(issuedMs + 3600000, dueMs - DAY_MS) : null,
		});
	}
	state.invoiceVersion++;
}

function buildState(seedOptions) {
	const opts = normaliseSeedOptions(seedOptions);
	const S = opts.seed;
	const state = {
		today: SEED_TODAY,
		seedOptions: opts,
		customers: new Map(),
		subscriptions: new Map(),
		plans: new Map(),
		bricks: new Map(),
		paymentMethods: new Map(),
		orders: new Map(),
		milestones: new Map(),
		usage: new Map(),
		invoicesByCustomer: new Map(),
		invoicesById: new Map(),
		invoiceSeq: 0,
		invoiceVersion: 0,
		rng: new Rng(S, 'runtime'),
	};

	const b = seedPlans(state, new Rng(S, 'plans'));
	const customers = seedCustomers(state, new Rng(S, 'customers'), opts.customers);
	const rng = new Rng(S, 'subscriptions');
	const [acme, globex, widgets] = customers;

	// Payment methods.
	const pmRng = new Rng(S, 'payment-methods');
	const defaultPm = addPaymentMethod(
		state,
		pmRng,
		acme,
		'card',
		{ card: { brand: 'visa', last4: '4242' } },
		true,
	);
	const otherPm = addPaymentMethod(
		state,
		pmRng,
		acme,
		'card',
		{ card: { brand: 'mastercard', last4: '4444' } },
		false,
	);
	const bankPm = addPaymentMethod(
		state,
		pmRng,
		acme,
		'us_bank_account',
		{
			us_bank_account: {
				bank_name: 'STRIPE TEST BANK',
				bank_type: 'checking',
				routing_number: '110000000',
			},
		},
		false,
	);
	addPaymentMethod(state, pmRng, widgets, 'card', { card: { brand: 'amex', last4: '0005' } }, true);
	const foreignPm = addPaymentMethod(
		state,
		pmRng,
		widgets,
		'card',
		{ card: { brand: 'visa', last4: '1881' } },
		false,
	);
	customers.forEach((c, i) => {
		if (i === 1 || i >= 4)
			addPaymentMethod(
				state,
				pmRng,
				c,
				'card',
				{ card: { brand: i % 2 ? 'visa' : 'mastercard', last4: pmRng.digits(4) } },
				true,
			);
	});

	// S1: the rich subscription.
	const seats = b['Platform Seats'];
	const api = b['API Calls'];
	const onboarding = b['Onboarding Services'];
	const setup = b['Setup Fee'];
	const growth = b['plan:Growth'];
	const s1Items = (seatCount) => [
		{ brick_id: seats.brick_id, quantity: seatCount, discount: { rate: 10, renews: true } },
		{ brick_id: api.brick_id, quantity: 0, discount: null },
		{ brick_id: onboarding.brick_id, quantity: 10, discount: { rate: 5, renews: false } },
		{ brick_id: setup.brick_id, quantity: 1, discount: null },
	];
	const s1 = makeSubscription(rng, acme, {
		planName: 'Growth',
		transaction_method: 'PROCESSOR',
		starts_at: '2025-01-01',
		contract_length: 36,
		billing_frequency: 'QUARTERLY',
		time_zone: 'America/New_York',
		renewal_contract_period: 12,
		line_items: s1Items(25),
		phases: [
			{
				phase_position: 1,
				starts_at: '2025-01-01',
				ends_at: '2025-12-31',
				billing_frequency: 'QUARTERLY',
				payment_terms: 30,
				line_items: s1Items(20),
				is_annual: false,
			},
			{
				phase_position: 2,
				starts_at: '2026-01-01',
				ends_at: '2027-12-31',
				billing_frequency: 'QUARTERLY',
				payment_terms: 30,
				line_items: s1Items(25),
				is_annual: false,
			},
		],
		pauses: [
			{ paused_at: '2025-08-01T00:00:00Z', resume_at: '2025-08-15T00:00:00Z' },
			{ paused_at: '2027-02-01T00:00:00Z', resume_at: '2027-02-15T00:00:00Z' },
		],
		crm_account_id: `001${rng.alnum(15)}`,
		crm_opportunity_id: `006${rng.alnum(15)}`,
		point_of_contact: person(rng, 'acme.example', 'Head of Operations'),
		signatory_user: person(rng, 'acme.example', 'Chief Financial Officer'),
		accounts_payable_emails: ['ap@acme.example', 'billing@acme.example'],
		metadata: { region: 'us-east', segment: 'mid-market', crm_sync: true },
		attributed_to: user(rng),
		purchase_order: { code: 'PO-2025-0042' },
	});
	registerSubscription(state, rng, s1);

	// S2: no phases, ALL_UPFRONT, previous term + current term fully invoiced.
	const starterSeats = b['Starter Seats'];
	const training = b['Training Sessions'];
	const s2 = makeSubscription(rng, acme, {
		planName: 'Starter',
		starts_at: '2024-01-01',
		term_starts_at: '2025-01-01',
		contract_length: 24,
		billing_frequency: 'ALL_UPFRONT',
		currency: 'EUR',
		time_zone: 'Europe/Berlin',
		payment_terms: 15,
		auto_renews: false,
		terminates_at: '2027-01-01',
		line_items: [
			{ brick_id: starterSeats.brick_id, quantity: 5, discount: null },
			{ brick_id: training.brick_id, quantity: 4, discount: null },
			{ brick_id: b['Email Support'].brick_id, quantity: 1, discount: { rate: 20, renews: false } },
		],
		point_of_contact: person(rng, 'acme.example', 'Office Manager'),
		signatory_user: person(rng, 'acme.example', 'Chief Executive Officer'),
		accounts_payable_emails: ['ap@acme.example'],
		attributed_to: user(rng),
	});
	{
		// Invoice of the previous term (2024), then the current term's single scheduled invoice.
		const prevTotal =
			priceLine(state, s2.line_items[0], 12).grand + priceLine(state, s2.line_items[2], 12).grand;
		const issuedMs = dateToMs('2024-01-01') + 6 * 3600000;
		addInvoice(state, {
			invoice_id: rng.uuid(),
			customer_id: acme.customer_id,
			subscription_id: s2.subscription_id,
			issuedMs,
			dueMs: issuedMs + 15 * DAY_MS,
			billMs: issuedMs,
			status: 'PAID',
			total: round2(prevTotal),
			remaining: 0,
			paidMs: issuedMs + 10 * DAY_MS,
			currency: 'EUR',
			time_zone: s2.time_zone,
			periodStartMs: dateToMs('2024-01-01'),
			lines: [
				{
					brick_name: starterSeats.brick_name,
					brick_id: starterSeats.brick_id,
					quantity: 5,
					tax: 0,
					grand_total: round2(prevTotal),
					startsMs: dateToMs('2024-01-01'),
					endsMs: dateToMs('2024-12-31') + DAY_MS - 1000,
				},
			],
			metadata: { source: 'schedule', period: '2024-01-01/2024-12-31' },
		});
	}
	registerSubscription(state, rng, s2, { openLast: false });

	// S3: paused now.
	const s3 = makeSubscription(rng, acme, {
		planName: 'Growth',
		status: 'PAUSED',
		transaction_method: 'PROCESSOR',
		starts_at: '2026-01-01',
		contract_length: 12,
		billing_frequency: 'MONTHLY',
		line_items: [
			{ brick_id: seats.brick_id, quantity: 5, discount: null },
			{ brick_id: api.brick_id, quantity: 0, discount: null },
		],
		pauses: [
			{ paused_at: '2026-02-10T00:00:00Z', resume_at: '2026-02-20T00:00:00Z' },
			{ paused_at: '2026-05-01T00:00:00Z', resume_at: null },
		],
		point_of_contact: person(rng, 'acme.example', 'IT Lead'),
		attributed_to: user(rng),
	});
	registerSubscription(state, rng, s3, { invoiceUntil: '2026-04-30' });

	// S4: open order waiting for signature.
	const s4 = makeSubscription(rng, acme, {
		planName: 'Growth',
		status: 'OPEN_ORDER',
		stage: 'BUILDING',
		starts_at: '2026-10-01',
		contract_length: 12,
		billing_frequency: 'ANNUALLY',
		line_items: [
			{ brick_id: seats.brick_id, quantity: 12, discount: null },
			{ brick_id: b['Premium Support'].brick_id, quantity: 1, discount: null },
		],
		point_of_contact: person(rng, 'acme.example', 'Procurement'),
		attributed_to: user(rng),
	});
	registerSubscription(state, rng, s4);

	// Milestones of S1 (one completion already billed on a standalone invoice) and S2.
	const standaloneIssued = dateToMs('2025-03-10') + 9 * 3600000;
	const standaloneTotal = round2(3 * onboarding.unit_price * 0.95);
	const standalone = addInvoice(state, {
		invoice_id: rng.uuid(),
		customer_id: acme.customer_id,
		subscription_id: s1.subscription_id,
		issuedMs: standaloneIssued,
		dueMs: standaloneIssued + 30 * DAY_MS,
		billMs: standaloneIssued,
		status: 'PAID',
		total: standaloneTotal,
		remaining: 0,
		paidMs: standaloneIssued + 20 * DAY_MS,
		currency: 'USD',
		time_zone: s1.time_zone,
		periodStartMs: dateToMs('2025-03-07'),
		lines: [
			{
				brick_name: onboarding.brick_name,
				brick_id: onboarding.brick_id,
				quantity: 3,
				tax: 0,
				grand_total: standaloneTotal,
				startsMs: dateToMs('2025-03-07'),
				endsMs: dateToMs('2025-03-07'),
			},
		],
		metadata: { source: 'milestone', standalone: true },
	});
	const milestone = {
		milestone_id: rng.uuid(),
		subscription_id: s1.subscription_id,
		brick_id: onboarding.brick_id,
		quantity: 10,
		quantity_completed: 3,
		completions: [
			{
				quantity: 3,
				bill_on: 'IMMEDIATELY',
				invoice_id: standalone.invoice_id,
				completed_at: '2025-03-10T09:00:00Z',
				service_date: '2025-03-07',
			},
		],
	};
	state.milestones.set(milestone.milestone_id, milestone);
	const finishedMilestone = {
		milestone_id: rng.uuid(),
		subscription_id: s2.subscription_id,
		brick_id: training.brick_id,
		quantity: 4,
		quantity_completed: 1,
		completions: [
			{
				quantity: 1,
				bill_on: 'NEXT_INVOICE',
				invoice_id: s2.schedule[0].invoice_id,
				completed_at: '2024-12-01T10:00:00Z',
				service_date: '2024-11-28',
			},
		],
	};
	state.milestones.set(finishedMilestone.milestone_id, finishedMilestone);

	// Recast and upgrade orders of S1.
	const order = (type, stage, fields) => {
		const o = {
			order_id: rng.uuid(),
			order_type: type,
			subscription_id: s1.subscription_id,
			stage,
			plan_id: growth.plan_id,
			discount_coupons: [],
			payment_terms: null,
			transaction_method: null,
			adjustment_credit: null,
			adjustment_credit_label: null,
			custom_order_form_html: null,
			metadata: null,
			charge_immediately: null,
			...fields,
		};
		state.orders.set(o.order_id, o);
		return o;
	};
	order('RECAST', 'CLOSED_LOST', {
		starts_at: '2025-07-01',
		contract_length: 12,
		ends_at: termEnd('2025-07-01', 12),
		billing_frequency: 'MONTHLY',
		bricks: [{ brick_id: seats.brick_id, quantity: 15, discount: null }],
		created_at: '2025-06-01T10:00:00Z',
	});
	const deletedRecast = order('RECAST', 'CLOSED_DELETE', {
		starts_at: '2026-07-01',
		contract_length: 12,
		ends_at: termEnd('2026-07-01', 12),
		billing_frequency: 'ANNUALLY',
		bricks: [{ brick_id: seats.brick_id, quantity: 40, discount: null }],
		created_at: '2026-06-01T10:00:00Z',
	});
	const recast = order('RECAST', 'BUILDING', {
		starts_at: '2026-10-01',
		contract_length: 24,
		ends_at: termEnd('2026-10-01', 24),
		billing_frequency: 'ANNUALLY',
		bricks: [
			{ brick_id: seats.brick_id, quantity: 30, discount: { rate: 15, renews: true } },
			{ brick_id: api.brick_id, quantity: 1, discount: null },
		],
		adjustment_credit: 1000,
		adjustment_credit_label: 'Unused seats credit',
		metadata: { reason: 'expansion' },
		created_at: '2026-09-01T10:00:00Z',
	});
	const upgrade = order('UPGRADE', 'BUILDING', {
		starts_at: '2026-10-01',
		ends_at: s1.ends_at,
		contract_length: null,
		billing_frequency: s1.billing_frequency,
		bricks: [{ brick_id: b['Premium Support'].brick_id, quantity: 1, discount: null }],
		contract_value: 15 * 500,
		created_at: '2026-09-05T10:00:00Z',
	});

	// Usage entries of S1.
	const usageRng = new Rng(S, 'usage');
	const usage = [];
	for (let i = 0; i < 3; i++) {
		const entry = {
			transaction_id: `txn_${usageRng.alnum(16)}`,
			subscription_id: s1.subscription_id,
			brick_id: api.brick_id,
			value: 1000 * (i + 1),
			time: `2026-09-0${i + 1}T12:00:00Z`,
			properties: { region: i % 2 ? 'eu' : 'us', endpoint: '/v1/search' },
		};
		state.usage.set(entry.transaction_id, entry);
		usage.push(entry);
	}

	// Other customers: one subscription each; the big customer gets two and many invoices.
	const planCycle = ['Starter', 'Growth', 'Enterprise'];
	const mainBrick = {
		Starter: 'Starter Seats',
		Growth: 'Platform Seats',
		Enterprise: 'Enterprise Seats',
	};
	let noPmSub = null;
	const cadenceRng = new Rng(S, 'cadence-invoices');
	for (let i = 2; i < customers.length; i++) {
		const planName = planCycle[i % 3];
		const sub = makeSubscription(rng, customers[i], {
			planName,
			starts_at: `2026-0${1 + (i % 6)}-01`,
			contract_length: 12,
			billing_frequency: i % 2 ? 'ANNUALLY' : 'MONTHLY',
			currency: i % 4 === 3 ? 'GBP' : 'USD',
			line_items: [
				{ brick_id: b[mainBrick[planName]].brick_id, quantity: 3 + (i % 7), discount: null },
			],
			attributed_to: user(rng),
		});
		if (opts.openInvoices === undefined) registerSubscription(state, rng, sub);
		else {
			state.subscriptions.set(sub.subscription_id, sub);
			sub.schedule = buildSchedule(state, sub);
			cadenceInvoices(state, cadenceRng, sub, i, opts.openInvoices);
		}
		if (i === 3) noPmSub = sub;
	}
	const bigSubs = ['2012-01-01', '2012-01-01'].map((start, k) =>
		makeSubscription(rng, globex, {
			planName: 'Enterprise',
			name: `${globex.name} - ${k ? 'Data' : 'Platform'}`,
			starts_at: start,
			contract_length: 180,
			billing_frequency: 'ANNUALLY',
			line_items: [
				{
					brick_id: (k ? b['Data Warehouse Connector'] : b['Enterprise Seats']).brick_id,
					quantity: k ? 2 : 60,
					discount: null,
				},
			],
			attributed_to: user(rng),
		}),
	);
	for (const sub of bigSubs) {
		state.subscriptions.set(sub.subscription_id, sub);
		sub.schedule = buildSchedule(state, sub);
		for (const e of sub.schedule) if (e.starts_at <= SEED_TODAY) e.invoiced = true;
	}
	seedBigInvoices(state, new Rng(S, 'big-invoices'), globex, bigSubs, opts.bigCustomerInvoices);

	const acmeInvoices = state.invoicesByCustomer.get(acme.customer_id);
	const searchMatches = customers.filter((c) => c.name.toLowerCase().includes('acme')).length;
	const fixtures = {
		today: SEED_TODAY,
		customerId: acme.customer_id,
		customerName: acme.name,
		customerExternalId: acme.external_id,
		processorCustomerId: acme.processor_customer_id,
		customerInvoiceCount: acmeInvoices.length,
		invoiceId: acmeInvoices[0].invoice_id,
		invoiceNumber: acmeInvoices[0].invoice_number,
		bigCustomerId: globex.customer_id,
		bigCustomerName: globex.name,
		bigCustomerInvoices: opts.bigCustomerInvoices,
		customerCount: customers.length,
		searchName: 'acme',
		searchNameMatches: searchMatches,
		subscriptionId: s1.subscription_id,
		noPhasesSubscriptionId: s2.subscription_id,
		pausedSubscriptionId: s3.subscription_id,
		openOrderSubscriptionId: s4.subscription_id,
		noPaymentMethodSubscriptionId: noPmSub.subscription_id,
		recastOrderId: recast.order_id,
		deletedRecastOrderId: deletedRecast.order_id,
		upgradeOrderId: upgrade.order_id,
		usageTransactionId: usage[0].transaction_id,
		usageBrickId: api.brick_id,
		seatsBrickId: seats.brick_id,
		addOnBrickId: b['Premium Support'].brick_id,
		otherPlanBrickId: b['Enterprise Seats'].brick_id,
		paymentMethodId: otherPm.payment_method_id,
		bankPaymentMethodId: bankPm.payment_method_id,
		defaultPaymentMethodId: defaultPm.payment_method_id,
		foreignPaymentMethodId: foreignPm.payment_method_id,
		planId: growth.plan_id,
		otherPlanId: b['plan:Enterprise'].plan_id,
		milestoneId: milestone.milestone_id,
		milestoneBrickId: onboarding.brick_id,
		finishedMilestoneSubscriptionId: s2.subscription_id,
		finishedMilestoneId: finishedMilestone.milestone_id,
	};
	shiftDates({ state, fixtures }, (dateToMs(todayDate()) - dateToMs(SEED_TODAY)) / DAY_MS);
	return { state, fixtures };
}

/** The seeded state's fields that hold epoch milliseconds (the others hold ISO strings). */
const MS_FIELDS = new Set([
	'atMs',
	'billMs',
	'dueMs',
	'endsMs',
	'issuedMs',
	'paidMs',
	'periodStartMs',
	'startsMs',
]);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

/** Moves every date in `root` (ISO dates, date-times and the MS_FIELDS) by `days`, each object once. */
function shiftDates(root, days) {
	if (days === 0) return;
	const seen = new WeakSet();
	const shifted = (key, value) => {
		if (typeof value === 'number') return MS_FIELDS.has(key) ? value + days * DAY_MS : value;
		if (typeof value !== 'string') return visit(value);
		if (ISO_DATE.test(value)) return addDays(value, days);
		if (!ISO_DATE_TIME.test(value)) return value;
		const iso = new Date(Date.parse(value) + days * DAY_MS).toISOString();
		return value.length === 20 ? `${iso.slice(0, 19)}Z` : iso;
	};
	const visit = (value) => {
		if (value === null || typeof value !== 'object' || seen.has(value)) return value;
		seen.add(value);
		if (value instanceof Map) for (const [k, v] of value) value.set(k, shifted(k, v));
		else if (!(value instanceof Rng))
			for (const k of Object.keys(value)) value[k] = shifted(k, value[k]);
		return value;
	};
	visit(root);
}

module.exports = { buildState, normaliseSeedOptions, SEED_TODAY, DEFAULT_SEED };
