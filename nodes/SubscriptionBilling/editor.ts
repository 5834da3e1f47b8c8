import type {
	IDisplayOptions,
	INodeProperties,
	IHttpRequestMethods,
	INodePropertyOptions,
	IParameterBuilderHint,
	NodeHint,
	PreSendAction,
} from 'n8n-workflow';
import { lookupIdCheck, type ListLookup, type Upsert } from './execute/composite';
import { type OutputDefinition, OUTPUT_MODES, outputCheck, outputShaper } from './execute/output';
import { perform, type Again, type OperationKind, type Shaper } from './execute/perform';
import { keepComposed } from './execute/checkAhead';
import { deferFailures } from './execute/runGate';
import { MAX_PAGE_SIZE } from './shared/constants';
import { fillPathParameters, idSource } from './shared/idChecks';

/** Where the Output / Fields parameters stand among a resource's fields; at the end when not placed. */
export const OUTPUT_PARAMETERS = 'Output / Fields';

export interface ResourceDefinition {
	name: string;
	value: string;
	operations: OperationDefinition[];
	/**
	 * The operation a new node starts on when it is not the picker's first (a read, not a write: an
	 * AI tool added from the panel starts on it).
	 */
	startOperation?: string;
	/**
	 * The resource's fields, and where they stand the shared ones it places (resources/sharedFields.ts);
	 * Output / Fields are added from the operations.
	 */
	fields: Array<INodeProperties | typeof OUTPUT_PARAMETERS>;
}

/** Display options for fields of some operations of one resource. */
export function showFor(resource: string, operation: string[]): IDisplayOptions {
	return { show: { resource: [resource], operation } };
}

/** The Output choice (the modes of execute/output.ts) and each mode's setting, for operations of one resource returning large objects. */
function outputFields(
	resource: string,
	operation: string[],
	output: OutputDefinition,
): INodeProperties[] {
	const show = { resource: [resource], operation };
	return [
		{
			displayName: 'Output',
			name: output.parameters.output,
			type: 'options',
			options: OUTPUT_MODES.map(({ name, value, description }) => ({
				name,
				value,
				description: description(output),
			})),
			default: 'simplified',
			displayOptions: { show },
		},
		...OUTPUT_MODES.flatMap(({ value, setting }) =>
			setting
				? [
						{
							...setting(output),
							displayOptions: { show: { ...show, [output.parameters.output]: [value] } },
						},
					]
				: [],
		),
	];
}

/** The resource's fields, with an Output / Fields pair for each kind of result its operations return. */
export function resourceFields(resource: ResourceDefinition): INodeProperties[] {
	const outputs = [
		...new Set(
			resource.operations.flatMap((operation) => (operation.output ? [operation.output] : [])),
		),
	];
	const outputParameters = outputs.flatMap((output) =>
		outputFields(
			resource.value,
			resource.operations
				.filter((operation) => operation.output === output)
				.map((operation) => operation.value)
				.sort(),
			output,
		),
	);
	const at = resource.fields.indexOf(OUTPUT_PARAMETERS);
	const fields = resource.fields.filter(
		(field): field is INodeProperties => field !== OUTPUT_PARAMETERS,
	);
	fields.splice(at === -1 ? fields.length : at, 0, ...outputParameters);
	return fields;
}

interface OperationBase {
	name: string;
	value: string;
	action: string;
	description: string;
	/** What an AI model is told the operation does, where `description` keeps n8n's required wording (Create or Update's). */
	toolSummary?: string;
	/** What the result holds, for an AI model choosing the tool; operations with an Output choice say it there (toolDescription). */
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
		...(definition.output ? [outputCheck(definition.output)] : []),
		...(definition.preSend ?? []),
	];
}

/** The declarative routing every operation shares; only method, path, kind and checks differ. */
export function operationOption(
	definition: OperationDefinition,
	firstStep: PreSendAction,
): INodePropertyOptions {
	const shape = definition.output ? outputShaper(definition.output) : definition.shape;
	return {
		name: definition.name,
		value: definition.value,
		action: definition.action,
		description: definition.description,
		...(definition.builderHint ? { builderHint: definition.builderHint } : {}),
		routing: {
			request: { method: definition.method, url: definition.path },
			send: {
				paginate: true,
				preSend: [firstStep, ...deferFailures([fillPathParameters, ...preSendSteps(definition)])],
			},
			operations: {
				pagination: perform(
					definition.kind,
					shape,
					isPaged(definition),
					definition.lookup,
					definition.upsert,
					definition.again,
				),
			},
		},
	};
}

/** The operation picker of a resource, starting on its start operation or else the first. */
function operationPicker(resource: ResourceDefinition, firstStep: PreSendAction): INodeProperties {
	const options = resource.operations
		.map((operation) => operationOption(operation, firstStep))
		.sort((a, b) => a.name.localeCompare(b.name));
	const start = resource.startOperation ?? options[0].value;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource.value] } },
		options,
		default: start,
	};
}

/**
 * Resource picker, then for each resource its operation picker, the tool's Descriptions, then each
 * resource's fields; `shared`: the fields several resources show (resources/sharedFields.ts).
 */
