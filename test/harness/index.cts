/**
 * Test harness: runs workflows with declarative nodes in-process through n8n-core's real
 * WorkflowExecute. Call shutdownN8nCore() from afterAll / a jest global teardown.
 */
export { runNode, runWorkflow } from './run.cjs';
export type {
	HarnessError,
	RunNodeOptions,
	RunResult,
	RunWorkflowOptions,
	WorkflowRunResult,
} from './run.cjs';
export { shutdownN8nCore } from './environment.cjs';
export { START_NODE_TYPE, HarnessNodeTypes } from './node-types.cjs';
export { HarnessCredentialsHelper } from './credentials-helper.cjs';
export { runListSearch } from './loadOptions.cjs';
export type { ListSearchRun, RunListSearchOptions } from './loadOptions.cjs';
export { Poller } from './poll.cjs';
export type { PollerOptions, PollResult } from './poll.cjs';
