/**
 * The trigger's saved state (trigger/state/): named sections per event family, every table a
 * record table in one cell encoding that stores its columns' kinds (state/recordTable.ts,
 * state/cells.ts), so that each is read back without knowing it beforehand; the invoice rows of
 * listed customers kept in the customers table as saved.
 */
import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from './helpers/billing.cjs';
import { activeTrigger, publishedAndSwept } from './helpers/trigger.cjs';
import {
	CUSTOMER_LIST_EVENTS,
	INVOICE_FAMILY_EVENTS,
} from '../nodes/SubscriptionBilling/trigger/events/catalog';
import {
	InvoiceTable,
	type CustomerInvoices,
} from '../nodes/SubscriptionBilling/trigger/state/invoiceTable';
import { RecordTable } from '../nodes/SubscriptionBilling/trigger/state/recordTable';
import {
	readTriggerState,
	writeTriggerState,
	type TriggerState,
} from '../nodes/SubscriptionBilling/trigger/state/triggerState';

const sandbox = useSandbox();

const EVERY_EVENT = [...CUSTOMER_LIST_EVENTS, ...INVOICE_FAMILY_EVENTS];
const INVOICE_KINDS = ['[f]', '[udd]'];
/** A stored table read back as JSON would bring it, knowing nothing of its columns. */
const reread = (stored: unknown) => RecordTable.read(JSON.parse(JSON.stringify(stored)))!;

describe('the saved state', () => {
	test('every event selected: one section per family with named keys; the invoices of listed customers kept in the customers table', async () => {
		const trigger = activeTrigger(sandbox, {
			events: EVERY_EVENT,
			scope: 'all',
			subscriptionDetails: true,
		});
		// Publishing, then the first sweep's visits (the first poll reads no customer's invoices).
		await publishedAndSwept(trigger);
		const state = trigger.nodeStaticData.trigger as TriggerState;
		expect(Object.keys(state).sort()).toEqual(['customerList', 'format', 'invoices']);
		expect(state.customerList).toEqual({
			events: CUSTOMER_LIST_EVENTS,
			customers: {
				columns: [
					'name',
					'legal_name',
					'external_id',
					'address',
					'processor_customer_id',
					'tax_id',
					'known',
					'watched',
				],
				kinds: ['h', 'h', 'h', 'h', 'h', 'h', ...INVOICE_KINDS],
				words: expect.arrayContaining(['OPEN']),
				rows: expect.any(String),
			},
			subscriptions: {
				columns: [
					'status',
					'name',
					'starts_at',
					'ends_at',
					'renews_at',
					'auto_renews',
					'sub_total',
					'grand_total',
					'renewal_total',
					'line_items',
				],
				kinds: ['d', 'h', 'd', 'd', 'd', 'h', 'h', 'h', 'h', 'h'],
				words: expect.arrayContaining(['ACTIVE', 'PAUSED']),
				rows: expect.any(String),
			},
			endingSoon: expect.any(String),
			renewalDue: expect.any(String),
			detailPass: {},
		});
		expect(state.invoices).toEqual({
			events: INVOICE_FAMILY_EVENTS,
			customer: '*',
			sweep: { startedAt: expect.any(Number), lookBackMs: 7 * 86_400_000, polls: 1 },
			customers: {
				columns: ['known', 'watched'],
				kinds: INVOICE_KINDS,
				words: expect.arrayContaining(['OPEN']),
				rows: '',
			},
		});
		// Every customer's row carries its invoices (or `~~`): no fingerprint of a customer twice.
		const customers = reread(state.customerList!.customers);
		expect(customers.rows.size).toBe((sandbox.state.customers as Map<string, unknown>).size);
		const openOf = (customerId: string) =>
			(
				sandbox.state.invoicesByCustomer as Map<
					string,
					Array<{ invoice_id: string; paidMs: number | null; remaining: number }>
				>
			)
				.get(customerId)!
				.filter((i) => i.paidMs === null && i.remaining > 0);
		const withOpen = [...(sandbox.state.customers as Map<string, unknown>).keys()].filter(
			(id) => openOf(id).length > 0,
		);
		expect(withOpen.length).toBeGreaterThan(0);
		for (const id of withOpen) expect(customers.cellOf(id, 'watched')).toMatch(/^\[.*\]$/);
		// A subscription's status and dates are kept as they are, its name as a hash.
		const subscriptions = reread(state.customerList!.subscriptions);
		const subscription = (sandbox.state.subscriptions as Map<string, IDataObject>).get(
			sandbox.fixtures.subscriptionId,
		)!;
		for (const field of ['status', 'starts_at', 'ends_at', 'renews_at'])
			expect(
				subscriptions.value(subscriptions.cellOf(sandbox.fixtures.subscriptionId, field), field),
			).toEqual(subscription[field] ?? null);
		expect(
			subscriptions.value(subscriptions.cellOf(sandbox.fixtures.subscriptionId, 'name'), 'name'),
		).toBeUndefined();
		expect(subscriptions.cellOf(sandbox.fixtures.subscriptionId, 'name')).toMatch(
			/^[A-Za-z0-9_-]{4}$/,
		);
	});
});

