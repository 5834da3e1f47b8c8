import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';
import { readAccess } from './shared/apiAccess';
import { testApiCredential } from './shared/credentialTest';
import { REPOSITORY_URL } from './shared/constants';
import { searchCustomers } from './shared/listSearch';
import { logLine } from './shared/logLine';
import { continuedSections, goesOnFrom } from './trigger/continuedState';
import { TRIGGER_SUBTITLE, triggerProperties } from './trigger/description';
import { pollCustomerListEvents } from './trigger/events/customerListFamily';
import { pollInvoiceEvents } from './trigger/events/invoices';
import { withTopLevelIds } from './trigger/events/itemKeys';
import { fetchTestEvent } from './trigger/events/samples';
import type { PollInput } from './trigger/events/types';
import { checkCatchUpStart, triggerSettings, type TriggerSettings } from './trigger/parameters';
import { exclusivePoll, restartedSince } from './trigger/pollLock';
import { schedulerBudgetMs } from './trigger/schedulerBudget';
import { activatedAtStart, isStartupPoll } from './trigger/startupPoll';
import {
	addedEvents,
	hasUnreadableState,
	isLearning,
	readTriggerState,
	savedTriggerState,
	writeTriggerState,
	type TriggerState,
} from './trigger/state/triggerState';

export class SubscriptionBillingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Subscription Billing Trigger',
		name: 'subscriptionBillingTrigger',
		icon: {
			light: 'file:../../icons/subscriptionBilling.svg',
			dark: 'file:../../icons/subscriptionBilling.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: TRIGGER_SUBTITLE,
		// n8n's nodes panel lists this trigger and the action node as one entry and shows this
		// description for both, above their actions and triggers: it says what the pair does.
		description:
			'Manage customers, subscriptions, invoices, payment methods and usage of the Subscription Billing Service, and start workflows when they change',
		documentationUrl: `${REPOSITORY_URL}#trigger-subscription-billing-trigger`,
		defaults: { name: 'Subscription Billing Trigger' },
		polling: true,
		builderHint: {
			searchHint:
				'Starts a workflow on billing events by polling (the API has no webhooks): new invoices, payments, failed payments, overdue invoices, new and changed customers and subscriptions, ends and renewals. Pick every event needed in Events; each item names its event and carries the IDs the next Subscription Billing step takes',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-subscription-billing.subscriptionBilling',
					relationHint:
						'Acts on what the trigger reports: gets the subscription or customer, records usage, completes milestones',
				},
			],
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'subscriptionBillingApi', required: true, testedBy: 'subscriptionBillingApiTest' },
		],
		properties: triggerProperties,
	};

	methods = {
		listSearch: { searchCustomers },
		credentialTest: { subscriptionBillingApiTest: testApiCredential },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const goesOn = () => goesOnFrom(savedTriggerState(this), triggerSettings(this));
		if (this.getMode() !== 'manual' && isStartupPoll(this, goesOn)) {
			logLine(
				this,
				'info',
				"n8n started: what changed while it was stopped is reported from the next scheduled poll on, each change once. That poll goes on from the state n8n saved last (after publishing, or after this trigger's last poll that emitted items), reading again what the polls since then had read. This poll reads nothing, so that the workflows n8n activates after this one are not held.",
			);
			return null;
		}
		// One poll of this trigger at a time: an overlapping one emits nothing (trigger/pollLock.ts).
		return await exclusivePoll(this, async () => {
			const settings = triggerSettings(this);
			const items =
				this.getMode() === 'manual'
					? await fetchTestEvent({ api: await readAccess(this), now: new Date() }, settings)
					: await pollOnce(this, settings);
			return items.length > 0 ? [this.helpers.returnJsonArray(items.map(withTopLevelIds))] : null;
		});
	}
}

/**
 * How long a poll that starts a first pass goes on with it (its reads stop then, and it goes on step
 * after step until then): publishing (n8n awaits the activation poll, and 2.41.1's publication
 * service gives it 84 s) and an edit stay prompt at any size.
 */
const LEARNING_BUDGET_MS = 10_000;

