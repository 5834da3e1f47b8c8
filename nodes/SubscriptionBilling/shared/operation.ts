import type { IHttpRequestMethods, INodePropertyOptions, PreSendAction } from 'n8n-workflow';
import { fillPathParameters } from './pathParameters';
import { perform, type OperationKind, type Shaper } from './perform';

export interface OperationDefinition {
	name: string;
	value: string;
	action: string;
	description: string;
	method: IHttpRequestMethods;
	/** Path below the base URL; `{parameterName}` placeholders are filled with validated ids. */
	path: string;
	kind: OperationKind;
	/** Body builders and checks, run in order after the fields are mapped and before the request. */
	preSend?: PreSendAction[];
	shape?: Shaper;
}

/** The declarative routing every operation shares; only method, path, kind and checks differ. */
export function operationOption(definition: OperationDefinition): INodePropertyOptions {
	return {
		name: definition.name,
		value: definition.value,
		action: definition.action,
		description: definition.description,
		routing: {
			request: { method: definition.method, url: definition.path },
			send: { paginate: true, preSend: [fillPathParameters, ...(definition.preSend ?? [])] },
			operations: { pagination: perform(definition.kind, definition.shape) },
		},
	};
}
