/**
 * The AI tool's name, for every operation, as n8n derives it on each tested release.
 *
 * A tool node added from the nodes panel is named by n8n-workflow's NodeHelpers.makeNodeName:
 * "<the operation's action> in Subscription Billing" (the editor appends 1, 2, … when that name is
 * taken). Two function names are derived from the node's name:
 * - the editor: its Execute step on a tool with `$fromAI()` parameters asks the server for the tool
 *   named `getToolName(node name)` (FromAiParametersModal's useToolParameters: every space → `_`);
 * - the server: n8n-core's createNodeAsTool names the tool `nodeNameToToolName(node)` (n8n-workflow:
 *   every run of characters outside [a-zA-Z0-9_-] → one `_`; from n8n 2.41 also cut to 64
 *   characters, trailing `_`/`-` removed); that is the function name the model is sent, and the
 *   name n8n's Tool Executor looks for when the editor runs the tool alone.
 * When the two differ, the editor's Execute step runs no tool and shows no output; OpenAI refuses
 * function names over 64 characters. So every action uses only letters, digits, single spaces and
 * hyphens, and is short enough.
 *
 * SIMULATED: the releases' derivations are written out below (from n8n 2.8.4's and 2.41.1's code);
 * where those releases are installed (scripts/n8n-local.js), the last tests check each against the
 * release's own code: n8n-workflow's functions as the server loads them, the editor's getToolName
 * read from its built assets.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { NodeHelpers, type INodeTypeDescription } from 'n8n-workflow';
import {
	resources,
	SubscriptionBilling,
} from '../nodes/SubscriptionBilling/SubscriptionBilling.node';
import { toolDescriptionForEditor } from './helpers/toolGeneration.cjs';

type ToolNameOf = (nodeName: string) => string;
interface Release {
	version: string;
	/** The name the editor's Execute step asks for. */
	editorToolName: ToolNameOf;
	/** The name the server gives the tool (and sends the model). */
	serverToolName: ToolNameOf;
}

const MAX_TOOL_NAME = 64; // OpenAI's limit for a function name, and n8n 2.41's cut
const editorToolName: ToolNameOf = (name) => name.replaceAll(' ', '_');
const RELEASES: Release[] = [
	{
		version: '2.8.4',
		editorToolName,
		serverToolName: (name) => name.replace(/[^a-zA-Z0-9_-]+/g, '_'),
	},
	{
		version: '2.41.1',
		editorToolName,
		serverToolName: (name) => {
			const toolName = name.replace(/[^a-zA-Z0-9_-]+/g, '_');
			return toolName.length > MAX_TOOL_NAME
				? toolName.slice(0, MAX_TOOL_NAME).replace(/[_-]+$/, '')
				: toolName;
		},
	},
];

const base = new SubscriptionBilling().description;
const tool: INodeTypeDescription = toolDescriptionForEditor(base);
/** The suffix the editor gives the 2nd … 99th node of the same name. */
const LONGEST_SUFFIX = '99';
const IN_NODE = ` in ${tool.defaults.name}`;
const MAX_ACTION = MAX_TOOL_NAME - IN_NODE.length - LONGEST_SUFFIX.length;

const operations = resources.flatMap((resource) =>
	resource.operations.map((operation) => ({
		resource: resource.value,
		operation: operation.value,
		action: operation.action,
	})),
);

/** The name the editor gives the tool node added from the panel with this resource and operation. */
const panelName = (resource: string, operation: string) =>
	NodeHelpers.makeNodeName({ resource, operation }, tool);

test('no two operations share an action', () => {
	expect(operations.length).toBeGreaterThan(0);
	expect(new Set(operations.map((o) => o.action)).size).toBe(operations.length);
});

test.each(operations)(
	'$resource → $operation: "$action" is letters, digits, single spaces and hyphens, sentence case, short enough',
	({ action }) => {
		expect(action).toMatch(/^[A-Z][A-Za-z0-9-]*( [A-Za-z0-9-]+)*$/);
		expect(action.length).toBeLessThanOrEqual(MAX_ACTION);
	},
);

describe.each(RELEASES)('n8n $version', ({ editorToolName, serverToolName }) => {
	test.each(operations)(
		'$resource → $operation: the editor and the server name the tool alike, in at most 64 characters',
		({ resource, operation, action }) => {
			const nodeName = panelName(resource, operation);
			expect(nodeName).toBe(`${action}${IN_NODE}`);
			for (const name of [nodeName, `${nodeName}1`, `${nodeName}${LONGEST_SUFFIX}`]) {
				const server = serverToolName(name);
				expect({ name, editor: editorToolName(name) }).toEqual({ name, editor: server });
				expect(server.length).toBeLessThanOrEqual(MAX_TOOL_NAME);
			}
		},
	);
});

test('a tool added from the panel starts on a read (Customer → Get Many)', () => {
	const fresh =
		NodeHelpers.getNodeParameters(tool.properties, {}, true, false, { typeVersion: 1 }, tool) ?? {};
	expect(fresh).toMatchObject({ resource: 'customer', operation: 'getMany' });
	expect(NodeHelpers.makeNodeName(fresh, tool)).toBe('Get many customers in Subscription Billing');
	// the node itself, added from the panel without an action, likewise
	const node =
		NodeHelpers.getNodeParameters(base.properties, {}, true, false, { typeVersion: 1 }, base) ?? {};
	expect(node).toMatchObject({ resource: 'customer', operation: 'getMany' });
	expect(NodeHelpers.makeNodeName(node, base)).toBe('Get many customers');
});

