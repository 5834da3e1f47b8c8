/**
 * What `npm run demo` says when n8n ends under it (scripts/lib/demoMessages.js), how it learns
 * how n8n ended (scripts/lib/guard.js, through which every n8n process is started), and the paths
 * it prints (scripts/lib/shownPath.js).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const { endedMessage, stoppingMessage } = require('../scripts/lib/demoMessages') as {
	endedMessage: (
		instance: { name?: string; logFile: string },
		code: number | null,
		signal: NodeJS.Signals | null,
	) => string;
	stoppingMessage: (running: string[]) => string | null;
};
const { shownPath } = require('../scripts/lib/shownPath') as {
	shownPath: (target: string, where?: { cwd?: string; root?: string }) => string;
};

const ROOT = path.resolve(__dirname, '..');
const GUARD = path.join(ROOT, 'scripts', 'lib', 'guard.js');
const LOG = '/root/.cache/n8n-nodes-subscription-billing/n8n-2.8.4/demo/n8n.log';

/** Runs `node -e script` through the guard, as n8n.js starts n8n, and resolves how the guard ended. */
function throughGuard(
	script: string,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
	const guard = spawn(
		process.execPath,
		[GUARD, String(process.pid), process.execPath, '-e', script],
		{
			stdio: 'ignore',
			detached: true,
		},
	);
	return new Promise((resolve) => guard.once('exit', (code, signal) => resolve({ code, signal })));
}

test('n8n killed with SIGKILL: the guard ends by the same signal, and the demo says "n8n was killed (SIGKILL)"', async () => {
	const { code, signal } = await throughGuard("process.kill(process.pid, 'SIGKILL')");
	expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
	expect(endedMessage({ logFile: LOG }, code, signal)).toBe(
		`n8n was killed (SIGKILL); its log: ${LOG}`,
	);
});

test('n8n exiting with a code: the guard ends with that code, and the demo names it', async () => {
	const { code, signal } = await throughGuard('process.exit(3)');
	expect({ code, signal }).toEqual({ code: 3, signal: null });
	expect(endedMessage({ logFile: LOG }, code, signal)).toBe(
		`n8n stopped unexpectedly (exit 3); its log: ${LOG}`,
	);
});

test('a queue-mode instance is named, with one space between the words', () => {
	expect(endedMessage({ name: 'worker 2', logFile: LOG }, null, 'SIGTERM')).toBe(
		`n8n worker 2 was killed (SIGTERM); its log: ${LOG}`,
	);
	expect(endedMessage({ logFile: LOG }, 1, null)).not.toMatch(/ {2}/);
});

test('the stopping message names only what still runs of what the demo started', () => {
	expect(stoppingMessage(['n8n', 'the sandbox'])).toBe('Stopping n8n and the sandbox...');
	// n8n died under the demo, which started the sandbox
	expect(stoppingMessage(['the sandbox'])).toBe('Stopping the sandbox...');
	// n8n died, and the demo used a real service: nothing left to stop
	expect(stoppingMessage([])).toBeNull();
	expect(stoppingMessage(['n8n main', 'n8n worker 1', 'Postgres', 'Redis', 'the sandbox'])).toBe(
		'Stopping n8n main, n8n worker 1, Postgres, Redis and the sandbox...',
	);
});

test('paths are printed so that they can be pasted: relative only inside the repository and the directory the demo was run in', () => {
	const data = path.join(ROOT, '.n8n-local', 'n8n-2.8.4', 'demo');
	expect(shownPath(data, { cwd: ROOT, root: ROOT })).toBe(
		path.join('.n8n-local', 'n8n-2.8.4', 'demo'),
	);
	// an install in a cache outside the clone (N8N_LOCAL_DIR): never `../../root/.cache/…`
	const cached = '/root/.cache/n8n-nodes-subscription-billing/n8n-2.8.4/demo';
	expect(shownPath(cached, { cwd: ROOT, root: ROOT })).toBe(cached);
	// run from a folder of the repository, or from outside it: the absolute path
	expect(shownPath(data, { cwd: path.join(ROOT, 'test'), root: ROOT })).toBe(data);
	expect(shownPath(data, { cwd: path.join(path.dirname(ROOT), 'elsewhere'), root: ROOT })).toBe(
		data,
	);
	// npm runs a script in the repository's root; INIT_CWD is where the user typed it
	const before = process.env.INIT_CWD;
	process.env.INIT_CWD = path.join(ROOT, 'docs');
	try {
		expect(shownPath(data, { root: ROOT })).toBe(data);
	} finally {
		if (before === undefined) delete process.env.INIT_CWD;
		else process.env.INIT_CWD = before;
	}
});
