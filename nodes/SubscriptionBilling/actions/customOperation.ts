import {
	NodeConnectionTypes,
	sleep,
	type DeclarativeRestApiSettings,
	type IExecuteFunctions,
	type IExecutePaginationFunctions,
	type IHttpRequestOptions,
	type INodeExecutionData,
	type NodeExecutionHint,
} from 'n8n-workflow';
import type { OperationDefinition } from './operation';
import type { ResourceDefinition } from './resource';
import { perform } from './perform';
import { isPaged, preSendSteps } from './operation';
import { runCost, type CostReport } from './runCost';

/** Turns what the items of one run cost into the hints the run shows, when they help. */
export type HintsOf = (costs: CostReport[], itemCount: number) => NodeExecutionHint[];

/** The items, as RoutingNode reads them: from the main input, or the tool input when run as an agent's tool. */
function inputItems(ctx: IExecuteFunctions): INodeExecutionData[] {
	const main = ctx.getInputData();
	return main.length > 0 ? main : ctx.getInputData(0, NodeConnectionTypes.AiTool);
}

/** One item's context, as n8n's RoutingNode hands it to preSend steps and the request step. */
function itemContext(ctx: IExecuteFunctions, items: INodeExecutionData[], itemIndex: number, costs: CostReport[]): IExecutePaginationFunctions {
	return Object.create(ctx, {
		getItemIndex: { value: () => itemIndex },
		getInputData: { value: () => items[itemIndex] },
		getNodeParameter: { value: (name: string, fallback?: unknown, options?: object) => ctx.getNodeParameter(name, itemIndex, fallback, options) },
		getCredentials: { value: (type: string) => ctx.getCredentials(type, itemIndex) },
		[runCost]: { value: (cost: CostReport) => costs.push({ ...cost, itemIndex }) },
	}) as IExecutePaginationFunctions;
}

/** The request RoutingNode starts from: the node's defaults and the Request Options it applies itself. */
function firstRequest(ctx: IExecutePaginationFunctions, definition: OperationDefinition): IHttpRequestOptions {
	const { proxy, allowUnauthorizedCerts } = ctx.getNodeParameter('requestOptions', {}) as { proxy?: string; allowUnauthorizedCerts?: boolean };
	const options: IHttpRequestOptions = { method: definition.method, url: definition.path, qs: {}, body: {}, headers: { Accept: 'application/json' } };
	if (proxy) {
		const url = new URL(proxy);
		options.proxy = { host: url.hostname, port: Number(url.port), protocol: url.protocol.replace(/:$/, '') || undefined };
		if (url.username) options.proxy.auth = { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
	}
	if (allowUnauthorizedCerts) options.skipSslCertificateValidation = true;
	return options;
}

/**
 * An operation of the declarative node run as one of its custom operations (n8n runs those
 * instead of the routing, with the same parameters): n8n's engine drops the execution hints of a
 * declarative node's request step (n8n-core 2.8 and 2.41 return only the data of a routed run),
 * while a custom operation's hints reach the run's data and the output panel. Each item goes
 * through the operation's preSend steps and request step as the routing sends it; the operation
 * must take no parameter that routing sends (its requests are built from method and path).
 */
export function asCustomOperation(definition: OperationDefinition, hintsOf: HintsOf) {
	const preSend = preSendSteps(definition);
	const requestStep = perform(definition.kind, definition.shape, isPaged(definition), definition.lookup);
	return async function (this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = inputItems(this);
		const costs: CostReport[] = [];
		const runItem = async (itemIndex: number) => {
			const ctx = itemContext(this, items, itemIndex, costs);
			let options = firstRequest(ctx, definition);
			for (const step of preSend) options = await step.call(ctx, options);
			return await requestStep.call(ctx, { options } as DeclarativeRestApiSettings.ResultOptions);
		};
		// Request Options → Batching, as RoutingNode applies it: a pause before each batch of items after the first
		const { batching } = this.getNodeParameter('requestOptions', 0, {}) as { batching?: { batch?: { batchSize?: number; batchInterval?: number } } };
		const batchSize = Math.max(1, batching?.batch?.batchSize ?? 1);
		const batchInterval = batching?.batch?.batchInterval ?? 0;
		const runs: Array<Promise<INodeExecutionData[]>> = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			if (itemIndex > 0 && batchInterval > 0 && itemIndex % batchSize === 0) await sleep(batchInterval);
			runs.push(runItem(itemIndex));
		}
		const settled = await Promise.allSettled(runs);
		const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
		if (failed) throw failed.reason;
		const hints = hintsOf(costs, items.length);
		if (hints.length > 0) this.addExecutionHints(...hints);
		return [settled.flatMap((result) => (result as PromiseFulfilledResult<INodeExecutionData[]>).value)];
	};
}

type CustomOperation = ReturnType<typeof asCustomOperation>;

/** The node's custom operations: every operation that gives hints, by resource and operation. */
export function customOperationsOf(resources: ResourceDefinition[]): Record<string, Record<string, CustomOperation>> {
	const byResource: Record<string, Record<string, CustomOperation>> = {};
	for (const resource of resources) {
		for (const definition of resource.operations) {
			if (!definition.hints) continue;
			byResource[resource.value] = { ...byResource[resource.value], [definition.value]: asCustomOperation(definition, definition.hints) };
		}
	}
	return byResource;
}
