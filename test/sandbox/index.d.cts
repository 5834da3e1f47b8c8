// Types of the Subscription Billing API v2 sandbox (implemented in index.js, CommonJS).
import type { InvoiceTimelineWorld } from './world/invoiceTimeline.cjs';

export type FaultKind =
	| '429'
	| '500'
	| '502'
	| '503'
	| 'drop'
	| 'slow'
	| 'truncate'
	| ExtraFaultKind;
/** Only injected when listed in `kinds`: 403/409/422/504 JSON errors, 200 with HTML, 500 with an empty body. */
export type ExtraFaultKind = '403' | '409' | '422' | '504' | 'html' | 'empty';

export interface FaultConfig {
	/** Probability 0..1 that an eligible request gets a fault (seeded PRNG). */
	rate?: number;
	/** Request numbers n (1-based, as in `requests[i].n`) that get a fault. */
	on?: number[];
	/** Kinds to pick from (default: the seven transient ones). Same length as `on`: the i-th request gets the i-th kind. */
	kinds?: Array<FaultKind | 429 | 500 | 502 | 503>;
	seed?: number;
	/** Value of the Retry-After header of 429/503 (default 1). */
	retryAfterSeconds?: number;
	/** Delay of 'slow' (default 5000). */
	slowMs?: number;
	/** Only requests whose pathname matches are eligible. */
	onlyPaths?: RegExp;
}

export interface SeedOptions {
	/** Number of customers (default 12, minimum 4). */
	customers?: number;
	/** Invoices of the big customer (default 250). */
	bigCustomerInvoices?: number;
	/**
	 * Open invoices a customer (over 0, at most 30; default none: each subscription's schedule, the
	 * last invoice open): customers 2 on are invoiced every 30 / openInvoices days on net-30 terms
	 * and pay each on its due date, the last 30 days' payments seeded (seed.js cadenceInvoices).
	 */
	openInvoices?: number;
	/** PRNG seed (default 1). */
	seed?: number;
}

export interface LimitsConfig {
	/** Every answer is held this long after the request arrived (default 0). */
	latencyMs?: number;
	/** Plus a uniform 0..jitterMs (seeded). */
	jitterMs?: number;
	/** Token bucket per API key: requests per second (default 0: no limit). Over it: 429 with Retry-After. */
	ratePerSecond?: number;
	/** Tokens the bucket holds (default: ratePerSecond, one second's worth). */
	burst?: number;
	/** Requests in flight over all keys (default 0: no cap). One more: 429 at once, Retry-After: 1. */
	maxInFlight?: number;
	seed?: number;
}

export interface LimitStats {
	inFlight: number;
	maxInFlightSeen: number;
	/** 429s sent by the rate limit. */
	limited: number;
	/** 429s sent by the cap on requests in flight. */
	rejectedInFlight: number;
}

export interface SandboxOptions {
	/** Latency and rate limits (off by default). */
	limits?: LimitsConfig | null;
	host?: string;
	port?: number;
	apiKey?: string;
	/** Token of the test-only world routes, POST /__sandbox/world/<action> (header X-SANDBOX-ADMIN-TOKEN). */
	adminToken?: string;
	seed?: SeedOptions;
	faults?: FaultConfig | null;
	/** Largest page a list answers with, whatever `limit` asks (default 1000, the API's maximum). */
	maxPageSize?: number;
	/** The scheme of the links the sandbox writes (default 'http'; 'https' behind a TLS front). */
	linkScheme?: 'http' | 'https';
}

export interface RecordedRequest {
	n: number;
	method: string;
	/** Raw pathname as received (still percent-encoded). */
	path: string;
	rawQuery: string;
	/** A key given several times maps to an array of its values. */
	query: Record<string, string | string[]>;
	headers: Record<string, string | string[] | undefined>;
	/** Media type without parameters, lower-cased (undefined without Content-Type). */
	contentType: string | undefined;
	rawBody: string;
	body: any;
	/** Status sent; null when nothing was sent (drop, or still pending). */
	status: number | null;
	fault: FaultKind | undefined;
	/** true when the reply was an idempotent replay. */
	replayed?: boolean;
	/** performance.now() when the request arrived. */
	receivedAt: number;
	/** performance.now() when the answer was sent (undefined: not yet, or none). */
	answeredAt?: number;
}

