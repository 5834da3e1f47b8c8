import type { IExecutePaginationFunctions, IHttpRequestOptions, INode } from 'n8n-workflow';

/** What one derived key stands for: one run of one node for one item, in one execution. */
export interface KeyScope {
	/** The execution, as it stays when n8n retries it (see executionIdentity). */
	execution: string;
	workflowId: string;
	node: string;
	runIndex: number;
	itemIndex: number;
}

/**
 * Which execution a write belongs to. n8n establishes an execution context once, when an
 * execution starts (its start time, mode and trigger node), and keeps it when the execution is
 * retried from the executions list, while the retry gets a new execution id. Scoping to the
 * context makes a retried execution send the keys of the attempt it retries. Without a context
 * (n8n releases before it existed), the execution id is used: a retried execution then sends new
 * keys.
 */
export function executionIdentity(ctx: IExecutePaginationFunctions): string {
	const context =
		typeof ctx.getExecutionContext === 'function' ? ctx.getExecutionContext() : undefined;
	if (context && typeof context.establishedAt === 'number') {
		const { establishedAt, source, triggerNode, parentExecutionId } = context;
		return `context ${establishedAt} ${source} ${triggerNode?.name ?? ''} ${parentExecutionId ?? ''}`;
	}
	return `execution ${ctx.getExecutionId()}`;
}

/**
 * Which run of the node this is. n8n-core's execution contexts carry it as a public `runIndex`
 * (1.x and 2.x); reading it there spares building a WorkflowDataProxy (with its `$now`) for every
 * write. Releases without it are asked through the proxy's `$runIndex`.
 */
function runIndexOf(ctx: IExecutePaginationFunctions): number {
	const carried = (ctx as { runIndex?: unknown }).runIndex;
	return typeof carried === 'number'
		? carried
		: Number(ctx.getWorkflowDataProxy(ctx.getItemIndex()).$runIndex);
}

/** `node`: the context's node, as the caller already has it (getNode() copies the node each time). */
export function keyScope(ctx: IExecutePaginationFunctions, node: INode): KeyScope {
	return {
		execution: executionIdentity(ctx),
		workflowId: String(ctx.getWorkflow().id ?? ''),
		node: node.id || node.name,
		runIndex: runIndexOf(ctx),
		itemIndex: ctx.getItemIndex(),
	};
}

/**
 * A key for one write: the scope (execution, workflow, node, run, item) and the request (method,
 * path, query and body, keys sorted). Retries inside that run of the node for that item send the
 * same key, so the API applies the write once; another execution, run or item sends another key,
 * so a write asked for again is applied again. A custom key as the scope keys a second write of the
 * operation it was given for (see perform's idempotencyKeyFor).
 */
export function deriveIdempotencyKey(
	scope: KeyScope | { customKey: string },
	options: Pick<IHttpRequestOptions, 'method' | 'url' | 'qs' | 'body'>,
): string {
	const { qs } = options;
	const hasQuery =
		qs !== undefined && qs !== null && typeof qs === 'object' && Object.keys(qs).length > 0;
	const request = `${(options.method ?? 'GET').toUpperCase()} ${options.url}${hasQuery ? `?${stableJson(qs)}` : ''} ${stableJson(options.body)}`;
	return 'n8n-' + hash(`${stableJson(scope)}\n${request}`);
}

function hash(text: string): string {
	const lanes = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b];
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		for (let lane = 0; lane < lanes.length; lane++) {
			lanes[lane] = Math.imul(lanes[lane] ^ code, 0x01000193 + lane * 0x2f);
			lanes[lane] ^= lanes[lane] >>> 15;
		}
	}
	return lanes.map((lane) => (lane >>> 0).toString(16).padStart(8, '0')).join('');
}

function stableJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.keys(value as object)
			.sort()
			.map(
				(key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`,
			);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}