export function nodeProperties(
	resources: ResourceDefinition[],
	shared: INodeProperties[],
): INodeProperties[] {
	const properties: INodeProperties[] = [];
	properties.push(...definitions(resources, shared, keepComposed(properties)));
	return properties;
}

function definitions(
	resources: ResourceDefinition[],
	shared: INodeProperties[],
	firstStep: PreSendAction,
): INodeProperties[] {
	const firstResource = resources[0].value;
	return [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resources.map(({ name, value }) => ({ name, value })),
			default: firstResource,
		},
		...resources.map((resource) => operationPicker(resource, firstStep)),
		...toolDescriptionFields(resources, shared),
		...resources.flatMap((resource) => resourceFields(resource)),
	];
}

/**
 * The canvas subtitle: the operation and resource as the editor's pickers show them
 * ("Get Many for Customer: Invoice"), not their stored values. A flat lookup keeps `}}` out of the
 * expression; anything not in it (n8n's Custom API Call) shows the stored values.
 */
export function operationSubtitle(resources: ResourceDefinition[]): string {
	const names = Object.fromEntries(
		resources.flatMap((resource) =>
			resource.operations.map((operation) => [
				`${resource.value}.${operation.value}`,
				`${operation.name}: ${resource.name}`,
			]),
		),
	);
	const key = '$parameter["resource"] + "." + $parameter["operation"]';
	return `={{ (${JSON.stringify(names)})[${key}] || $parameter["operation"] + ": " + $parameter["resource"] }}`;
}

/** Input items from which a run of Customer → Get is worth a word on what it cost. */
export const MANY_CUSTOMER_LOOKUPS = 10;

/**
 * Hints the output panel shows after a run. n8n evaluates a hint's condition in the editor with
 * the node's parameters and its input items, whatever the run did (one refused before sending
 * too), and a declarative node cannot add hints from what a run did (docs/api-assumptions.md,
 * "Execution hints"): a hint says what these settings cost on that many items, not what a run sent.
 */
export const executionHints: NodeHint[] = [
	{
		message: `Customer → Get on ${MANY_CUSTOMER_LOOKUPS} or more items: the API has no get by ID, so each item reads the customer list from its start until it finds its customer: one request per ${MAX_PAGE_SIZE} customers before it. To look up many customers, read the list once with Customer → Get Many (Return All) and join it to these items with a Merge node (Combine by Matching Fields, customer_id).`,
		type: 'info',
		location: 'outputPane',
		whenToDisplay: 'afterExecution',
		displayCondition: `={{ $parameter.resource === 'customer' && $parameter.operation === 'get' && $input.all().length >= ${MANY_CUSTOMER_LOOKUPS} }}`,
	},
];

/** OpenAI refuses a function description over 1,024 characters; n8n passes the text on as it is. */
export const MAX_TOOL_DESCRIPTION = 1024;

const shownFor = (field: INodeProperties, resource: string, operation: string) =>
	field.displayOptions?.show?.resource?.includes(resource) === true &&
	field.displayOptions.show.operation?.includes(operation) === true;

function returned(operation: OperationDefinition): string | undefined {
	const output = operation.output;
	if (!output) return operation.returns;
	return operation.kind === 'list'
		? `a list of ${output.noun}s, each with ${output.simplifiedFields}`
		: `the ${output.noun}: ${output.simplifiedFields}`;
}

/**
 * What an AI model is told about the operation as a tool: what it does, what it returns, which IDs it
 * needs and which operation finds each, all from the operation's own definition and fields.
 */
export function toolDescription(
	resource: ResourceDefinition,
	operation: OperationDefinition,
	shared: INodeProperties[],
): string {
	// An ID typed as plain text (Usage's Transaction ID) is made up by the Create that records it.
	const found = (field: INodeProperties) =>
		field.type === 'resourceLocator' || operation.value !== 'create';
	const fields = new Set([...shared, ...resourceFields(resource)]);
	const ids = [...fields].flatMap((field) => {
		const source =
			found(field) && shownFor(field, resource.value, operation.value)
				? idSource(field.name)
				: undefined;
		return source ? [source.text] : [];
	});
	const returns = returned(operation);
	return [
		`${operation.toolSummary ?? operation.description}.`,
		returns ? `Returns ${returns}.` : '',
		ids.length ? `Needs ${ids.join('; and ')}.` : '',
	]
		.filter(Boolean)
		.join(' ');
}

/**
 * The tool's Description, by operation: n8n gives a node used as a tool its own Description only
 * when the node has none, and then by default says no more than the operation's action. Shown only
 * on the tool (`@tool`); what the user writes there replaces it.
 */
export function toolDescriptionFields(
	resources: ResourceDefinition[],
	shared: INodeProperties[],
): INodeProperties[] {
	return resources.flatMap((resource) =>
		resource.operations.map(
			(operation): INodeProperties => ({
				displayName: 'Description',
				name: 'toolDescription',
				type: 'string',
				default: toolDescription(resource, operation, shared),
				typeOptions: { rows: 4 },
				description:
					'What the AI model is told about this tool: by default what the operation does, what it returns and where its IDs come from',
				displayOptions: {
					show: { '@tool': [true], resource: [resource.value], operation: [operation.value] },
				},
			}),
		),
	);
}