/**
 * One scheduled poll: each family of selected events reads its source once (the customer list
 * once for both families); the state of every family is written together once all of them
 * succeeded (trigger/state/triggerState.ts). An event added to a family's selection only learns at first, the
 * others carry on.
 *
 * A poll that starts a first pass of Renewal Due or Compare Detail Fields (publishing, an edit) goes
 * on with it, step after step as if polled again, for up to LEARNING_BUDGET_MS: without durable
 * cursors n8n saves the state only after the activation poll and after a poll that emits, so what
 * that poll learns is kept; the rest of the pass goes on in the scheduled polls (docs/trigger.md,
 * restarts).
 */
async function pollOnce(ctx: IPollFunctions, settings: TriggerSettings): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	if (hasUnreadableState(ctx))
		logLine(
			ctx,
			'warn',
			'the state saved in the node is not one this version of the package reads (another version saved it): the trigger starts over as when published, and reports what changes from this poll on.',
		);
	let restarted = restartedSince(ctx);
	let state = readTriggerState(ctx);
	// Invoice events that start now from a chosen moment: checked before any request. Only when
	// published or edited: invoice events that start over as n8n starts (no state n8n saved, or
	// another version's) start from then, as a catch-up run again would report its changes twice.
	if (settings.invoicesFrom !== undefined && !continuedSections(state, settings).invoices) {
		if (activatedAtStart(ctx)) settings = { ...settings, invoicesFrom: undefined };
		else checkCatchUpStart(ctx, settings.invoicesFrom, Date.now());
	}
	// A poll that continues a first pass takes one step of it.
	const learnUntil = isLearning(state) ? undefined : Date.now() + LEARNING_BUDGET_MS;
	const deadline = Math.min(schedulerDeadline(ctx) ?? Infinity, learnUntil ?? 0);
	let stepMs = 0;
	do {
		const started = Date.now();
		const step = await pollStep(
			{
				api: await readAccess(ctx),
				now: new Date(started),
				learnUntil,
				note: (message) => logLine(ctx, 'info', message),
				restarted,
			},
			state,
			settings,
		);
		items.push(...step.items);
		state = step.state;
		stepMs = Date.now() - started;
		restarted = undefined;
	} while (isLearning(state) && Date.now() + stepMs < deadline);
	writeTriggerState(ctx, state);
	return items;
}

/**
 * When n8n's scheduler abandons this poll (durable cursors: trigger/schedulerBudget.ts; every poll
 * that ends in time is saved, emitting or not): learning goes on in the next poll instead.
 * Undefined for every other poll, which n8n lets run to its end.
 */
function schedulerDeadline(ctx: IPollFunctions): number | undefined {
	const budget = schedulerBudgetMs(ctx);
	return budget === undefined ? undefined : Date.now() + budget;
}

/** One reading of each family's source from the state `before`: its items and the state after. */
async function pollStep(
	input: PollInput,
	before: TriggerState,
	settings: TriggerSettings,
): Promise<{ items: IDataObject[]; state: TriggerState }> {
	const items: IDataObject[] = [];
	const after: TriggerState = { format: 2 };
	const { listEvents, invoiceEvents, invoiceCustomerId } = settings;
	const continued = continuedSections(before, settings);
	if (listEvents.length > 0) {
		const previous = continued.customerList;
		const outcome = await pollCustomerListEvents(
			input,
			previous,
			listEvents,
			settings,
			addedEvents(previous?.events, listEvents),
		);
		items.push(...outcome.items);
		after.customerList = outcome.state;
	}
	if (invoiceEvents.length > 0) {
		const previous = continued.invoices;
		const outcome = await pollInvoiceEvents(input, previous, invoiceEvents, invoiceCustomerId, {
			lookBackMs: settings.lookBackMs,
			requestsPerPoll: settings.requestsPerPoll,
			added: addedEvents(previous?.events, invoiceEvents),
			customerListRead: listEvents.length > 0,
			from: settings.invoicesFrom,
		});
		items.push(...outcome.items);
		after.invoices = outcome.state;
	}
	return { items, state: after };
}
