/**
 * The sandbox's command line (`npm run sandbox`, test/sandbox/cli.js) started as a child process:
 * the size of its world and its limits set by options, a value it cannot use refused naming the
 * option; and `npm run demo`, which takes the same options for the sandbox it starts
 * (scripts/lib/demoOptions.js).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

const { demoOptions } = require('../scripts/lib/demoOptions') as {
	demoOptions: (
		argv: string[],
		env: Record<string, string>,
	) => {
		flags: Set<string>;
		number: (name: string, fallback: number) => number;
		sandbox: {
			options: { seed: Record<string, number>; limits: Record<string, number> };
			given: string[];
		};
	};
};

const CLI = path.join(__dirname, 'sandbox', 'cli.js');
const started: ChildProcessWithoutNullStreams[] = [];

/** How the command line went: it listens (its base URL and API key, read from its output) or it ended. */
type Outcome =
	| { listening: true; baseUrl: string; apiKey: string; stdout: string }
	| { listening: false; code: number | null; stdout: string; stderr: string };

function startCli(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
	const child = spawn(process.execPath, [CLI, ...args], {
		env: { ...process.env, ...env },
	});
	started.push(child);
	let stdout = '';
	let stderr = '';
	child.stderr.on('data', (chunk) => (stderr += chunk));
	return new Promise((resolve) => {
		child.stdout.on('data', (chunk) => {
			stdout += chunk;
			// the fixtures are printed last: by then the base URL and the key are there
			if (!stdout.includes('fixtures :')) return;
			resolve({
				listening: true,
				baseUrl: /^base URL : (\S+)$/m.exec(stdout)![1],
				apiKey: /^API key {2}: (\S+)/m.exec(stdout)![1],
				stdout,
			});
		});
		child.once('exit', (code) => resolve({ listening: false, code, stdout, stderr }));
	});
}

/** Every customer the API lists, page by page along its `next` links. */
async function allCustomers(baseUrl: string, apiKey: string): Promise<unknown[]> {
	const customers: unknown[] = [];
	let url: string | null = `${baseUrl}/customers?limit=100`;
	while (url) {
		const answer = await fetch(url, { headers: { 'X-SERVICE-KEY': apiKey } });
		expect(answer.status).toBe(200);
		const page = (await answer.json()) as { results: unknown[]; next: string | null };
		customers.push(...page.results);
		url = page.next;
	}
	return customers;
}

afterEach(async () => {
	await Promise.all(
		started.splice(0).map(
			(child) =>
				new Promise<void>((resolve) => {
					if (child.exitCode !== null || child.signalCode !== null) return resolve();
					child.once('exit', () => resolve());
					child.kill('SIGTERM');
				}),
		),
	);
});

test('--customers=N: the sandbox serves N customers, through the API, with the latency and rate limit given next to it', async () => {
	const outcome = await startCli(['--customers=150', '--latency-ms=5', '--rate=1000']);
	expect(outcome.listening).toBe(true);
	if (!outcome.listening) return;
	expect(outcome.stdout).toMatch(
		/^world {4}: 150 customers, seed 1; 5 ms per answer, 1000 requests\/s per API key/m,
	);
	expect(await allCustomers(outcome.baseUrl, outcome.apiKey)).toHaveLength(150);
});

test('the option as its variable (SANDBOX_CUSTOMERS), and as `--customers N`; the option wins over the variable', async () => {
	const [fromVariable, fromOption] = await Promise.all([
		startCli([], { SANDBOX_CUSTOMERS: '30' }),
		startCli(['--customers', '40'], { SANDBOX_CUSTOMERS: '30' }),
	]);
	for (const [outcome, count] of [
		[fromVariable, 30],
		[fromOption, 40],
	] as const) {
		expect(outcome.listening).toBe(true);
		if (outcome.listening)
			expect(await allCustomers(outcome.baseUrl, outcome.apiKey)).toHaveLength(count);
	}
});

test.each([
	[['--customers=ten'], {}, '--customers must be a whole number of at least 4, not "ten"'],
	[['--customers=2'], {}, '--customers must be a whole number of at least 4, not "2"'],
	[['--customers'], {}, '--customers needs a value'],
	[[], { SANDBOX_CUSTOMERS: '1e4' }, 'SANDBOX_CUSTOMERS must be a whole number of at least 4'],
	[['--rate=fast'], {}, '--rate must be a number of at least 0, not "fast"'],
	[['--latency-ms=-5'], {}, '--latency-ms must be a number of at least 0'],
	[['--customer=10000'], {}, 'unknown option --customer=10000'],
])('%j %j is refused before it starts: "%s"', async (args, env, message) => {
	const outcome = await startCli(args, env);
	expect(outcome).toMatchObject({ listening: false, code: 2 });
	if (!outcome.listening) expect(outcome.stderr).toContain(`sandbox: ${message}`);
});

test('--help names each option with its variable, and how to start a 10,000-customer world', async () => {
	const outcome = await startCli(['--help']);
	expect(outcome).toMatchObject({ listening: false, code: 0 });
	const help = outcome.stdout;
	for (const [option, variable] of [
		['--customers=N', 'SANDBOX_CUSTOMERS'],
		['--latency-ms=MS', 'SANDBOX_LATENCY_MS'],
		['--rate=N', 'SANDBOX_RATE'],
	])
		expect(help).toMatch(new RegExp(`^ +${option} +${variable} +\\S`, 'm'));
	expect(help).toContain('npm run sandbox -- --customers=10000 --latency-ms=40 --rate=100');
});

describe('npm run demo takes the same options for its sandbox', () => {
	test('--customers, --latency-ms and --rate reach the sandbox it starts; its own flags stay its own', () => {
		const { flags, number, sandbox } = demoOptions(
			['--fresh', '--customers=10000', '--latency-ms=40', '--rate=100', '--workers=3'],
			{},
		);
		expect(sandbox.options.seed).toEqual({ customers: 10000 });
		expect(sandbox.options.limits).toEqual({ latencyMs: 40, ratePerSecond: 100 });
		expect([...flags]).toEqual(['--fresh']);
		expect(number('workers', 2)).toBe(3);
		expect(demoOptions([], { SANDBOX_CUSTOMERS: '10000' }).sandbox.options.seed).toEqual({
			customers: 10000,
		});
	});

	test.each([
		[['--customers=lots'], {}, '--customers must be a whole number of at least 4, not "lots"'],
		[['--custmers=10000'], {}, 'unknown option --custmers=10000'],
		[
			['--customers=10000'],
			{ BILLING_BASE_URL: 'https://billing.example.com/api/v2', BILLING_API_KEY: 'k' },
			'--customers: an option of the sandbox, which is not started when BILLING_BASE_URL',
		],
	])('%j %j is refused, naming the option', (argv, env, message) => {
		expect(() => demoOptions(argv, env)).toThrow(message);
	});
});
