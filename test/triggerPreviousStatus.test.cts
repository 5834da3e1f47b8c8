/**
 * The `previous_status` of Invoice Paid and Invoice Overdue (issue 53, item 7): the status the API
 * gave when the trigger read the invoice before the change, or null when it did not; never one the
 * trigger makes up from the invoice's times. The contract lists no invoice statuses, so this runs
 * against a deployment that calls an overdue invoice OVERDUE where the sandbox says PAST_DUE
 * (test/sandbox/deployments.js, `overdue-status`).
 */
import type { IDataObject } from 'n8n-workflow';
import { useSandbox, type Sandbox } from './helpers/billing.cjs';
import { moveClock } from './helpers/clock.cjs';
import { activeTrigger } from './helpers/trigger.cjs';

const { startDeployment } = require('./sandbox/index.cjs') as {
	startDeployment: (
		sandbox: unknown,
		variant: string,
	) => Promise<{ baseUrl: string; close(): Promise<void> }>;
};

const sandbox = useSandbox();
let front: { baseUrl: string; close(): Promise<void> };
beforeAll(async () => {
	front = await startDeployment(sandbox, 'overdue-status');
});
afterAll(async () => await front.close());

const isoSecondsAgo = (seconds: number) =>
	new Date(Math.floor(Date.now() / 1000) * 1000 - seconds * 1000)
		.toISOString()
		.replace('.000Z', 'Z');
const summary = (item: IDataObject) => [
	item.event,
	(item.invoice as IDataObject).invoice_id,
	item.previous_status,
];

/** Every invoice status the deployment answers with now, over every customer's invoices. */
async function statusesServed(): Promise<string[]> {
	const statuses = new Set<string>();
	for (const customerId of (sandbox.state.customers as Map<string, IDataObject>).keys()) {
		const response = await fetch(`${front.baseUrl}/customers/${customerId}/invoices?limit=1000`, {
			headers: { 'X-SERVICE-KEY': sandbox.apiKey },
		});
		const page = (await response.json()) as { results: IDataObject[] };
		for (const invoice of page.results) statuses.add(String(invoice.status));
	}
	return [...statuses];
}

test('over All Customers: null for an invoice the first sweep visits after it changed, the API’s own status (OVERDUE, OPEN) for one it had read; each change once', async () => {
	const customer_id = sandbox.fixtures.customerId;
	const issue = (secondsAgo: number) =>
		sandbox.world.issueInvoice({ customer_id, amount: 10, issued_at: isoSecondsAgo(secondsAgo) })
			.invoice_id;
	const overdueThenPaid = issue(600);
	sandbox.world.passDueDate({ invoice_id: overdueThenPaid });
	const openThenPaid = issue(500);
	const openThenOverdue = issue(400);
	const overdueSeenThenPaid = issue(300);
	sandbox.world.passDueDate({ invoice_id: overdueSeenThenPaid });
	const openSeenThenOverdue = issue(200);
	const served = new Set(await statusesServed());
	expect(served).toContain('OVERDUE');
	expect(served).not.toContain('PAST_DUE');

	const trigger = activeTrigger({ apiKey: sandbox.apiKey, baseUrl: front.baseUrl } as Sandbox, {
		events: ['invoicePaid', 'invoiceOverdue'],
		scope: 'all',
	});
	const items: IDataObject[] = [];
	const poll = async () => {
		for (const status of await statusesServed()) served.add(status);
		const { items: emitted, error } = await trigger.poll();
		expect(error).toBeUndefined();
		items.push(...(emitted ?? []));
		return emitted?.map(summary) ?? null;
	};
	// Publishing notes the API's time; the changes come two seconds later, before the first sweep.
	expect(await poll()).toBeNull();
	moveClock(2000);
	sandbox.world.payInvoice({ invoice_id: overdueThenPaid });
	sandbox.world.payInvoice({ invoice_id: openThenPaid });
	sandbox.world.passDueDate({ invoice_id: openThenOverdue });
	expect(await poll()).toEqual([
		['invoicePaid', overdueThenPaid, null],
		['invoicePaid', openThenPaid, null],
		['invoiceOverdue', openThenOverdue, null],
	]);
	// Seen by the first sweep, then changed: the status the API gave then.
	sandbox.world.payInvoice({ invoice_id: overdueSeenThenPaid });
	sandbox.world.passDueDate({ invoice_id: openSeenThenOverdue });
	expect(await poll()).toEqual([
		['invoicePaid', overdueSeenThenPaid, 'OVERDUE'],
		['invoiceOverdue', openSeenThenOverdue, 'OPEN'],
	]);
	expect(await poll()).toBeNull();

	const madeUp = items
		.map((item) => item.previous_status)
		.filter((status) => status !== null && !served.has(String(status)));
	expect(madeUp).toEqual([]);
});
