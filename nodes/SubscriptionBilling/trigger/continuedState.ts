import { watchedCustomer } from './events/invoices';
import type { TriggerSettings } from './parameters';
import type { TriggerState } from './state/triggerState';

/** The section of the state `before` each family of events goes on from; a family without one starts over, as at publishing. */
export function continuedSections(
	before: TriggerState,
	settings: TriggerSettings,
): Pick<TriggerState, 'customerList' | 'invoices'> {
	const { customerList, invoices } = before;
	return {
		customerList,
		invoices:
			invoices?.customer === watchedCustomer(settings.invoiceCustomerId) ? invoices : undefined,
	};
}

/** Whether a poll from the state `saved` goes on with every selected family: none starts over. */
export function goesOnFrom(saved: TriggerState | undefined, settings: TriggerSettings): boolean {
	if (!saved) return false;
	const { customerList, invoices } = continuedSections(saved, settings);
	return (
		(settings.listEvents.length === 0 || customerList !== undefined) &&
		(settings.invoiceEvents.length === 0 || invoices !== undefined)
	);
}
