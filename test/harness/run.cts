/**
 * Runs workflows in-process through n8n-core's real WorkflowExecute.
 */
import {
	ExecutionLifecycleHooks,
	ExternalSecretsProxy,
	WorkflowExecute,
	WorkflowHasIssuesError,
} from 'n8n-core';
import { NodeConnectionTypes, NodeHelpers, Workflow, deepCopy } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentials-helper.cjs';
import { ensureN8nCoreEnvironment, withCapturedLogs } from './environment.cjs';
import {
	HarnessNodeTypes,
	START_NODE_TYPE,
	createStartNodeType,
	defaultTypeVersion,
} from './node-types.cjs';

export type HarnessError = Error & {
	description?: string;
	context?: IDataObject;
	httpCode?: string;
};

export interface RunWorkflowOptions {
	nodeTypes: Array<INodeType | IVersionedNodeType>;
	credentialTypes?: ICredentialType[];
	/** Decrypted credential data keyed by credential id (INode.credentials[type].id) or type name. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Starts at the node of type START_NODE_TYPE if there is one, else at workflow.getStartNode(). */
	workflow: { nodes: INode[]; connections: IConnections };
	/** Items the START_NODE_TYPE node emits; default [{}]. */
	startItems?: IDataObject[];
	/** Run as n8n's Retry of this failed execution (executions list), under a new execution id. */
	retryOf?: IRun;
}

export interface WorkflowRunResult {
	executionId: string;
	run: IRun;
	/** The items of one of the node's outputs (0: the main output; 1: the error output under "Continue (using error output)"). */
	outputOf(nodeName: string, outputIndex?: number): INodeExecutionData[];
	errorOf(nodeName: string): HarnessError | undefined;
	logs: string[];
}

const MODE: WorkflowExecuteMode = 'manual';
const RETRY_MODE: WorkflowExecuteMode = 'retry';
const BASE_URL = 'http://localhost:5678';
let executionCounter = 0;

/** Task data errors are stored as plain spreads of the thrown error: give them Error's prototype back. */
function toError(recorded: unknown): HarnessError | undefined {
	if (recorded === undefined || recorded === null || recorded instanceof Error)
		return recorded ?? undefined;
	return Object.assign(Object.create(Error.prototype) as HarnessError, recorded);
}

/**
 * What n8n 2.8's ExecutionService.retry hands to the new execution: the failed execution's data
 * as stored (and read back from the database), without the workflow's error and with the failed
 * run of the last executed node removed, so that node runs again under the same run index. The
 * nodes waiting to run are taken from the workflow given, as "Retry with currently saved workflow"
 * does (the same as "with original workflow" when the workflow is unchanged).
 */
function dataForRetry(failed: IRun, workflow: Workflow): IRunExecutionData {
	const data = JSON.parse(JSON.stringify(failed.data)) as IRunExecutionData;
	const { lastNodeExecuted } = data.resultData;
	if (lastNodeExecuted) {
		delete data.resultData.error;
		const runs = data.resultData.runData[lastNodeExecuted];
		if (runs.length > 0 && runs[runs.length - 1].error !== undefined) runs.pop();
	}
	for (const entry of data.executionData?.nodeExecutionStack ?? []) {
		const node = workflow.getNode(entry.node.name);
		if (!node)
			throw new Error(`Harness: cannot retry, node "${entry.node.name}" is not in the workflow`);
		entry.node = node;
	}
	return data;
}

export function buildAdditionalData(
	executionId: string,
	workflowData: IWorkflowBase,
	credentialsHelper: HarnessCredentialsHelper,
	mode: WorkflowExecuteMode,
): IWorkflowExecuteAdditionalData {
	const unsupported = (what: string) => async (): Promise<never> => {
		throw new Error(`Harness: ${what} is not supported`);
	};
	return {
		hooks: new ExecutionLifecycleHooks(mode, executionId, workflowData),
		credentialsHelper,
		executionId,
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: `${BASE_URL}/rest`,
		instanceBaseUrl: `${BASE_URL}/`,
		formWaitingBaseUrl: `${BASE_URL}/form-waiting`,
		webhookBaseUrl: `${BASE_URL}/webhook`,
		webhookWaitingBaseUrl: `${BASE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${BASE_URL}/webhook-test`,
		externalSecretsProxy: new ExternalSecretsProxy(),
		executeWorkflow: unsupported('executeWorkflow'),
		startRunnerTask: unsupported('startRunnerTask'),
		getRunExecutionData: async () => undefined,
		logAiEvent: () => {},
	};
}

