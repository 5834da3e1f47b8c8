/**
 * What the demo prints for trying the published trigger examples against the sandbox
 * (scripts/lib/sandboxActions.js): every world action the sandbox has, and for the invoice-paid and
 * dunning examples a command that works as printed, on an invoice that suits the example.
 */
import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from './helpers/billing.cjs';

const { tryLines, ACTION_FIELDS } = require('../scripts/lib/sandboxActions') as {
	tryLines: (sandbox: unknown, examples: Record<string, string>) => { lines: string[] };
	ACTION_FIELDS: Record<string, string>;
};
const { worldActions } = require('./sandbox/world') as { worldActions: () => string[] };

const sandbox = useSandbox();
const EXAMPLES = {
	invoicePaid: 'Billing: invoice paid message',
	invoicePaymentFailed: 'Billing: dunning message when a payment fails',
};

/** The curl commands in the printed lines, as the request each sends. */
function commands(lines: string[]): Array<{ url: string; token: string; body: IDataObject }> {
	const text = lines.join('\n').replace(/\\\n\s*/g, ' ');
	return [
		...text.matchAll(
			/curl -X POST (\S+) -H 'X-SANDBOX-ADMIN-TOKEN: (\S+)'\s+-H 'Content-Type: application\/json' -d '([^']+)'/g,
		),
	].map(([, url, token, body]) => ({
		url,
		token,
		body: JSON.parse(body) as IDataObject,
	}));
}

test('every world action of the sandbox is listed with the fields it takes, the one a failed payment needs included', () => {
	const { lines } = tryLines(sandbox, EXAMPLES);
	expect(worldActions()).toContain('fail-payment');
	for (const action of worldActions()) {
		expect(ACTION_FIELDS[action]).toMatch(/^\{.+\}$/);
		expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^ +${action} +\\{`)));
	}
});

test('the printed commands work as printed: one pays an invoice, the other fails a payment on an invoice whose subscription has accounts payable contacts', async () => {
	const { lines } = tryLines(sandbox, EXAMPLES);
	expect(lines.join('\n')).toContain(`(${EXAMPLES.invoicePaymentFailed})`);
	const [pay, fail] = commands(lines);
	expect(pay.url).toBe(`${sandbox.baseUrl.replace(/\/api\/v2$/, '')}/__sandbox/world/pay-invoice`);
	expect(fail.url).toMatch(/\/__sandbox\/world\/fail-payment$/);
	const invoices = sandbox.state.invoicesById as Map<string, IDataObject>;
	const subscriptions = sandbox.state.subscriptions as Map<string, IDataObject>;
	const failed = invoices.get(String(fail.body.invoice_id))!;
	expect(
		(subscriptions.get(String(failed.subscription_id))!.accounts_payable_emails as string[]).length,
	).toBeGreaterThan(0);
	for (const { url, token, body } of [pay, fail]) {
		const answer = await fetch(url, {
			method: 'POST',
			headers: { 'X-SANDBOX-ADMIN-TOKEN': token, 'Content-Type': 'application/json' },
			body: JSON.stringify(body),
		});
		expect(answer.status).toBe(200);
	}
	expect(invoices.get(String(pay.body.invoice_id))!.paidMs).not.toBeNull();
	expect((failed.paymentLog as IDataObject[]).map((payment) => payment.error)).toEqual([
		'card_declined',
	]);
});

test('without the dunning example published, no failed-payment command is suggested', () => {
	const { lines } = tryLines(sandbox, { invoicePaid: EXAMPLES.invoicePaid });
	expect(commands(lines).map(({ url }) => url.split('/').at(-1))).toEqual(['pay-invoice']);
});
