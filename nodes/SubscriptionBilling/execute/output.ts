import type {
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	PreSendAction,
} from 'n8n-workflow';
import { invalidSetting, quoted } from '../shared/invalidInput';
import type { Shaper } from './perform';

/** The Simplified shape of a result. */
export type Simplifier = (result: IDataObject) => IDataObject;

/** The names the Output and Fields parameters are stored under. */
export interface OutputParameterNames {
	output: string;
	fields: string;
}

/**
 * Documented fields of a result: `true` a value, a nested tree an object with documented fields,
 * `'list'` a list (selected whole), `'any'` a value of undocumented shape (any path below it).
 */
export interface FieldTree {
	[field: string]: FieldTree | true | 'list' | 'any';
}

/** What Output offers for one kind of result. */
export interface OutputDefinition {
	/** The result, as the messages name it: "customer". */
	noun: string;
	simplify: Simplifier;
	/** The Simplified fields, as the option's description lists them. */
	simplifiedFields: string;
	/** The contract's fields of the result: Selected Fields accepts only these. */
	documented: FieldTree;
	/** Fields of this result shown as the example, e.g. `customer_id, name, address.city`. */
	example: string;
	/**
	 * Each kind of result keeps its Output and Fields under names of its own, so that switching the
	 * resource in the editor does not carry them over to a result they do not fit.
	 */
	parameters: OutputParameterNames;
}

/** The names in a Fields text, trimmed, without empty entries or repeats. */
export function selectedPaths(text: unknown): string[] {
	const paths = String(text ?? '')
		.split(',')
		.map((path) => path.trim())
		.filter(Boolean);
	return [...new Set(paths)];
}

/** Why a path is not a documented field of the result, or undefined when it is. */
export function undocumentedPath(path: string, output: OutputDefinition): string | undefined {
	const segments = path.split('.');
	let tree: FieldTree = output.documented;
	let parent = `${/^[aeiou]/i.test(output.noun) ? 'an' : 'a'} ${output.noun}`;
	for (const [index, segment] of segments.entries()) {
		const node = Object.prototype.hasOwnProperty.call(tree, segment) ? tree[segment] : undefined;
		if (node === undefined) return `${quoted(path)} is not a field of ${parent} (its fields: ${Object.keys(tree).join(', ')})`;
		const rest = segments.length - index - 1;
		if (node === 'any' || rest === 0) return undefined;
		const reached = segments.slice(0, index + 1).join('.');
		if (node === 'list') return `${quoted(path)}: ${reached} is a list, which is selected whole (${reached})`;
		if (node === true) return `${quoted(path)}: ${reached} is a single value, with no fields inside`;
		tree = node;
		parent = reached;
	}
	return undefined;
}

/** The preSend check of Selected Fields: at least one field, each documented; nothing is sent otherwise. */
export function selectedFieldsCheck(output: OutputDefinition): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		const names = output.parameters;
		if (this.getNodeParameter(names.output, 'simplified') !== 'selected') return requestOptions;
		const paths = selectedPaths(this.getNodeParameter(names.fields, ''));
		if (paths.length === 0) throw invalidSetting(this, names.fields, 'Fields', `is empty: name the ${output.noun} fields to return, e.g. ${output.example}`);
		for (const path of paths) {
			const problem = undocumentedPath(path, output);
			if (problem) throw invalidSetting(this, names.fields, 'Fields', problem);
		}
		return requestOptions;
	};
}

function pick(result: IDataObject, segments: string[]): unknown {
	return segments.reduce<unknown>(
		(value, key) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject)[key] : undefined),
		result,
	);
}

/**
 * Only the selected paths, nested as in the result (`address.city` → `{address: {city}}`); a
 * documented field the API left out of this result is null. A path inside another selected path
 * is already part of it.
 */
function selectFields(result: IDataObject, paths: string[]): IDataObject {
	const selected: IDataObject = {};
	const covered = (path: string) => paths.some((other) => path.startsWith(`${other}.`));
	for (const path of paths.filter((candidate) => !covered(candidate))) {
		const segments = path.split('.');
		let target = selected;
		for (const segment of segments.slice(0, -1)) {
			if (target[segment] === undefined || target[segment] === null || typeof target[segment] !== 'object') target[segment] = {};
			target = target[segment] as IDataObject;
		}
		const value = pick(result, segments);
		target[segments[segments.length - 1]] = (value === undefined ? null : value) as IDataObject[string];
	}
	return selected;
}

/** Applies the chosen output mode to each result. */
export function outputShaper(output: OutputDefinition): Shaper {
	return function (this: IExecutePaginationFunctions) {
		const names = output.parameters;
		const mode = this.getNodeParameter(names.output, 'simplified') as string;
		if (mode === 'raw') return (result) => result;
		if (mode === 'simplified') return (result) => output.simplify(result);
		const paths = selectedPaths(this.getNodeParameter(names.fields, ''));
		return (result) => selectFields(result, paths);
	};
}

/** A delete's output: `{deleted: true}`, the id the API acted on, and what the API answered. */
export function deletedShaper(apiField: string, parameter: string): Shaper {
	return function (this: IExecutePaginationFunctions) {
		const id = this.getNodeParameter(parameter) as string;
		return (result) => ({ deleted: true, [apiField]: id, ...result });
	};
}

/**
 * A write whose answer is only a message: the message, then what the request wrote (the listed
 * body fields that were sent), so the item shows what changed.
 */
export function writtenShaper(fields: string[]): Shaper {
	return function (this: IExecutePaginationFunctions, request: IHttpRequestOptions) {
		const body = (request.body ?? {}) as IDataObject;
		const written = Object.fromEntries(fields.filter((field) => body[field] !== undefined).map((field) => [field, body[field]]));
		return (result) => ({ ...result, ...written });
	};
}
