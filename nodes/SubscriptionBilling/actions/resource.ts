import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import type { OperationDefinition } from './operation';

export interface ResourceDefinition {
	name: string;
	value: string;
	operations: OperationDefinition[];
	/**
	 * The operation a new node starts on when it is not the picker's first (a read, not a write: an
	 * AI tool added from the panel starts on it).
	 */
	startOperation?: string;
	/** The operation's own fields; list and fault-handling fields are added for every resource. */
	fields: INodeProperties[];
}

/** Display options for fields of some operations of one resource. */
export function showFor(resource: string, operation: string[]): IDisplayOptions {
	return { show: { resource: [resource], operation } };
}
