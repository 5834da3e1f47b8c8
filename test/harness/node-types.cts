/**
 * INodeTypes registry, prepared the way n8n's loader and CLI NodeTypes prepare node types:
 * declarative nodes get the automatic "Request Options" collection and an `execute` that runs
 * RoutingNode (packages/cli/src/node-types.ts), so WorkflowExecute takes the server's path.
 */
import { DirectoryLoader, RoutingNode } from 'n8n-core';
import type { ExecuteContext } from 'n8n-core';
import { NodeHelpers, deepCopy } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';

/** Type of the harness's start node; put a node of this type in runWorkflow's workflow. */
export const START_NODE_TYPE = 'harnessStart';

/** A Manual-Trigger-like start node with no inputs that emits the given items. */
export function createStartNodeType(items: IDataObject[]): INodeType {
	return {
		description: {
			displayName: 'Harness Start',
			name: START_NODE_TYPE,
			group: ['trigger'],
			version: 1,
			description: 'Emits the items given to the test harness',
			defaults: { name: 'Start' },
			inputs: [],
			outputs: ['main'],
			properties: [],
		},
		// Called with `this` = ExecuteContext, hence the closure over items.
		execute: async (): Promise<INodeExecutionData[][]> => [
			items.map((json) => ({ json: deepCopy(json) })),
		],
	};
}

/** Same test as n8n's `shouldAssignExecuteMethod` (packages/cli/src/utils.ts). */
function isDeclarative(nodeType: INodeType): boolean {
	const declarative = nodeType.description.requestDefaults !== undefined;
	return (
		!nodeType.execute &&
		!nodeType.poll &&
		!nodeType.trigger &&
		(!nodeType.webhook || declarative) &&
		(!nodeType.methods || declarative)
	);
}

/** DirectoryLoader's step; not idempotent in n8n-core, so skip types already given it. */
function addRequestOptions(nodeType: INodeType): void {
	const existing = nodeType.description.properties.find((p) => p.name === 'requestOptions');
	if (existing?.options?.some((o) => o.name === 'batching')) return;
	DirectoryLoader.applyDeclarativeNodeOptionParameters(nodeType);
}

export function defaultTypeVersion(nodeType: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in nodeType) return nodeType.currentVersion;
	const { version } = nodeType.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

export class HarnessNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();
	private readonly prepared = new Map<string, INodeType>();

	constructor(nodeTypes: Array<INodeType | IVersionedNodeType>) {
		for (const nodeType of nodeTypes) {
			this.types.set(nodeType.description.name, nodeType);
			const versions =
				'nodeVersions' in nodeType ? Object.values(nodeType.nodeVersions) : [nodeType];
			for (const v of versions) if (isDeclarative(v)) addRequestOptions(v);
		}
	}

	getByName(name: string): INodeType | IVersionedNodeType {
		const nodeType = this.types.get(name);
		if (!nodeType) throw new Error(`Harness: unknown node type "${name}"`);
		return nodeType;
	}

	getByNameAndVersion(name: string, version?: number): INodeType {
		const key = `${name}@${version ?? 'default'}`;
		const cached = this.prepared.get(key);
		if (cached) return cached;
		const versioned = NodeHelpers.getVersionedNodeType(this.getByName(name), version);
		let prepared = versioned;
		if (isDeclarative(versioned)) {
			// A derived object instead of mutating the caller's instance as n8n does.
			prepared = Object.create(versioned) as INodeType;
			prepared.execute = async function (this: IExecuteFunctions) {
				const routingNode = new RoutingNode(this as ExecuteContext, versioned);
				return (await routingNode.runNode()) ?? [];
			};
		}
		this.prepared.set(key, prepared);
		return prepared;
	}

	getKnownTypes(): IDataObject {
		const known: IDataObject = {};
		for (const name of this.types.keys()) known[name] = { className: name, sourcePath: '' };
		return known;
	}
}
