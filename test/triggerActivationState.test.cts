/**
 * With durable cursors n8n does not save the state of an activation poll that emits nothing, and
 * runs each scheduled poll on a Workflow built afresh from what it saved (test/harness/poll.cts):
 * what the activation poll learned reaches the first scheduled poll only through what
 * trigger/pollLock.ts holds in memory (`latest`, docs/trigger.md). A state held per activation
 * instead (the PollContext n8n builds for it) would be lost there.
 */
import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from './helpers/billing.cjs';
import { activeTrigger } from './helpers/trigger.cjs';

const sandbox = useSandbox();

test("with durable cursors, changes between publishing and the first scheduled poll (the activation poll's state not saved): each once", async () => {
	const open = sandbox.world.issueInvoice({ customer_id: sandbox.fixtures.customerId, amount: 31 });
	const trigger = activeTrigger(
		sandbox,
		{ events: ['invoicePaid', 'newCustomer'], scope: 'all', requestsPerPoll: 10 },
		undefined,
		{ durableCursors: true },
	);
	expect((await trigger.activate()).items).toBeNull();
	expect(trigger.saved).toEqual({});
	sandbox.world.payInvoice({ invoice_id: open.invoice_id });
	const created = sandbox.world.createCustomer({ name: 'Between publishing and the first poll' });
	const reported: string[] = [];
	for (let poll = 0; poll < 8; poll++) {
		const { items, error } = await trigger.poll();
		if (error) throw error;
		reported.push(
			...(items ?? []).map(
				(item: IDataObject) =>
					`${String(item.event)} ${String(item.invoice_id ?? item.customer_id)}`,
			),
		);
	}
	expect(reported.sort()).toEqual(
		[`invoicePaid ${open.invoice_id}`, `newCustomer ${created.customer_id}`].sort(),
	);
});
