import type { IDataObject, IPollFunctions } from 'n8n-workflow';

const STATE_KEY = 'trigger';
const STATE_VERSION = 1;

/**
 * What the trigger remembers between polls, in the node's static data. `watching` names the
 * event and its settings: a state remembered for other settings is not used (the next poll starts
 * from where things stand).
 */
interface StoredState {
	version: number;
	watching: string;
	data: IDataObject;
}

export function readState<T extends IDataObject>(ctx: IPollFunctions, watching: string): T | undefined {
	const stored = ctx.getWorkflowStaticData('node')[STATE_KEY] as StoredState | undefined;
	if (!stored || stored.version !== STATE_VERSION || stored.watching !== watching) return undefined;
	return stored.data as T;
}

/**
 * Replaces the remembered state in one assignment, after every request of the poll succeeded:
 * a poll that fails part-way leaves the previous state as it was.
 */
export function writeState(ctx: IPollFunctions, watching: string, data: IDataObject): void {
	const stored: StoredState = { version: STATE_VERSION, watching, data };
	ctx.getWorkflowStaticData('node')[STATE_KEY] = stored as unknown as IDataObject;
}