describe('the encodings read back as written, knowing only the stored table', () => {
	test('record table: null, booleans, dates, words past the short ones, other values of value columns, hashes, cells not known', () => {
		const table = new RecordTable(['status', 'day', 'other'], ['d', 'd', 'h']);
		const statuses = Array.from({ length: 20 }, (_, n) => `STATUS_${String.fromCharCode(65 + n)}`);
		const rows = statuses.map(
			(status, n) => [`id-${n}`, status, n % 2 ? '2031-02-28' : '1900-01-01', { n }] as const,
		);
		for (const [id, status, day, other] of rows)
			table.rows.set(id.padEnd(9, '.'), [
				table.cell('status', status),
				table.cell('day', day),
				table.cell('other', other),
			]);
		table.rows.set('literal..', [
			table.cell('status', 'not a word'),
			table.cell('day', '2026-09-15T10:00:00Z'),
			table.cell('other', null),
		]);
		table.rows.set('unknown..', ['~', table.cell('day', null), table.cell('other', true)]);
		const read = reread(table.store());
		const values = (print: string) =>
			read.rows.get(print)!.map((cell, index) => read.value(cell, read.columns[index]));
		for (const [id, status, day] of rows) {
			expect(values(id.padEnd(9, '.'))).toEqual([status, day, undefined]);
			expect(read.rows.get(id.padEnd(9, '.'))![2]).toBe(
				table.cell('other', { n: Number(id.slice(3)) }),
			);
		}
		expect(values('literal..')).toEqual(['not a word', '2026-09-15T10:00:00Z', null]);
		expect(values('unknown..')).toEqual([undefined, null, true]);
	});

	test('any ID is stored: a UUID in 22 characters, any other text as a literal, whatever characters it has', () => {
		const ids = [
			'ffffffff-ffff-4fff-bfff-ffffffffffff',
			'inv;odd=id]',
			'<b>[x]</b>',
			'a"b\\c',
			'~',
			'%41',
			'INV_1',
			'ünï cödé ✓',
			'',
		];
		const table = new RecordTable(['id', 'also'], ['u', 'u']);
		ids.forEach((id, n) =>
			table.rows.set(`row${n}`.padEnd(9, '.'), [
				table.cell('id', id),
				table.cell('also', ids[ids.length - 1 - n]),
			]),
		);
		const read = reread(table.store());
		expect(
			[...read.rows.values()].map((cells) =>
				cells.map((cell, index) => read.value(cell, read.columns[index])),
			),
		).toEqual(ids.map((id, n) => [id, ids[ids.length - 1 - n]]));
		expect(table.cell('id', ids[0])).toMatch(/^[A-Za-z0-9_-]{22}$/);
	});

	test('invoice table: UUIDs and other ids, statuses as words and written out, overdue, failed payments, paid at', () => {
		const uuid = 'ffffffff-ffff-4fff-bfff-ffffffffffff';
		const entries: Record<string, CustomerInvoices> = {
			AAAAAAAAA: {
				known: 'KKKKKKKKKLLLLLLLLL',
				watched: {
					[uuid]: { status: 'OPEN', failed: 'FFFFFFFFF', overdue: true },
					'00000000-0000-4000-8000-000000000000': {
						status: 'PAID',
						failed: '',
						overdue: false,
						paidAt: 1_790_000_000_000,
					},
				},
			},
			BBBBBBBBB: {
				known: '',
				watched: {
					'inv;odd=id]': { status: 'Status; with [odd] text', failed: '', overdue: true },
				},
			},
			CCCCCCCCC: { known: '', watched: { [uuid]: { status: 'OPEN', failed: '', overdue: false } } },
		};
		const table = InvoiceTable.read(undefined);
		for (const [print, entry] of Object.entries(entries)) table.set(print, entry);
		const read = InvoiceTable.read(JSON.parse(JSON.stringify(table.store())));
		expect(
			Object.fromEntries([...read.rows.keys()].map((print) => [print, read.get(print)])),
		).toEqual(entries);
		// An open invoice of a customer with nothing else: no known invoices, then its id, status and overdue state in a list.
		expect(read.rows.get('CCCCCCCCC')!.join('')).toHaveLength(1 + (1 + 22 + 1 + 1 + 1));
	});

	test('invoice table: a paid invoice with nothing else keeps its paid time as a number; the object it was kept in before is still read', () => {
		const uuid = '00000000-0000-4000-8000-000000000000';
		const paid = { status: 'PAID', failed: '', overdue: false, paidAt: 1_790_000_000_123 };
		const table = InvoiceTable.read(undefined);
		table.set('AAAAAAAAA', { known: '', watched: { [uuid]: paid } });
		const watched = table.rows.get('AAAAAAAAA')![1];
		// Its id, its status and `<1790000000123>` in a list: 38 bytes for the invoice.
		expect(watched).toMatch(/^\[[A-Za-z0-9_-]{22}.<1790000000123>\]$/);
		// As a state saved before this stored it: `{overdue: false, paidAt}` written out, 45 bytes more.
		const before = watched.replace(
			'<1790000000123>',
			`<${encodeURIComponent(JSON.stringify({ overdue: false, paidAt: paid.paidAt }))}>`,
		);
		expect(before.length - watched.length).toBe(45);
		const stored = table.store();
		const saved = InvoiceTable.read(
			JSON.parse(JSON.stringify({ ...stored, rows: stored.rows.replace(watched, before) })),
		);
		expect(saved.get('AAAAAAAAA')).toEqual({ known: '', watched: { [uuid]: paid } });
		// Written again, it takes the shorter form.
		saved.set('AAAAAAAAA', saved.get('AAAAAAAAA')!);
		expect(saved.store()).toEqual(stored);
	});
});

