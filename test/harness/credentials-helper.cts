/**
 * In-memory ICredentialsHelper behaving like n8n's server CredentialsHelper
 * (packages/cli/src/credentials-helper.ts) minus the database, overwrites and external secrets.
 */
import { Credentials, getAdditionalKeys } from 'n8n-core';
import { ICredentialsHelper, NodeHelpers, Workflow, deepCopy, isExpression } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	INodeTypes,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';

export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly types = new Map<string, ICredentialType>();
	private readonly data: Record<string, ICredentialDataDecryptedObject>;

	/** data: decrypted credential data keyed by credential id or by credential type name. */
	constructor(
		credentialTypes: ICredentialType[],
		data: Record<string, ICredentialDataDecryptedObject>,
		private readonly nodeTypes: INodeTypes,
	) {
		super();
		for (const type of credentialTypes) this.types.set(type.name, type);
		this.data = deepCopy(data); // updates (pre-authentication, OAuth) stay inside this run
	}

	private getType(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type) throw new Error(`Harness: unknown credential type "${name}"`);
		return type;
	}

	private key(nodeCredentials: INodeCredentialsDetails, type: string): string {
		if (nodeCredentials.id && nodeCredentials.id in this.data) return nodeCredentials.id;
		if (type in this.data) return type;
		throw new Error(`Harness: no credentials of type "${type}" (id ${nodeCredentials.id}) given`);
	}

	getParentTypes(name: string): string[] {
		const parents = this.types.get(name)?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incoming: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incoming as IHttpRequestOptions &
			Record<string, Record<string, unknown>>;
		const { authenticate } = this.getType(typeName);
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate?.type !== 'generic') return requestOptions;
		requestOptions.headers ??= {};
		const resolve = (value: string): string => {
			if (!isExpression(value)) return value;
			const resolved = workflow.expression.getSimpleParameterValue(
				node,
				value,
				'internal',
				{ $credentials: credentials },
				undefined,
				'',
			);
			return resolved ? String(resolved) : '';
		};
		for (const [outerKey, entries] of Object.entries(authenticate.properties)) {
			for (const [key, value] of Object.entries(entries as Record<string, string>)) {
				requestOptions[outerKey] ??= {};
				requestOptions[outerKey][resolve(key)] = resolve(value);
			}
		}
		return requestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.getType(typeName);
		const expirable = type.properties.find(
			(p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
		);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		const output = (await type.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
		if (output[expirable.name] === undefined) return undefined;
		const nodeCredentials = node.credentials?.[typeName];
		if (nodeCredentials)
			await this.updateCredentials(nodeCredentials, typeName, { ...credentials, ...output });
		return Object.assign(credentials, output);
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<Credentials> {
		const credentials = new Credentials(nodeCredentials, type); // encrypts with the fake instance key
		credentials.setData(deepCopy(this.data[this.key(nodeCredentials, type)]));
		return credentials;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		resolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = deepCopy(this.data[this.key(nodeCredentials, type)]);
		if (raw) return stored;
		// Defaults for missing fields; fields hidden by displayOptions are dropped, as in n8n.
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			stored as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (stored.oauthTokenData !== undefined) withDefaults.oauthTokenData = stored.oauthTokenData;
		const additionalKeys = getAdditionalKeys(additionalData, mode, null);
		if (resolveValues) {
			const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } =
				resolveValues;
			return workflow.expression.getParameterValue(
				withDefaults as INodeParameters,
				runExecutionData,
				runIndex,
				itemIndex,
				node.name,
				connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				withDefaults,
			) as ICredentialDataDecryptedObject;
		}
		const mockNode: INode = {
			id: 'cred',
			name: 'Credentials',
			type: Object.keys(this.nodeTypes.getKnownTypes())[0],
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const workflow = new Workflow({
			nodes: [mockNode],
			connections: {},
			active: false,
			nodeTypes: this.nodeTypes,
		});
		return workflow.expression.getComplexParameterValue(
			mockNode,
			withDefaults as INodeParameters,
			mode,
			additionalKeys,
			undefined,
			undefined,
			withDefaults,
		) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.data[this.key(nodeCredentials, type)] = deepCopy(data);
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const key = this.key(nodeCredentials, type);
		this.data[key] = { ...this.data[key], oauthTokenData: data.oauthTokenData };
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.getType(type);
		if (!credentialType.extends) return credentialType.properties;
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}
}
