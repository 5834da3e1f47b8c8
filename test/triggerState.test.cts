/**
 * The trigger's saved state (trigger/state.ts): named sections per event family, the customers
 * and subscriptions remembered in record tables (trigger/recordTable.ts) and the invoices packed
 * per customer (events/invoiceState.ts), each encoding read back as written.
 */
import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from './helpers/billing.cjs';
import { activeTrigger } from './helpers/trigger.cjs';
import { InvoiceTable } from '../nodes/SubscriptionBilling/trigger/events/invoiceState';
import { CUSTOMER_LIST_EVENTS, INVOICE_FAMILY_EVENTS } from '../nodes/SubscriptionBilling/trigger/events/catalog';
import { RecordTable } from '../nodes/SubscriptionBilling/trigger/recordTable';
import { readTriggerState, writeTriggerState, type TriggerState } from '../nodes/SubscriptionBilling/trigger/state';

const sandbox = useSandbox();

const EVERY_EVENT = [...CUSTOMER_LIST_EVENTS, ...INVOICE_FAMILY_EVENTS];

describe('the saved state', () => {
	test('every event selected: one section per family with named keys; the invoices of listed customers kept in the customers table', async () => {
		const trigger = activeTrigger(sandbox, { events: EVERY_EVENT, scope: 'all', subscriptionDetails: true });
		expect((await trigger.poll()).items).toBeNull();
		const state = trigger.nodeStaticData.trigger as TriggerState;
		expect(Object.keys(state).sort()).toEqual(['customerList', 'format', 'invoices']);
		expect(state.customerList).toEqual({
			events: CUSTOMER_LIST_EVENTS,
			customers: { columns: ['name', 'legal_name', 'external_id', 'address', 'processor_customer_id', 'tax_id', 'invoices'], rows: expect.any(String) },
			subscriptions: {
				columns: ['status', 'name', 'starts_at', 'ends_at', 'renews_at', 'auto_renews', 'sub_total', 'grand_total', 'renewal_total', 'line_items'],
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
			sweep: { startedAt: expect.any(Number), lookBackMs: 7 * 86_400_000 },
			customers: '',
			statuses: expect.arrayContaining(['OPEN']),
		});
		// Every customer's row carries its invoices (or `~`): no fingerprint of a customer twice.
		const customers = RecordTable.read(state.customerList!.customers, new Set())!;
		expect(customers.rows.size).toBe((sandbox.state.customers as Map<string, unknown>).size);
		const openOf = (customerId: string) => (sandbox.state.invoicesByCustomer as Map<string, Array<{ invoice_id: string; paidMs: number | null; remaining: number }>>).get(customerId)!.filter((i) => i.paidMs === null && i.remaining > 0);
		const withOpen = [...(sandbox.state.customers as Map<string, unknown>).keys()].filter((id) => openOf(id).length > 0);
		expect(withOpen.length).toBeGreaterThan(0);
		for (const id of withOpen) expect(customers.cellOf(id, 'invoices')).toMatch(/^\[.*\]$/);
		// A subscription's status and dates are kept as they are, its name as a hash.
		const subscriptions = RecordTable.read(state.customerList!.subscriptions, new Set(['status', 'starts_at', 'ends_at', 'renews_at']))!;
		const subscription = (sandbox.state.subscriptions as Map<string, IDataObject>).get(sandbox.fixtures.subscriptionId)!;
		for (const field of ['status', 'starts_at', 'ends_at', 'renews_at']) expect(subscriptions.value(subscriptions.cellOf(sandbox.fixtures.subscriptionId, field))).toEqual(subscription[field] ?? null);
		expect(subscriptions.value(subscriptions.cellOf(sandbox.fixtures.subscriptionId, 'name'))).toBeUndefined();
		expect(subscriptions.cellOf(sandbox.fixtures.subscriptionId, 'name')).toMatch(/^[A-Za-z0-9_-]{4}$/);
	});
});

describe('the encodings read back as written', () => {
	test('record table: null, booleans, dates, words past the short ones, other values of exact columns, hashes, cells not known', () => {
		const exact = new Set(['status', 'day']);
		const table = new RecordTable(['status', 'day', 'other'], exact);
		const statuses = Array.from({ length: 20 }, (_, n) => `STATUS_${String.fromCharCode(65 + n)}`);
		const rows = statuses.map((status, n) => [`id-${n}`, status, n % 2 ? '2031-02-28' : '1900-01-01', { n }] as const);
		for (const [id, status, day, other] of rows) table.rows.set(id.padEnd(9, '.'), [table.cell('status', status), table.cell('day', day), table.cell('other', other)]);
		table.rows.set('literal..', [table.cell('status', 'not a word'), table.cell('day', '2026-09-15T10:00:00Z'), table.cell('other', null)]);
		table.rows.set('unknown..', ['~', table.cell('day', null), table.cell('other', true)]);
		const read = RecordTable.read(JSON.parse(JSON.stringify(table.store())), exact)!;
		for (const [id, status, day] of rows) {
			const cells = read.rows.get(id.padEnd(9, '.'))!;
			expect([read.value(cells[0]), read.value(cells[1]), read.value(cells[2])]).toEqual([status, day, undefined]);
			expect(cells[2]).toBe(table.cell('other', { n: Number(id.slice(3)) }));
		}
		expect(read.rows.get('literal..')!.map((cell) => read.value(cell))).toEqual(['not a word', '2026-09-15T10:00:00Z', null]);
		expect(read.rows.get('unknown..')!.map((cell) => read.value(cell))).toEqual([undefined, null, true]);
	});

	test('invoice table: UUIDs and other ids, statuses by number and past 32, overdue, failed payments, paid at', () => {
		const uuid = 'ffffffff-ffff-4fff-bfff-ffffffffffff';
		const entries = {
			AAAAAAAAA: { known: 'KKKKKKKKKLLLLLLLLL', watched: { [uuid]: { status: 'OPEN', failed: 'FFFFFFFFF', overdue: true }, '00000000-0000-4000-8000-000000000000': { status: 'PAID', failed: '', overdue: false, paidAt: 1_790_000_000_000 } } },
			BBBBBBBBB: { known: '', watched: { 'inv;odd=id]': { status: 'Status; with [odd] text', failed: '', overdue: true } } },
		};
		const table = new InvoiceTable(Array.from({ length: 31 }, (_, n) => `S${n}`));
		for (const [print, entry] of Object.entries(entries)) table.set(print, entry);
		const read = InvoiceTable.read(table.pack(), table.statuses);
		expect(Object.fromEntries([...read.rows.keys()].map((print) => [print, read.get(print)]))).toEqual(entries);
		// Two known fingerprints; `=`, id, status with the overdue mark, a failed payment; `=`, id, the
		// 33rd status written out (32 fit in one character), paid at.
		expect(read.rows.get('AAAAAAAAA')).toHaveLength(18 + (1 + 20 + 1 + 10) + (1 + 20 + '<PAID>'.length + 7));
	});
});

describe('the customers table carries the invoice rows of its customers as saved', () => {
	const staticDataOf = () => {
		const data: IDataObject = {};
		return { data, ctx: { getWorkflowStaticData: () => data } as unknown as Parameters<typeof readTriggerState>[0] };
	};
	const customersTable = (prints: string[]) => {
		const table = new RecordTable(['name', 'tax_id']);
		for (const print of prints) table.rows.set(print, [table.cell('name', `name ${print}`), table.cell('tax_id', print === 'CCCCCCCCC' ? null : print)]);
		return table.store();
	};
	const invoiceRows = (rows: Record<string, string>) => {
		const table = new InvoiceTable(['OPEN']);
		for (const [print, row] of Object.entries(rows)) table.rows.set(print, row);
		return table.pack();
	};
	const families = (customers: string[], invoices: Record<string, string> | undefined): TriggerState => ({
		format: 1,
		customerList: { events: ['newCustomer'], customers: customersTable(customers) },
		...(invoices && { invoices: { events: ['newInvoice'], customer: '*', sweep: { startedAt: 1, lookBackMs: 2 }, customers: invoiceRows(invoices), statuses: ['OPEN'] } }),
	});

	interface Case {
		name: string;
		customers: string[];
		invoices?: Record<string, string>;
		shared?: Record<string, string>;
		leftOver?: string[];
	}
	test.each<Case>([
		{ name: 'customers with invoices, without, and invoices of customers not listed', customers: ['BBBBBBBBB', 'CCCCCCCCC', 'EEEEEEEEE'], invoices: { AAAAAAAAA: 'aaaaaaaaa', BBBBBBBBB: 'bbbbbbbbb=x', DDDDDDDDD: 'ddddddddd', EEEEEEEEE: 'eeeeeeeee', FFFFFFFFF: 'fffffffff' }, shared: { BBBBBBBBB: '[bbbbbbbbb=x]', CCCCCCCCC: '~', EEEEEEEEE: '[eeeeeeeee]' }, leftOver: ['AAAAAAAAA', 'DDDDDDDDD', 'FFFFFFFFF'] },
		{ name: 'no invoice rows', customers: ['BBBBBBBBB'], invoices: {}, shared: { BBBBBBBBB: '~' }, leftOver: [] },
		{ name: 'no customers', customers: [], invoices: { AAAAAAAAA: 'aaaaaaaaa' }, shared: {}, leftOver: ['AAAAAAAAA'] },
		{ name: 'no invoice section', customers: ['BBBBBBBBB'], invoices: undefined, shared: undefined, leftOver: undefined },
	])('$name: saved shared, read back as each family wrote it', ({ customers, invoices, shared, leftOver }) => {
		const { data, ctx } = staticDataOf();
		const written = families(customers, invoices);
		writeTriggerState(ctx, JSON.parse(JSON.stringify(written)) as TriggerState);
		const saved = JSON.parse(JSON.stringify(data.trigger)) as TriggerState;
		const table = RecordTable.read(saved.customerList!.customers, new Set())!;
		if (shared === undefined) {
			expect(table.columns).toEqual(['name', 'tax_id']);
			expect(saved.invoices).toBeUndefined();
		} else {
			expect(table.columns).toEqual(['name', 'tax_id', 'invoices']);
			expect(Object.fromEntries([...table.rows].map(([print, cells]) => [print, cells[2]]))).toEqual(shared);
			expect([...InvoiceTable.read(saved.invoices!.customers, ['OPEN']).rows.keys()]).toEqual(leftOver);
		}
		expect(readTriggerState(ctx)).toEqual(written);
	});
});
