/**
 * Runs a polling trigger the way n8n does. An active workflow: n8n's ActiveWorkflows builds a
 * PollContext (mode 'trigger') once per activation and, at each poll time, calls
 * TriggersAndPollers.runPoll → `nodeType.poll.call(context)`; the Workflow object, and with it the
 * node's static data, lives as long as the activation. "Fetch Test Event" in the editor is a
 * manual run: WorkflowExecute starts at the trigger and builds a PollContext in mode 'manual'.
 *
 * What n8n's database holds (`saved`), at n8n's own save points. Without durable cursors
 * (n8n 2.8.4 and 2.41.1 by default): ActiveWorkflowManager.add saves the workflow's static data
 * after the activation poll (active-workflows.js activatePolling awaits it, then add() calls
 * WorkflowStaticDataService.saveStaticData), and a poll's `__emit` saves it; a poll that emits
 * nothing is not saved. With durable cursors (n8n 2.41.1, `durableCursors`): every scheduled poll
 * that succeeds commits the node's state (with its execution, or cursor-only when it emits
 * nothing: poll-trigger-task-handler.js); the activation poll only when it emits
 * (poll-trigger-executor.js commits a silent poll's cursor only when `!testingTrigger`), and n8n
 * runs it only when it inserts the poll job (publish), not at a restart or when a published
 * workflow is saved again with the same Poll Times (poll-trigger-job-registrar.js `inserted`);
 * each scheduled poll runs on a Workflow n8n builds afresh from what it saved
 * (trigger-execution-context.factory.js createPollExecutionContext), not on the activation's.
 */
import { PollContext, WorkflowExecute } from 'n8n-core';
import { TriggersAndPollers } from 'n8n-core/dist/execution-engine/triggers-and-pollers';
import { NodeConnectionTypes, Workflow, deepCopy } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IWorkflowBase,
	WorkflowActivateMode,
} from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentials-helper.cjs';
import { ensureN8nCoreEnvironment, withCapturedLogs } from './environment.cjs';
import { HarnessNodeTypes } from './node-types.cjs';
import { buildAdditionalData, type HarnessError } from './run.cjs';

export interface PollerOptions {
	nodeType: INodeType;
	credentialType: ICredentialType;
	credentials: ICredentialDataDecryptedObject;
	parameters: INodeParameters;
	/** Static data as n8n loaded it from the database (default: none, a first activation). */
	staticData?: IDataObject;
	/** The node's typeVersion as the workflow stores it (default 1). */
	typeVersion?: number;
	/** The node's id; each poller gets its own unless given (n8n: unique per node of a workflow). */
	nodeId?: string;
	/** The node's name (default: the node type's default name); n8n keeps its static data under it. */
	nodeName?: string;
	/** The workflow's ID and name (default: `harness-workflow`, "Harness trigger workflow"). */
	workflow?: { id: string; name: string };
	/** n8n 2.41 with durable cursors: every successful scheduled poll's state is saved (see above). */
	durableCursors?: boolean;
	/**
	 * With durable cursors, what a scheduled poll's `getPollBudgetMs()` answers (n8n 2.41: the
	 * scheduler's timeout less a margin, 36 s by default); the activation poll answers PollContext's
	 * default, 5 minutes, as every poll does without durable cursors.
	 */
	pollBudgetMs?: number;
}

export interface PollResult {
	/** The items the poll emitted; null when it returned null (nothing new). */
	items: IDataObject[] | null;
	error?: HarnessError;
	logs: string[];
}

let pollCounter = 0;
let pollerCounter = 0;

export class Poller {
	/** The active workflow; with durable cursors, the one n8n built for the last scheduled poll. */
	workflow: Workflow;
	private readonly node: INode;
	private readonly nodeTypes: HarnessNodeTypes;
	private readonly credentialsHelper: HarnessCredentialsHelper;
	private readonly workflowData: IWorkflowBase;
	private readonly options: PollerOptions;
	/** The workflow's static data as n8n's database holds it (its save points: see above). */
	saved: IDataObject;
	private activation: WorkflowActivateMode = 'activate';

