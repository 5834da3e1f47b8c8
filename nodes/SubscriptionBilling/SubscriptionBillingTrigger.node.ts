import { NodeConnectionTypes, type IDataObject, type INodeExecutionData, type INodeType, type INodeTypeDescription, type IPollFunctions } from 'n8n-workflow';
import { readAccess } from './shared/apiAccess';
import { searchCustomers } from './shared/listSearch';
import { triggerProperties } from './trigger/description';
import { pollAllCustomersInvoices, pollCustomerInvoices, sampleInvoice, type InvoiceEvent } from './trigger/events/invoices';
import { pollNewCustomers, pollNewSubscriptions } from './trigger/events/newRecords';
import { sampleFromCustomerList } from './trigger/events/samples';
import { pollStatusChanges } from './trigger/events/subscriptionStatus';
import type { PollInput, PollOutcome, TriggerEvent } from './trigger/events/types';
import { checkedCustomerId } from './trigger/parameters';
import { exclusivePoll } from './trigger/pollLock';
import { readState, writeState } from './trigger/state';

export class SubscriptionBillingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Subscription Billing Trigger',
		name: 'subscriptionBillingTrigger',
		icon: { light: 'file:../../icons/subscriptionBilling.svg', dark: 'file:../../icons/subscriptionBilling.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["event"] }}',
		description: 'Starts the workflow when customers, subscriptions or invoices change in the Subscription Billing Service',
		defaults: { name: 'Subscription Billing Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'subscriptionBillingApi', required: true }],
		properties: triggerProperties,
	};

	methods = {
		listSearch: { searchCustomers },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await exclusivePoll(this, async () => {
			const event = this.getNodeParameter('event') as TriggerEvent;
			const statuses = event === 'subscriptionStatusChanged' ? (this.getNodeParameter('statuses', []) as string[]) : [];
			const isInvoiceEvent = event === 'newInvoice' || event === 'invoicePaid' || event === 'invoiceOverdue' || event === 'invoicePaymentFailed';
			const customerId = isInvoiceEvent && this.getNodeParameter('scope') === 'customer' ? checkedCustomerId(this) : undefined;
			const api = await readAccess(this);
			const now = new Date();

			if (this.getMode() === 'manual') {
				const input: PollInput = { api, previous: undefined, now };
				const items = isInvoiceEvent
					? await sampleInvoice(input, event, customerId)
					: await sampleFromCustomerList(input, event, statuses);
				return items.length > 0 ? [this.helpers.returnJsonArray(items)] : null;
			}

			// Settings the state belongs to; the status filter only filters what is emitted.
			const watching = JSON.stringify({ event, customerId: customerId ?? (isInvoiceEvent ? '*' : undefined) });
			const previous = readState<IDataObject>(this, watching);
			const input: PollInput = { api, previous, now };
			let outcome: PollOutcome;
			if (event === 'newCustomer') outcome = await pollNewCustomers(input);
			else if (event === 'newSubscription') outcome = await pollNewSubscriptions(input);
			else if (event === 'subscriptionStatusChanged') outcome = await pollStatusChanges(input, statuses);
			else if (customerId) outcome = await pollCustomerInvoices(input, event as InvoiceEvent, customerId);
			else outcome = await pollAllCustomersInvoices(input, event as InvoiceEvent);
			writeState(this, watching, outcome.state);
			return outcome.items.length > 0 ? [this.helpers.returnJsonArray(outcome.items)] : null;
		});
	}
}