describe('the customers table carries the invoice rows of its customers as saved', () => {
	const staticDataOf = () => {
		const data: IDataObject = {};
		return {
			data,
			ctx: { getWorkflowStaticData: () => data } as unknown as Parameters<
				typeof readTriggerState
			>[0],
		};
	};
	const customersTable = (prints: string[]) => {
		const table = new RecordTable(['name', 'tax_id'], ['h', 'h']);
		for (const print of prints)
			table.rows.set(print, [
				table.cell('name', `name ${print}`),
				table.cell('tax_id', print === 'CCCCCCCCC' ? null : print),
			]);
		return table.store();
	};
	const open = (n: number): CustomerInvoices => ({
		known: 'K'.repeat(9 * (n % 2)),
		watched: { [`invoice-${n}`]: { status: n % 2 ? 'OPEN' : 'PAID', failed: '', overdue: n > 2 } },
	});
	const invoiceTable = (prints: string[]) => {
		const table = InvoiceTable.read(undefined);
		prints.forEach((print, n) => table.set(print, open(n)));
		return table;
	};
	const families = (customers: string[], invoices: string[] | undefined): TriggerState => ({
		format: 2,
		customerList: { events: ['newCustomer'], customers: customersTable(customers) },
		...(invoices && {
			invoices: {
				events: ['newInvoice'],
				customer: '*',
				sweep: { startedAt: 1, lookBackMs: 2 },
				customers: invoiceTable(invoices).store(),
			},
		}),
	});

	interface Case {
		name: string;
		customers: string[];
		invoices?: string[];
		shared?: string[];
		leftOver?: string[];
	}
	test.each<Case>([
		{
			name: 'customers with invoices, without, and invoices of customers not listed',
			customers: ['BBBBBBBBB', 'CCCCCCCCC', 'EEEEEEEEE'],
			invoices: ['AAAAAAAAA', 'BBBBBBBBB', 'DDDDDDDDD', 'EEEEEEEEE', 'FFFFFFFFF'],
			shared: ['BBBBBBBBB', 'EEEEEEEEE'],
			leftOver: ['AAAAAAAAA', 'DDDDDDDDD', 'FFFFFFFFF'],
		},
		{ name: 'no invoice rows', customers: ['BBBBBBBBB'], invoices: [], shared: [], leftOver: [] },
		{
			name: 'no customers',
			customers: [],
			invoices: ['AAAAAAAAA'],
			shared: [],
			leftOver: ['AAAAAAAAA'],
		},
		{
			name: 'no invoice section',
			customers: ['BBBBBBBBB'],
			invoices: undefined,
			shared: undefined,
			leftOver: undefined,
		},
	])(
		'$name: saved shared, read back as each family wrote it',
		({ customers, invoices, shared, leftOver }) => {
			const { data, ctx } = staticDataOf();
			const written = families(customers, invoices);
			writeTriggerState(ctx, JSON.parse(JSON.stringify(written)) as TriggerState);
			const saved = JSON.parse(JSON.stringify(data.trigger)) as TriggerState;
			const table = reread(saved.customerList!.customers);
			if (shared === undefined) {
				expect(table.columns).toEqual(['name', 'tax_id']);
				expect(saved.invoices).toBeUndefined();
			} else {
				expect(table.columns).toEqual(['name', 'tax_id', 'known', 'watched']);
				const written = invoiceTable(invoices!);
				for (const [print, cells] of table.rows)
					expect(cells.slice(2)).toEqual(
						shared.includes(print) ? written.rows.get(print) : ['~', '~'],
					);
				expect([...InvoiceTable.read(saved.invoices!.customers).rows.keys()]).toEqual(leftOver);
			}
			expect(readTriggerState(ctx)).toEqual(written);
		},
	);
});