export async function runWorkflow(opts: RunWorkflowOptions): Promise<WorkflowRunResult> {
	ensureN8nCoreEnvironment();
	const nodeTypes = new HarnessNodeTypes([
		createStartNodeType(opts.startItems ?? [{}]),
		...opts.nodeTypes,
	]);
	const credentialsHelper = new HarnessCredentialsHelper(
		opts.credentialTypes ?? [],
		opts.credentials ?? {},
		nodeTypes,
	);
	const nodes = deepCopy(opts.workflow.nodes);
	const { connections } = opts.workflow;
	const settings = { executionOrder: 'v1' as const };
	const workflowData: IWorkflowBase = {
		id: 'harness-workflow',
		name: 'Harness workflow',
		active: false,
		isArchived: false,
		nodes,
		connections,
		settings,
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
	};
	const workflow = new Workflow({ ...workflowData, nodeTypes });
	const executionId = `harness-${++executionCounter}`;
	const mode = opts.retryOf ? RETRY_MODE : MODE;
	const additionalData = buildAdditionalData(executionId, workflowData, credentialsHelper, mode);
	const start = nodes.find((node) => node.type === START_NODE_TYPE);
	const startNode = start ? (workflow.getNode(start.name) ?? undefined) : workflow.getStartNode();

	const workflowExecute = opts.retryOf
		? new WorkflowExecute(additionalData, mode, dataForRetry(opts.retryOf, workflow))
		: new WorkflowExecute(additionalData, mode);
	const { value: run, logs } = await withCapturedLogs(async () => {
		try {
			if (opts.retryOf) return await workflowExecute.processRunExecutionData(workflow);
			return await workflowExecute.run({ workflow, startNode });
		} catch (error) {
			if (error instanceof WorkflowHasIssuesError) {
				const issues = workflowExecute.checkReadyForExecution(workflow, {
					startNode: startNode?.name,
				});
				error.message += ` ${JSON.stringify(issues)}`;
			}
			throw error;
		}
	});

	const { runData } = run.data.resultData;
	return {
		executionId,
		run,
		logs,
		outputOf: (nodeName, outputIndex = 0) =>
			runData[nodeName]?.at(-1)?.data?.[NodeConnectionTypes.Main]?.[outputIndex] ?? [],
		errorOf: (nodeName) => toError(runData[nodeName]?.at(-1)?.error),
	};
}

export interface RunNodeOptions {
	nodeType: INodeType | IVersionedNodeType;
	credentialType?: ICredentialType;
	credentials?: ICredentialDataDecryptedObject;
	parameters: INodeParameters;
	items?: IDataObject[];
	continueOnFail?: boolean;
	/** "Continue (using error output)": failed items go to a second output (RunResult.errorItems). */
	continueErrorOutput?: boolean;
	typeVersion?: number;
	/** The node's Settings tab (Retry On Fail, Max. Tries, Wait Between Tries (ms)). */
	settings?: Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries'>;
	/** Run as n8n's Retry of this failed execution of the same node. */
	retryOf?: IRun;
}

export interface RunResult {
	executionId: string;
	items: INodeExecutionData[];
	/** The error output's items (with continueErrorOutput). */
	errorItems: INodeExecutionData[];
	error?: HarnessError;
	run: IRun;
	logs: string[];
}

/** Runs Start → node under test; resolves with the node's error instead of throwing. */
export async function runNode(opts: RunNodeOptions): Promise<RunResult> {
	const typeVersion = opts.typeVersion ?? defaultTypeVersion(opts.nodeType);
	const { description } = NodeHelpers.getVersionedNodeType(opts.nodeType, typeVersion);
	const name = description.defaults.name ?? description.displayName;
	const start: INode = {
		id: 'harness-start',
		name: 'Start',
		type: START_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const node: INode = {
		id: 'harness-node',
		name,
		type: description.name,
		typeVersion,
		position: [200, 0],
		parameters: opts.parameters,
		...(opts.credentialType && {
			credentials: {
				[opts.credentialType.name]: { id: 'harness-credential', name: 'Harness credential' },
			},
		}),
		...(opts.continueOnFail && { onError: 'continueRegularOutput' as const }),
		...(opts.continueErrorOutput && { onError: 'continueErrorOutput' as const }),
		...opts.settings,
	};
	const result = await runWorkflow({
		nodeTypes: [opts.nodeType],
		credentialTypes: opts.credentialType ? [opts.credentialType] : [],
		credentials:
			opts.credentialType && opts.credentials ? { 'harness-credential': opts.credentials } : {},
		workflow: {
			nodes: [start, node],
			connections: {
				[start.name]: { main: [[{ node: name, type: NodeConnectionTypes.Main, index: 0 }]] },
			},
		},
		startItems: opts.items,
		retryOf: opts.retryOf,
	});
	return {
		executionId: result.executionId,
		items: result.outputOf(name),
		errorItems: result.outputOf(name, 1),
		error: result.errorOf(name) ?? toError(result.run.data.resultData.error),
		run: result.run,
		logs: result.logs,
	};
}
