import type { FieldTree, OutputDefinition } from '../execute/output';
import { simplifyCustomer, simplifyInvoice, simplifySubscription } from './simplifiers';

/** The fields the contract documents for each result that Output → Selected Fields applies to. */
const address: FieldTree = { line_1: true, line_2: true, city: true, region: true, zip: true, country: true };

const person: FieldTree = { person_id: true, first_name: true, last_name: true, email: true, role: true, preferred_name: true };

const CUSTOMER_FIELDS: FieldTree = {
	customer_id: true,
	name: true,
	legal_name: true,
	external_id: true,
	address,
	processor_customer_id: true,
	tax_id: true,
	subscriptions: 'list',
};

const INVOICE_FIELDS: FieldTree = {
	invoice_id: true,
	subscription_id: true,
	customer_id: true,
	invoice_number: true,
	due_at: true,
	bill_at: true,
	issued_at: true,
	status: true,
	fully_paid_at: true,
	grand_total: true,
	remaining_amount: true,
	currency: true,
	is_renewal_estimate: true,
	customer_name: true,
	time_zone: true,
	payments: 'list',
	attachments: 'list',
	line_items: 'list',
	metadata: 'any',
};

const SUBSCRIPTION_FIELDS: FieldTree = {
	subscription_id: true,
	status: true,
	stage: true,
	transaction_method: true,
	starts_at: true,
	ends_at: true,
	renews_at: true,
	terminates_at: true,
	time_zone: true,
	billing_frequency: true,
	currency: true,
	payment_terms: true,
	auto_renews: true,
	renewal_total: true,
	renewal_contract_period: true,
	sub_total: true,
	grand_total: true,
	grand_total_details: 'any',
	line_items: 'list',
	billing_schedule: 'list',
	customer: CUSTOMER_FIELDS,
	crm_account_id: true,
	crm_opportunity_id: true,
	point_of_contact: person,
	signatory_user: person,
	accounts_payable_emails: 'list',
	products: 'list',
	pauses: 'list',
	phases: 'list',
	metadata: 'any',
	attributed_to: { user_id: true, first_name: true, last_name: true, email: true },
	purchase_order: { code: true },
};

export const customerOutput: OutputDefinition = {
	noun: 'customer',
	simplify: simplifyCustomer,
	simplifiedFields: 'ID, names, external and processor IDs, tax ID, country, the number of subscriptions in any status (all_subscriptions_count), and the number and IDs of the active ones',
	documented: CUSTOMER_FIELDS,
	example: 'customer_id, name, address.city',
	parameters: { output: 'customerOutput', fields: 'customerFields' },
};

export const invoiceOutput: OutputDefinition = {
	noun: 'invoice',
	simplify: simplifyInvoice,
	simplifiedFields:
		'ID, number, status, customer, subscription, dates, grand total, remaining amount and currency (amounts as the API returns them)',
	documented: INVOICE_FIELDS,
	example: 'invoice_number, status, grand_total, currency',
	parameters: { output: 'invoiceOutput', fields: 'invoiceFields' },
};

export const subscriptionOutput: OutputDefinition = {
	noun: 'subscription',
	simplify: simplifySubscription,
	simplifiedFields:
		'ID, status, stage, dates, renewal (renewal_total_cents: in cents of the currency, as the API gives it), grand total (as the API gives it), currency, customer and the current pause',
	documented: SUBSCRIPTION_FIELDS,
	example: 'subscription_id, status, customer.name',
	parameters: { output: 'subscriptionOutput', fields: 'subscriptionFields' },
};
