/**
 * Runs a node's listSearch method (a resource locator's "From list" search) the way n8n's editor
 * gets it run: POST /rest/dynamic-node-parameters/resource-locator-results →
 * DynamicNodeParametersService.getResourceLocatorResults (packages/cli), which builds a one-node
 * workflow ("Temp-Node" holding the editor's current parameters and credentials), wraps it in
 * n8n-core's LoadOptionsContext (mode 'internal') and calls
 * `nodeType.methods.listSearch[method].call(context, filter, paginationToken)`.
 * Credentials go through the harness's credentials helper, as in a workflow run.
 */
import { LoadOptionsContext } from 'n8n-core';
import { Workflow } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ILoadOptionsFunctions,
	INode,
	INodeListSearchResult,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentials-helper.cjs';
import { ensureN8nCoreEnvironment, withCapturedLogs } from './environment.cjs';
import { HarnessNodeTypes, defaultTypeVersion } from './node-types.cjs';

export interface RunListSearchOptions {
	nodeType: INodeType | IVersionedNodeType;
	credentialType?: ICredentialType;
	credentials?: ICredentialDataDecryptedObject;
	/** Name of the method in `methods.listSearch` (the mode's `typeOptions.searchListMethod`). */
	method: string;
	/** What the user typed in the list's search box. */
	filter?: string;
	/** The token of the previous page, as the editor sends it back when the list is scrolled. */
	paginationToken?: string;
	/** The node's current parameters in the editor (`currentNodeParameters`). */
	parameters?: INodeParameters;
	/** The locator's parameter path, e.g. `parameters.customerId`. */
	path?: string;
	typeVersion?: number;
}

export interface ListSearchRun extends INodeListSearchResult {
	logs: string[];
}

type ListSearchMethod = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

const BASE_URL = 'http://localhost:5678';

/** Resolves with the method's result; rejects with the error the editor would show. */
export async function runListSearch(opts: RunListSearchOptions): Promise<ListSearchRun> {
	ensureN8nCoreEnvironment();
	const nodeTypes = new HarnessNodeTypes([opts.nodeType]);
	const credentialsHelper = new HarnessCredentialsHelper(
		opts.credentialType ? [opts.credentialType] : [],
		opts.credentialType && opts.credentials ? { 'harness-credential': opts.credentials } : {},
		nodeTypes,
	);
	const typeVersion = opts.typeVersion ?? defaultTypeVersion(opts.nodeType);
	const name = opts.nodeType.description.name;
	const nodeType = nodeTypes.getByNameAndVersion(name, typeVersion);
	// DynamicNodeParametersService.getMethod
	const method = nodeType.methods?.listSearch?.[opts.method] as ListSearchMethod | undefined;
	if (typeof method !== 'function')
		throw new Error(`Node type does not have method defined: listSearch.${opts.method}`);

	const parameters = opts.parameters ?? {};
	// DynamicNodeParametersService.getWorkflow
	const node: INode = {
		parameters,
		id: 'uuid-1234',
		name: 'Temp-Node',
		type: name,
		typeVersion,
		position: [0, 0],
		...(opts.credentialType && {
			credentials: {
				[opts.credentialType.name]: { id: 'harness-credential', name: 'Harness credential' },
			},
		}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	// What WorkflowExecuteAdditionalData.getBase gives the controller, plus currentNodeParameters.
	const additionalData = {
		credentialsHelper,
		currentNodeParameters: parameters,
		executionId: undefined,
		variables: {},
		restApiUrl: `${BASE_URL}/rest`,
		instanceBaseUrl: `${BASE_URL}/`,
		formWaitingBaseUrl: `${BASE_URL}/form-waiting`,
		webhookBaseUrl: `${BASE_URL}/webhook`,
		webhookWaitingBaseUrl: `${BASE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${BASE_URL}/webhook-test`,
		currentNodeExecutionIndex: 0,
		logAiEvent: () => {},
	} as unknown as IWorkflowExecuteAdditionalData;
	// DynamicNodeParametersService.getThisArg
	const context = new LoadOptionsContext(
		workflow,
		workflow.nodes['Temp-Node'],
		additionalData,
		opts.path ?? 'parameters',
	);
	const { value, logs } = await withCapturedLogs(
		async () => await method.call(context, opts.filter, opts.paginationToken),
	);
	return { ...value, logs };
}
