/**
 * trigger/schedulerBudget.ts reads n8n's insides: PollContext's `getPollBudgetMs()` (n8n-core 2.41),
 * which answers 5 minutes unless n8n's scheduler gives the poll a budget of its own (durable cursors:
 * TriggerExecutionContextFactory passes `() => pollBudgetMs` as the constructor's last argument);
 * older PollContexts have no such method. Checked here against the dev dependency's n8n-core and,
 * where they are installed (scripts/n8n-local.js), each release's own.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { IPollFunctions } from 'n8n-workflow';
import {
	N8N_DEFAULT_POLL_BUDGET_MS,
	schedulerBudgetMs,
} from '../nodes/SubscriptionBilling/trigger/schedulerBudget';

const { LOCAL: n8nInstalls } = require('../scripts/n8n-local') as { LOCAL: string };

type PollContextClass = new (...args: unknown[]) => IPollFunctions;

/** The PollContext of the n8n-core found from `paths`, with a stand-in for the InstanceSettings it resolves. */
function pollContextOf(paths: string[]): { version: string; PollContext: PollContextClass } {
	const corePackage = require.resolve('n8n-core/package.json', { paths });
	const core = path.dirname(corePackage);
	const { Container } = require(require.resolve('@n8n/di', { paths: [core] })) as {
		Container: { set(type: unknown, instance: unknown): void };
	};
	const { InstanceSettings } = require(path.join(core, 'dist/instance-settings')) as {
		InstanceSettings: unknown;
	};
	Container.set(InstanceSettings, { instanceId: 'scheduler-budget-test' });
	const { PollContext } = require(
		path.join(core, 'dist/execution-engine/node-execution-context/poll-context'),
	) as { PollContext: PollContextClass };
	return { version: (require(corePackage) as { version: string }).version, PollContext };
}

const workflow = { id: 'budget-workflow', timezone: 'UTC', getStaticData: () => ({}) };
const node = {
	id: 'budget-node',
	name: 'Trigger',
	type: 'trigger',
	typeVersion: 1,
	parameters: {},
};
const noop = () => {};

/** Each n8n-core and what its PollContext offers: `budget` where it has getPollBudgetMs. */
const CORES = [
	{ release: 'the dev dependency', dir: path.join(__dirname, '..'), budget: false },
	{ release: 'n8n 1.123.81', dir: path.join(n8nInstalls, 'n8n-1.123.81'), budget: false },
	{ release: 'n8n 2.8.4', dir: path.join(n8nInstalls, 'n8n-2.8.4'), budget: false },
	{ release: 'n8n 2.41.1', dir: path.join(n8nInstalls, 'n8n-2.41.1'), budget: true },
];

describe.each(CORES)("$release's PollContext", ({ dir, budget }) => {
	// Skipped (reported as such) where a release is not installed, e.g. on a fresh machine's `npm test`;
	// CI runs this file again once they are installed, with N8N_RELEASES_INSTALLED=1, where a missing one fails.
	const installed = existsSync(path.join(dir, 'node_modules/n8n-core/package.json'));
	if (!installed && process.env.N8N_RELEASES_INSTALLED === '1')
		throw new Error(`n8n-core is not installed in ${dir}`);
	const testWhereN8nIsInstalled = installed ? test : test.skip;
	const paths = [path.join(dir, 'node_modules')];

	testWhereN8nIsInstalled(
		'a poll no scheduler times (an activation, a poll without durable cursors): no budget enforced',
		() => {
			const { PollContext } = pollContextOf(paths);
			const context = new PollContext(workflow, node, {}, 'trigger', 'activate');
			const withBudget = context as IPollFunctions & { getPollBudgetMs?: () => number };
			expect(withBudget.getPollBudgetMs?.()).toBe(budget ? N8N_DEFAULT_POLL_BUDGET_MS : undefined);
			expect(schedulerBudgetMs(context)).toBeUndefined();
		},
	);

	if (budget)
		testWhereN8nIsInstalled("a poll n8n's scheduler runs (durable cursors): its budget", () => {
			const { PollContext } = pollContextOf(paths);
			const scheduled = new PollContext(
				workflow,
				node,
				{},
				'trigger',
				'update',
				noop,
				noop,
				async () => {},
				async (poll: () => Promise<unknown>) => await poll(),
				() => ({}),
				() => 36_000,
			);
			expect(schedulerBudgetMs(scheduled)).toBe(36_000);
		});
});
