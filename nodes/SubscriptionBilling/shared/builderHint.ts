/**
 * n8n's AI Workflow Builder reads `builderHint` on a node's description, its resource and operation
 * options and its parameters (n8n-workflow types it from 2.9; n8n 2.41 reads it, releases before
 * ignore it). The n8n-workflow this package builds against (2.8) does not type it yet.
 */
declare module 'n8n-workflow' {
	interface IParameterBuilderHint {
		propertyHint: string;
	}
	interface IRelatedNode {
		nodeType: string;
		relationHint: string;
	}
	interface IBuilderHint {
		searchHint?: string;
		relatedNodes?: IRelatedNode[];
	}
	interface INodeTypeDescription {
		builderHint?: IBuilderHint;
	}
	interface INodeProperties {
		builderHint?: IParameterBuilderHint;
	}
	interface INodePropertyOptions {
		builderHint?: IParameterBuilderHint;
	}
}

export {};
