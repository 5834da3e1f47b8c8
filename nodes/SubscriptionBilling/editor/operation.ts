import type { IHttpRequestMethods, INodePropertyOptions, IParameterBuilderHint, PreSendAction } from 'n8n-workflow';
import { fillPathParameters } from '../shared/idChecks';
import { keepComposed } from '../execute/batching';
import { deferFailures } from '../execute/errorItem';
import { lookupIdCheck, type ListLookup } from '../execute/lookup';
import { outputShaper, selectedFieldsCheck, type OutputDefinition } from '../execute/output';
import { perform, type Again, type OperationKind, type Shaper } from '../execute/perform';
import type { Upsert } from '../execute/upsert';

interface OperationBase {
	name: string;
	value: string;
	action: string;
	description: string;
	/** What the result holds, for an AI model choosing the tool; operations with an Output choice say it there (editor/toolDescriptions.ts). */
	returns?: string;
	method: IHttpRequestMethods;
	/** Path below the base URL; `{parameterName}` placeholders are filled with validated ids. */
	path: string;
	/** Body builders and checks, run in order after the fields are mapped (and after the lookup's and the output's checks) and before the request. */
	preSend?: PreSendAction[];
	/** For n8n's AI Workflow Builder: when to choose this operation (shared/builderHint.ts). */
	builderHint?: IParameterBuilderHint;
	/** A get by ID done through the paged list at `path` (the API has none of its own). */
	lookup?: ListLookup;
	/** A create or update done as a search, then a create or an update (the API has none of its own). */
	upsert?: Upsert;
	/** For a write not applied again when asked for again (see Again). */
	again?: Again;
}

/**
 * Every list says whether the API documents paging for it. `paged`: `limit`/`offset` are sent and
 * the `next` links followed. Not paged: no paging parameter is sent, the answer is read whole
 * and Limit is applied here.
 */
export type OperationDefinition = OperationBase &
	({ kind: Exclude<OperationKind, 'list'> } | { kind: 'list'; paged: boolean }) &
	(
		| {
				/** The kind of result: the Output / Fields parameters, the shaper and the Selected Fields check follow from it. */
				output: OutputDefinition;
				shape?: never;
		  }
		| { output?: never; shape?: Shaper }
	);

export function isPaged(definition: OperationDefinition): boolean {
	return definition.kind === 'list' && definition.paged;
}

/** The checks an operation's lookup and output bring, then its own, in that order. */
function preSendSteps(definition: OperationDefinition): PreSendAction[] {
	return [
		...(definition.lookup ? [lookupIdCheck(definition.lookup)] : []),
		...(definition.output ? [selectedFieldsCheck(definition.output)] : []),
		...(definition.preSend ?? []),
	];
}

/** The declarative routing every operation shares; only method, path, kind and checks differ. */
export function operationOption(definition: OperationDefinition): INodePropertyOptions {
	const shape = definition.output ? outputShaper(definition.output) : definition.shape;
	return {
		name: definition.name,
		value: definition.value,
		action: definition.action,
		description: definition.description,
		...(definition.builderHint ? { builderHint: definition.builderHint } : {}),
		routing: {
			request: { method: definition.method, url: definition.path },
			send: { paginate: true, preSend: [keepComposed, ...deferFailures([fillPathParameters, ...preSendSteps(definition)])] },
			operations: { pagination: perform(definition.kind, shape, isPaged(definition), definition.lookup, definition.upsert, definition.again) },
		},
	};
}