export interface Fixtures {
	today: string;
	customerId: string;
	customerName: string;
	customerExternalId: string;
	processorCustomerId: string;
	customerInvoiceCount: number;
	invoiceId: string;
	invoiceNumber: string;
	bigCustomerId: string;
	bigCustomerName: string;
	bigCustomerInvoices: number;
	customerCount: number;
	searchName: string;
	searchNameMatches: number;
	subscriptionId: string;
	noPhasesSubscriptionId: string;
	pausedSubscriptionId: string;
	openOrderSubscriptionId: string;
	noPaymentMethodSubscriptionId: string;
	recastOrderId: string;
	deletedRecastOrderId: string;
	upgradeOrderId: string;
	usageTransactionId: string;
	usageBrickId: string;
	seatsBrickId: string;
	addOnBrickId: string;
	otherPlanBrickId: string;
	paymentMethodId: string;
	bankPaymentMethodId: string;
	defaultPaymentMethodId: string;
	foreignPaymentMethodId: string;
	planId: string;
	otherPlanId: string;
	milestoneId: string;
	milestoneBrickId: string;
	finishedMilestoneSubscriptionId: string;
	finishedMilestoneId: string;
}

export interface SandboxState {
	today: string;
	customers: Map<string, any>;
	subscriptions: Map<string, any>;
	plans: Map<string, any>;
	bricks: Map<string, any>;
	paymentMethods: Map<string, any>;
	orders: Map<string, any>;
	milestones: Map<string, any>;
	usage: Map<string, any>;
	invoicesByCustomer: Map<string, any[]>;
	invoicesById: Map<string, any>;
	[key: string]: any;
}

export interface Sandbox {
	/** http://127.0.0.1:<port>/api/v2 (no trailing slash) */
	readonly baseUrl: string;
	readonly origin: string;
	readonly port: number;
	readonly apiKey: string;
	readonly requests: RecordedRequest[];
	readonly requestCount: number;
	readonly state: SandboxState;
	readonly fixtures: Fixtures;
	readonly adminToken: string;
	/** Test-only changes to the world (world.js): the same actions as POST /__sandbox/world/<action>. */
	readonly world: SandboxWorld;
	clearRequests(): void;
	reset(): void;
	setFaults(config: FaultConfig | null): void;
	setLimits(config: LimitsConfig | null): void;
	readonly limits: { readonly config: Required<LimitsConfig>; stats(): LimitStats };
	/** How often each write (method, path and body as received) was applied; not replays, not errors. */
	readonly applied: {
		readonly distinct: number;
		doubled(): Array<{ identity: string; count: number }>;
	};
	close(): Promise<void>;
}

export interface WorldInvoice {
	invoice_id: string;
	invoice_number: string;
	customer_id: string;
	status: string;
}

