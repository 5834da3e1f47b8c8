/**
 * Test harness: runs workflows with declarative nodes in-process through n8n-core's real
 * WorkflowExecute. Call shutdownN8nCore() from afterAll / a jest global teardown.
 */
export { runNode, runWorkflow } from './run';
export type { HarnessError, RunNodeOptions, RunResult, RunWorkflowOptions, WorkflowRunResult } from './run';
export { shutdownN8nCore } from './environment';
export { START_NODE_TYPE, HarnessNodeTypes } from './node-types';
export { HarnessCredentialsHelper } from './credentials-helper';
export { runListSearch } from './loadOptions';
export type { ListSearchRun, RunListSearchOptions } from './loadOptions';
export { Poller } from './poll';
export type { PollerOptions, PollResult } from './poll';
