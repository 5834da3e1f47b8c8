import type { IDataObject } from 'n8n-workflow';
import type { ReadAccess } from '../../shared/apiAccess';

/** The event values of the trigger's Event parameter. */
export type TriggerEvent =
	| 'newCustomer'
	| 'newSubscription'
	| 'subscriptionStatusChanged'
	| 'newInvoice'
	| 'invoicePaid'
	| 'invoiceOverdue'
	| 'invoicePaymentFailed';

/** One poll of one event family: the items to emit and the state to remember for the next poll. */
export interface PollOutcome {
	items: IDataObject[];
	state: IDataObject;
}

export interface PollInput {
	api: ReadAccess;
	/** Undefined on the first poll: remember where things stand, emit nothing. */
	previous: IDataObject | undefined;
	/** Time of this poll, used for `detected_at` and to tell whether an invoice is overdue. */
	now: Date;
}