test('the regular node added from the panel is named by its action alone', () => {
	expect(
		NodeHelpers.makeNodeName({ resource: 'invoice', operation: 'getManyForCustomer' }, base),
	).toBe('Get many customer invoices');
	expect(
		NodeHelpers.makeNodeName({ resource: 'subscriptionMilestone', operation: 'complete' }, base),
	).toBe('Complete a milestone');
});

// ---- the derivations above against each release's own code, where it is installed --------------

const { LOCAL: n8nInstalls } = require('../scripts/n8n-local') as { LOCAL: string };

/** Names the derivations must treat as each release does: the table's, and ones that differ. */
const SAMPLES = [
	...operations.map((o) => panelName(o.resource, o.operation)),
	'Get a subscription by ID: status, dates, totals, customer in Subscription Billing',
	"Set up a payment method: the processor's client secret for a form in Subscription Billing",
	'Two  spaces - and a hyphen in Subscription Billing1',
];

/** Where the expression starting at `start` ends: the first `,` or `;` (or unmatched closer) outside brackets and strings. */
function expressionEnd(text: string, start: number): number {
	let depth = 0;
	for (let at = start; at < text.length; at++) {
		const c = text[at];
		if (c === '"' || c === "'" || c === '`') {
			for (at++; text[at] !== c; at++) if (text[at] === '\\') at++;
		} else if ('([{'.includes(c)) depth++;
		else if (')]}'.includes(c) && --depth < 0) return at;
		else if ((c === ',' || c === ';') && depth === 0) return at;
	}
	return text.length;
}

/**
 * The editor's getToolName (FromAiParametersModal's useToolParameters), read from the release's
 * built editor: the function its getToolNamePrefix calls (`node_${getToolName(toolNode)}_`), as
 * defined just before it (`const getToolName = …` in 2.8.4, minified `,d=e=>…` in 2.41.1).
 */
function editorGetToolName(installDir: string): ToolNameOf {
	const assets = path.join(installDir, 'node_modules/n8n-editor-ui/dist/assets');
	for (const file of readdirSync(assets).filter((f) => f.endsWith('.js'))) {
		const text = readFileSync(path.join(assets, file), 'utf8');
		const prefix = /`node_\$\{([\w$]+)\(/.exec(text);
		if (!prefix) continue;
		const before = text.slice(Math.max(0, prefix.index - 2000), prefix.index);
		const definitions = [
			...before.matchAll(
				new RegExp(`(?:const |let |,)${prefix[1].replace(/\$/g, '\\$')} ?= ?`, 'g'),
			),
		];
		const definition = definitions.at(-1);
		if (!definition) continue;
		const start = prefix.index - before.length + definition.index + definition[0].length;
		return new Function(`return ${text.slice(start, expressionEnd(text, start))}`)() as ToolNameOf;
	}
	throw new Error(`no getToolName in ${assets}`);
}

describe.each(RELEASES)(
	'the derivations match n8n $version itself',
	({ version, editorToolName, serverToolName }) => {
		const installDir = path.join(n8nInstalls, `n8n-${version}`);
		// Skipped (reported as such) where the release is not installed, e.g. on a fresh machine's `npm test`;
		// CI runs this file again once both releases are installed, with N8N_RELEASES_INSTALLED=1, where a missing one fails.
		const installed = existsSync(path.join(installDir, 'node_modules/n8n/package.json'));
		if (!installed && process.env.N8N_RELEASES_INSTALLED === '1')
			throw new Error(`n8n ${version} is not installed in ${n8nInstalls}`);
		const testWhereN8nIsInstalled = installed ? test : test.skip;

		testWhereN8nIsInstalled(
			"the server's nodeNameToToolName (n8n-workflow as n8n-core loads it)",
			() => {
				const n8nCore = path.dirname(
					require.resolve('n8n-core/package.json', {
						paths: [path.join(installDir, 'node_modules')],
					}),
				);
				const workflow = require(require.resolve('n8n-workflow', { paths: [n8nCore] })) as {
					nodeNameToToolName: ToolNameOf;
				};
				expect(SAMPLES.map((name) => workflow.nodeNameToToolName(name))).toEqual(
					SAMPLES.map(serverToolName),
				);
				// and the samples do tell the two apart
				expect(
					SAMPLES.filter((name) => serverToolName(name) !== editorToolName(name)),
				).toHaveLength(3);
			},
		);

		testWhereN8nIsInstalled("the editor's getToolName", () => {
			const theirs = editorGetToolName(installDir);
			expect(SAMPLES.map((name) => theirs(name))).toEqual(SAMPLES.map(editorToolName));
		});

		testWhereN8nIsInstalled("the node's name from the panel (makeNodeName)", () => {
			const workflow = require(
				require.resolve('n8n-workflow', { paths: [path.join(installDir, 'node_modules')] }),
			) as typeof import('n8n-workflow');
			for (const { resource, operation } of operations) {
				expect(workflow.NodeHelpers.makeNodeName({ resource, operation }, tool)).toBe(
					panelName(resource, operation),
				);
			}
		});
	},
);