	constructor(options: PollerOptions) {
		this.options = options;
		this.saved = deepCopy(options.staticData ?? {});
		ensureN8nCoreEnvironment();
		const { description } = options.nodeType;
		this.nodeTypes = new HarnessNodeTypes([options.nodeType]);
		this.credentialsHelper = new HarnessCredentialsHelper(
			[options.credentialType],
			{ 'harness-credential': options.credentials },
			this.nodeTypes,
		);
		this.node = {
			id: options.nodeId ?? `harness-trigger-${++pollerCounter}`,
			name: options.nodeName ?? description.defaults.name ?? description.displayName,
			type: description.name,
			typeVersion: options.typeVersion ?? 1,
			position: [0, 0],
			parameters: deepCopy(options.parameters),
			credentials: {
				[options.credentialType.name]: { id: 'harness-credential', name: 'Harness credential' },
			},
		};
		this.workflowData = {
			id: options.workflow?.id ?? 'harness-workflow',
			name: options.workflow?.name ?? 'Harness trigger workflow',
			active: true,
			isArchived: false,
			nodes: [this.node],
			connections: {},
			settings: { executionOrder: 'v1' },
			createdAt: new Date(),
			updatedAt: new Date(),
			activeVersionId: null,
		};
		this.workflow = new Workflow({
			...this.workflowData,
			nodeTypes: this.nodeTypes,
			staticData: deepCopy(options.staticData ?? {}),
		});
	}

	/** The node's static data, as n8n would save it (without its change marker). */
	get nodeStaticData(): IDataObject {
		const data =
			deepCopy(this.workflow.staticData[`node:${this.node.name}`] as IDataObject | undefined) ?? {};
		return data;
	}

	/**
	 * The poll n8n runs when it activates the workflow (`activate`: published, `init`: n8n started),
	 * saved whether it emits or not, unless it failed (n8n then does not activate the workflow).
	 * With durable cursors n8n runs it only when the poll job is inserted (`activate`: published):
	 * at a restart or an edit there is no activation poll, the scheduled polls go on from the saved state.
	 */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<PollResult> {
		this.activation = activation;
		if (this.options.durableCursors && activation !== 'activate') return { items: null, logs: [] };
		const result = await this.run(activation, 5 * 60_000);
		if (!result.error && (!this.options.durableCursors || result.items !== null)) this.save();
		return result;
	}

	/**
	 * One scheduled poll of the active workflow, saved as n8n saves it (see above). Its PollContext
	 * says how the workflow was activated: the last `activate`, or published in this process.
	 */
	async poll(activation: WorkflowActivateMode = this.activation): Promise<PollResult> {
		if (this.options.durableCursors)
			this.workflow = new Workflow({
				...this.workflowData,
				nodeTypes: this.nodeTypes,
				staticData: deepCopy(this.saved),
			});
		const result = await this.run(
			activation,
			this.options.durableCursors ? (this.options.pollBudgetMs ?? 36_000) : undefined,
		);
		if (!result.error && (this.options.durableCursors || result.items !== null)) this.save();
		return result;
	}

	/** n8n stopped and started again: the trigger loaded afresh (`nodeType`), handed what the database holds. */
	restarted(nodeType: INodeType): Poller {
		return new Poller({
			...this.options,
			nodeType,
			nodeId: this.node.id,
			nodeName: this.node.name,
			staticData: this.saved,
		});
	}

	private save(): void {
		this.saved = deepCopy(this.workflow.staticData);
	}

	private async run(activation: WorkflowActivateMode, pollBudgetMs?: number): Promise<PollResult> {
		const additionalData = buildAdditionalData(
			`harness-poll-${++pollCounter}`,
			this.workflowData,
			this.credentialsHelper,
			'trigger',
		);
		// n8n gives a poll WorkflowExecuteAdditionalData.getBase(): no execution exists until it emits.
		delete additionalData.executionId;
		const context = new PollContext(
			this.workflow,
			this.node,
			additionalData,
			'trigger',
			activation,
		);
		// n8n-core 2.8's PollContext has no getPollBudgetMs (2.41's does: durable cursors).
		if (pollBudgetMs !== undefined) Object.assign(context, { getPollBudgetMs: () => pollBudgetMs });
		const { value, logs } = await withCapturedLogs(async () => {
			try {
				return { data: await new TriggersAndPollers().runPoll(this.workflow, this.node, context) };
			} catch (error) {
				return { error: error as HarnessError };
			}
		});
		const items = value.data ? value.data[0].map((item: INodeExecutionData) => item.json) : null;
		return { items, error: value.error, logs };
	}

	/** The editor's "Fetch Test Event": a manual run through WorkflowExecute starting at the trigger. */
	async fetchTestEvent(): Promise<PollResult> {
		const additionalData = buildAdditionalData(
			`harness-manual-${++pollCounter}`,
			this.workflowData,
			this.credentialsHelper,
			'manual',
		);
		const startNode = this.workflow.getNode(this.node.name) ?? undefined;
		const { value: run, logs } = await withCapturedLogs(() =>
			new WorkflowExecute(additionalData, 'manual').run({ workflow: this.workflow, startNode }),
		);
		const task = run.data.resultData.runData[this.node.name]?.at(-1);
		const error = task?.error as HarnessError | undefined;
		const output = task?.data?.[NodeConnectionTypes.Main]?.[0];
		return { items: output ? output.map((item) => item.json) : null, error, logs };
	}
}
