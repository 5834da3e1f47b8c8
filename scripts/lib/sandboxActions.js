'use strict';
// What the demo prints for trying the published trigger examples against the sandbox: a command
// for each example's event on an invoice it suits, and every test-only world action the sandbox has
// (read from the sandbox, so none is left out), each with the fields it takes.

const { worldActions, WORLD_PREFIX } = require('../../test/sandbox/world');

/** The body each world action takes (`?`: optional). */
const ACTION_FIELDS = {
	'create-customer': '{name, external_id?}',
	'create-subscription': '{customer_id, name?, status?}',
	'set-subscription-status': '{subscription_id, status}',
	'null-subscription-customer': '{subscription_id}',
	'issue-invoice': '{customer_id, amount?, issued_at?, due_in_days?}',
	'pay-invoice': '{invoice_id, paid_at?}',
	'pass-due-date': '{invoice_id}',
	'update-customer':
		'{customer_id, name?, legal_name?, external_id?, address?, processor_customer_id?, tax_id?}',
	'pause-subscription': '{subscription_id}',
	'resume-subscription': '{subscription_id, status?}',
	'update-subscription':
		'{subscription_id, ends_at?, renews_at?, ends_in_days?, renews_in_days?, quantity?, …}',
	'fail-payment': '{invoice_id, error?, amount?, paid_at?}',
	'refund-invoice': '{invoice_id}',
	'pass-issue-time': '{invoice_id}',
};

/** An open invoice of the customer, newest first; `withContacts`: only of a subscription with accounts payable emails. */
function openInvoice(sandbox, customerId, { withContacts = false } = {}) {
	const invoices = [...(sandbox.state.invoicesByCustomer.get(customerId) || [])].reverse();
	return invoices.find((invoice) => {
		if (invoice.paidMs !== null || !(invoice.remaining > 0)) return false;
		if (!withContacts) return true;
		const subscription = sandbox.state.subscriptions.get(invoice.subscription_id);
		return Boolean(subscription && subscription.accounts_payable_emails.length > 0);
	});
}

/** The curl command of one world action, on two lines. */
function command(sandbox, action, body) {
	return [
		`curl -X POST ${sandbox.origin}${WORLD_PREFIX}${action} -H 'X-SANDBOX-ADMIN-TOKEN: ${sandbox.adminToken}' \\`,
		`     -H 'Content-Type: application/json' -d '${JSON.stringify(body)}'`,
	];
}

/**
 * The lines to print: each suggestion names its example, the action and its body; `examples` are
 * the published example workflows' names by the event their trigger watches.
 */
function tryLines(sandbox, examples) {
	const customerId = sandbox.fixtures.customerId;
	const suggestions = [
		{
			event: 'invoicePaid',
			action: 'pay-invoice',
			invoice: openInvoice(sandbox, customerId),
			what: 'Make an invoice paid',
		},
		{
			event: 'invoicePaymentFailed',
			action: 'fail-payment',
			invoice: openInvoice(sandbox, customerId, { withContacts: true }),
			what: 'Fail a payment on an invoice whose subscription has accounts payable contacts',
		},
	];
	const lines = [
		'Sandbox actions (a test-only route, with its own admin token); within a minute the example runs, under Executions:',
	];
	for (const { event, action, invoice, what } of suggestions) {
		if (!examples[event] || !invoice) continue;
		lines.push(`  ${what} (${examples[event]}):`);
		lines.push(
			...command(sandbox, action, { invoice_id: invoice.invoice_id }).map((line) => `    ${line}`),
		);
	}
	lines.push('  Every action, POST with its JSON body:');
	for (const name of worldActions())
		lines.push(`    ${name.padEnd(27)} ${ACTION_FIELDS[name] || '{…}'}`);
	return {
		lines,
		suggestions: suggestions.filter(({ event, invoice }) => examples[event] && invoice),
	};
}

module.exports = { tryLines, ACTION_FIELDS };
