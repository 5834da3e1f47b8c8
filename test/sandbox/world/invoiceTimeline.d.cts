import type { WorldInvoice } from '../index.cjs';

export interface SandboxRequestInfo {
	method: string;
	path: string;
	query: Record<string, string | string[]>;
}

/** test/sandbox/world/invoiceTimeline.js */
export interface InvoiceTimelineWorld {
	/** A failed payment attempt (default error "card_declined") on an open invoice. */
	failPayment(input: {
		invoice_id: string;
		error?: string;
		amount?: number;
		/** When it was attempted (default: now). */
		paid_at?: string;
	}): WorldInvoice & { payment_id: string; attempts: number };
	/** A paid invoice refunded in full: open again, its payments listed with a negative one added. */
	refundInvoice(input: { invoice_id: string }): WorldInvoice;
	/** A future-dated invoice reaches its issue time. */
	passIssueTime(input: { invoice_id: string }): WorldInvoice;
	/** Runs `action` before the API serves the first (or, once: false, every) matching request. Returns a remover. */
	onRequest(
		matches: (request: SandboxRequestInfo) => boolean,
		action: (request: SandboxRequestInfo) => unknown,
		options?: { once?: boolean },
	): () => void;
	/** Holds the first matching request until release(); `arrived` resolves when it came in. */
	holdRequests(matches: (request: SandboxRequestInfo) => boolean): {
		arrived: Promise<void>;
		release: () => void;
	};
}