export interface SandboxWorld extends InvoiceTimelineWorld {
	createCustomer(input: { name: string; external_id?: string }): {
		customer_id: string;
		name: string;
	};
	createSubscription(input: { customer_id: string; name?: string; status?: string }): {
		subscription_id: string;
		customer_id: string;
		status: string;
	};
	setSubscriptionStatus(input: { subscription_id: string; status: string }): {
		subscription_id: string;
		previous_status: string;
		status: string;
	};
	/** An open invoice issued now (or at issued_at), due due_in_days later (default 30). */
	issueInvoice(input: {
		customer_id: string;
		amount?: number;
		issued_at?: string;
		due_in_days?: number;
	}): WorldInvoice;
	payInvoice(input: { invoice_id: string; paid_at?: string }): WorldInvoice;
	/** Due one second ago and, when unpaid, PAST_DUE. */
	passDueDate(input: { invoice_id: string }): WorldInvoice;
	/** From now on the subscription's detail answers `customer: null`. */
	nullSubscriptionCustomer(input: { subscription_id: string }): {
		subscription_id: string;
		customer: null;
	};
	// world/customerChanges.js
	updateCustomer(input: {
		customer_id: string;
		name?: string;
		legal_name?: string | null;
		external_id?: string | null;
		address?: Record<string, string | null> | null;
		processor_customer_id?: string | null;
		tax_id?: string | null;
	}): { customer_id: string; changed: string[] };
	pauseSubscription(input: { subscription_id: string }): {
		subscription_id: string;
		previous_status: string;
		status: string;
	};
	resumeSubscription(input: { subscription_id: string; status?: 'ACTIVE' | 'TERMINATING' }): {
		subscription_id: string;
		previous_status: string;
		status: string;
	};
	/** Dates as YYYY-MM-DD, or ends_in_days / renews_in_days from today (UTC); quantity: of the first line item. */
	updateSubscription(input: {
		subscription_id: string;
		name?: string;
		starts_at?: string;
		ends_at?: string;
		ends_in_days?: number;
		renews_at?: string | null;
		renews_in_days?: number;
		auto_renews?: boolean;
		quantity?: number;
	}): { subscription_id: string; changed: string[] };
}

export const DEFAULT_API_KEY: string;
export const DEFAULT_ADMIN_TOKEN: string;
export const SEED_TODAY: string;
export const FAULT_KINDS: FaultKind[];
export function startSandbox(options?: SandboxOptions): Promise<Sandbox>;

/** Deployments that differ from the contract where it is silent (deployments.js): each varies one thing. */
export type DeploymentName =
	| 'contract'
	| 'relative-links'
	| 'internal-links'
	| 'no-next-links'
	| 'repeated-next'
	| 'link-header'
	| 'not-found-past-end'
	| 'added-at-head'
	| 'page-cap-refuse'
	| 'page-cap-clamp'
	| 'gateway-statuses'
	| 'gateway-pages'
	| 'rate-limit-http-date'
	| 'rate-limit-no-retry-after'
	| 'gzip'
	| 'deflate'
	| 'tiny-chunks'
	| 'cut-writes'
	| 'unknown-fields-and-offsets'
	| 'silent';

export interface DeploymentConfig {
	links?: 'relative' | 'internal' | 'outside' | 'none' | 'repeat';
	internalOrigin?: string;
	/** Paging by a Link header only: the envelope without next, previous and count. */
	linkHeader?: boolean;
	/** A full page always links a next page; an empty page after the first is a 404 ERR_NOT_FOUND "Invalid page". */
	pastEnd?: 'not-found';
	/** Lists gain a record at their head once their first page was read: a later page is the API's page one place earlier. */
	addedAtHead?: boolean;
	/** Pages at this offset or more are answered 404 with an HTML page, not forwarded. */
	notFoundFrom?: number;
	pageCap?: { size: number; over: 'refuse' | 'clamp' };
	statuses?: 'gateway';
	gatewayPages?: boolean;
	rateLimit?: 'http-date' | 'none';
	compression?: 'gzip' | 'deflate';
	chunkBytes?: number;
	cutWrites?: boolean;
	decorate?: boolean;
	silent?: boolean;
}

export interface Deployment {
	readonly config: DeploymentConfig & { name: string };
	/** http://127.0.0.1:<port>/api/v2 */
	readonly baseUrl: string;
	readonly origin: string;
	/** What the client sent, in arrival order, and how the front answered ("201", "502 (not forwarded)"). */
	readonly requests: Array<{
		method: string;
		url: string;
		headers: Record<string, string | string[] | undefined>;
		answeredWith?: string;
	}>;
	openConnections(): Promise<number>;
	clear(): void;
	close(): Promise<void>;
}

export const DEPLOYMENTS: Record<DeploymentName, DeploymentConfig>;
export function startDeployment(
	sandbox: Sandbox,
	variant: DeploymentName | DeploymentConfig,
): Promise<Deployment>;
