import type { IDataObject } from 'n8n-workflow';
import type { ReadAccess } from '../../shared/apiAccess';
import type { RecordTable } from '../state/recordTable';
import type { CustomerListState, DetailPass } from '../state/triggerState';
import type { ListSnapshot } from './customerList';
import type { Watched } from '../state/invoiceTable';

export interface PollInput {
	api: ReadAccess;
	/** Time of this poll, used for `detected_at` and to tell whether an invoice is overdue. */
	now: Date;
	/** A first pass (Renewal Due, Compare Detail Fields) that starts in this poll sends no read after this time (epoch ms): publishing stays prompt. */
	learnUntil?: number;
	/** Writes a line to n8n's log, naming the trigger (what a user can read of their own account's figures). */
	note?: (message: string) => void;
	/** Another n8n process left the state this poll starts from (n8n restarted since): when its poll ended (`at`, epoch ms, if known). */
	restarted?: { at?: number };
}

/** The Subscription Gets of one poll's part of the pass (detailSweep.ts). */
export interface DetailReads {
	/** The details read this poll, by subscription id. */
	details: Map<string, IDataObject>;
	/** The subscriptions asked for this poll (a missing detail: gone since it was listed). */
	asked: Set<string>;
	pass: DetailPass;
	/** Renewal Due's first pass was running when this poll started: a date read for the first time is reported only if it entered the window after this moment (epoch ms). */
	renewalsSince: number | undefined;
	/** In Renewal Due's first pass: the subscriptions read for the first time in the pass. */
	firstRead: Set<string>;
}

/** What the customer-list events are asked to report, beyond which events. */
export interface CustomerListSettings {
	/** Subscription Status Changed: only changes to these statuses (none: every change). */
	statuses: string[];
	/** Subscription Ending Soon: days before `ends_at`. */
	endingSoonDays: number;
	/** Subscription Renewal Due: days before `renews_at`. */
	renewalDueDays: number;
	/** Subscription Updated: also compare the detail fields (Subscription Get of running subscriptions). */
	subscriptionDetails: boolean;
	/** Renewal Due and the detail fields: most Subscription Gets one poll sends (a pass spans polls). */
	subscriptionReadsPerPoll: number;
}

/** What every event says of itself (events/catalog.ts lists them all). */
interface EventBase<V extends string> {
	value: V;
	/** The event as the Events parameter names and describes it (its cost is added by its family). */
	name: string;
	summary: string;
	/** The cost, when not the family's. */
	cost?: string;
	/** The record its items carry, under this key (events/itemKeys.ts). */
	record: 'customer' | 'subscription' | 'invoice';
	/** Fetch Test Event with nothing to show: what it looked for, what makes one appear, the item's keys after the IDs. */
	noExample: { lookedFor: string; toSee: string; keys: string };
}

/** A customer-list poll before the details are read: what every event of the family reads. */
export interface ListPollBefore {
	input: PollInput;
	snapshot: ListSnapshot;
	settings: CustomerListSettings;
	previous: CustomerListState | undefined;
	customersBefore: RecordTable | undefined;
	subscriptionsBefore: RecordTable | undefined;
}

/** The poll once the tables of this poll are built; an event keeps what only it remembers in `state`. */
export interface ListPoll extends ListPollBefore {
	customersAfter: RecordTable | undefined;
	subscriptionsAfter: RecordTable | undefined;
	reads: DetailReads | undefined;
	state: CustomerListState;
}

/** An event read from the customer list (GET /customers), which carries every subscription's summary. */
export interface ListEvent<V extends string = string> extends EventBase<V> {
	family: 'customerList';
	/** The columns it compares in the customers table ([]: only its rows); absent: no customers table. */
	customerColumns?: readonly string[];
	/** The same for the subscriptions table. */
	subscriptionColumns?: (settings: CustomerListSettings) => readonly string[];
	/** Reads Subscription Get in the pass over the running subscriptions (detailSweep.ts): `learns` what its first pass only remembers, `starts` whether this poll starts it. */
	pass?: {
		reads: (settings: CustomerListSettings) => boolean;
		learns: 'renewals' | 'details';
		starts: (poll: ListPollBefore) => boolean;
	};
	/** Subscriptions the pass reads first this poll. */
	readFirst?: (poll: ListPollBefore) => string[];
	detect: (poll: ListPoll) => IDataObject[];
	/** Fetch Test Event: its most recent example, state untouched. */
	sample: (
		input: PollInput,
		snapshot: ListSnapshot,
		settings: CustomerListSettings,
	) => Promise<IDataObject | undefined>;
}

/** One invoice as a visit of its customer sees it (events/customerInvoices.ts). */
export interface InvoiceSight {
	invoice: IDataObject;
	/** As watched until now; undefined: not watched. */
	before: Watched | undefined;
	/** Issued within the look-back window, not known before, its issue time come. */
	isNew: boolean;
	detectedAt: string;
	now: Date;
}

/** An event read from customers' invoice lists. */
export interface InvoiceEvent<V extends string = string> extends EventBase<V> {
	family: 'invoices';
	/** The invoices it watches by ID once seen: open ones, and paid ones within the look-back window. Absent: it only sees the newest invoices. */
	watches?: 'open' | 'openAndPaid';
	/** Its items for one invoice (a watching event: an invoice seen before, or new). */
	detect: (sight: InvoiceSight) => IDataObject[];
	/** Fetch Test Event: its item when the invoice is an example of it. */
	sample: (invoice: IDataObject, now: Date) => IDataObject | undefined;
}
