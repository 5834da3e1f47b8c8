/**
 * Workflows users saved, kept as fixtures (test/savedWorkflows/): a node's parameters as the
 * editor stored them, what it was given, every request the API received and what the node output.
 * A later commit must do the same with them (test/savedWorkflows.test.cts); a change that would not
 * needs a new node version or a migration (docs/development.md, Saved workflows).
 *
 * Fixtures are written only by `RECORD_SAVED_WORKFLOWS=1 npx jest …`, and only where none exists:
 * a recorded fixture is never written again.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { runBilling, type ReceivedRequest, type Sandbox } from './billing.cjs';

const { SEED_TODAY } = require('../sandbox/seed') as { SEED_TODAY: string };

export const SAVED_DIR = path.join(__dirname, '..', 'savedWorkflows');
export const RECORDING = process.env.RECORD_SAVED_WORKFLOWS === '1';

/** A request as the fixture keeps it. */
export interface SavedRequest {
	method: string;
	path: string;
	query: IDataObject;
	body?: unknown;
	status: number;
}

interface SavedBase {
	/** Where the node comes from: an operation's table row, or an example workflow. */
	from: string;
	/** The sandbox's seed options, when not the default. */
	seed?: IDataObject;
	node: { name: string; type: string; typeVersion: number; parameters: INodeParameters };
}

/** An action node of a saved workflow, run once. */
export interface SavedAction extends SavedBase {
	items: IDataObject[];
	requests: SavedRequest[];
	output: IDataObject[];
}

/** A trigger of a saved workflow: the static data n8n saved after publishing it, the world's changes since, what it then emits. */
export interface SavedTrigger extends SavedBase {
	staticData: IDataObject;
	changes: Array<{ action: string; input: IDataObject }>;
	emitted: IDataObject[];
}

/**
 * Each fixture runs on the same clock: the sandbox world's day at noon (test/clock.js), from the
 * moment it starts. What the run itself stamps (a created_at, an expiry an hour on, an invoice due
 * in 30 days) is then the same in every run, to the minute.
 */
const FIXTURE_CLOCK = Date.parse(`${SEED_TODAY}T12:00:00Z`);

export async function onFixtureClock<T>(run: () => Promise<T>): Promise<T> {
	const started = performance.now();
	const clock = jest
		.spyOn(Date, 'now')
		.mockImplementation(() => FIXTURE_CLOCK + Math.floor(performance.now() - started));
	try {
		return await run();
	} finally {
		clock.mockRestore();
	}
}

const SECONDS = /:\d{2}(\.\d+)?(?=Z$|[+-]\d{2}:\d{2}$)/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** `value` as a fixture keeps it: date-times to the minute, the sandbox's origin (a free port) as ORIGIN. */
export function asSaved<T>(value: T, sandbox: Sandbox): T {
	return JSON.parse(JSON.stringify(value), (_key, field: unknown) => {
		if (typeof field !== 'string') return field;
		if (DATE_TIME.test(field)) return field.replace(SECONDS, ':00');
		return field.split(sandbox.origin).join(ORIGIN);
	}) as T;
}

const ORIGIN = 'http://sandbox';

/** The requests the API received since request number `after`, as a fixture keeps them, in a stable order. */
export function savedRequests(sandbox: Sandbox, after = 0): SavedRequest[] {
	return sandbox.requests
		.filter((request: ReceivedRequest) => request.n > after && request.path.startsWith('/api/v2/'))
		.map((request) => ({
			method: request.method,
			path: request.path.slice('/api/v2'.length),
			query: request.query as IDataObject,
			...(request.body === undefined ? {} : { body: request.body }),
			status: request.status,
		}))
		.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** A saved action node run once on a sandbox just reset, on the fixtures' clock: its requests and output as a fixture keeps them. */
export async function runSavedAction(
	sandbox: Sandbox,
	node: SavedAction['node'],
	items: IDataObject[],
): Promise<Pick<SavedAction, 'requests' | 'output'>> {
	sandbox.reset();
	const run = await onFixtureClock(() =>
		runBilling(sandbox, node.parameters, { items, saved: true }),
	);
	expect(run.error).toBeUndefined();
	return asSaved({ requests: savedRequests(sandbox), output: run.json }, sandbox);
}

export function fixtureFile(kind: 'operations' | 'examples' | 'triggers', name: string): string {
	return path.join(SAVED_DIR, kind, `${name}.json`);
}

/** Writes the fixture `make` gives when recording and none exists yet (`make` runs only then). */
export async function recordFixture(
	file: string,
	make: () => SavedAction | SavedTrigger | Promise<SavedAction | SavedTrigger>,
): Promise<void> {
	if (!RECORDING || existsSync(file)) return;
	const fixture = await make();
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, `${JSON.stringify(fixture, null, '\t')}\n`);
}

export function readFixtures<T extends SavedBase>(
	kind: 'operations' | 'examples' | 'triggers',
): Array<[string, T]> {
	const dir = path.join(SAVED_DIR, kind);
	if (!existsSync(dir)) return [];
	return readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => [
			file.slice(0, -'.json'.length),
			JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as T,
		]);
}

/** The seed options that differ from the sandbox's default, for a fixture to name. */
export function seedOf(sandbox: Sandbox): IDataObject | undefined {
	const { DEFAULT_SEED } = require('../sandbox/seed') as { DEFAULT_SEED: IDataObject };
	const options = (sandbox.state.seedOptions ?? {}) as IDataObject;
	const differing = Object.entries(options).filter(([key, value]) => DEFAULT_SEED[key] !== value);
	return differing.length === 0 ? undefined : Object.fromEntries(differing);
}
