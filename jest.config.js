/**
 * Three projects:
 * - unit: the nodes in n8n-core against the sandbox (`npm test`);
 * - e2e: this package in a real n8n (the pinned release, installed by scripts/n8n-local.js),
 *   against the sandbox and in the editor in Chromium (`npm run test:e2e`; scripts/ci-e2e.sh also
 *   installs what is missing);
 * - queue: n8n's queue mode with Postgres, Redis, a main and two workers (`npm run test:queue`;
 *   scripts/queue-e2e.sh installs them), kept apart because it needs both and keeps both cores busy.
 * Jest 29 keeps the number of workers and the default timeout global: the end-to-end scripts pass
 * `-w 1` (each file starts its own n8n; test/e2e/global-setup.js refuses more), and an
 * end-to-end project's timeout is its `globals.timeout` (applied by test/e2e/timeout.js).
 * @type {import('jest').Config}
 */
const endToEnd = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	transform: {},
	globalSetup: '<rootDir>/test/e2e/global-setup.js',
	setupFilesAfterEnv: ['<rootDir>/test/e2e/timeout.js'],
};

module.exports = {
	projects: [
		{
			displayName: 'unit',
			preset: 'ts-jest',
			testEnvironment: 'node',
			roots: ['<rootDir>/test'],
			// tests are CommonJS TypeScript (.cts), outside the `**/*.ts` the node linter checks
			// (docs/development.md, Linting); a .test.ts still runs here, and `npm run lint` then names it
			testMatch: ['**/*.test.cts', '**/*.test.ts'],
			testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
			moduleFileExtensions: ['cts', 'ts', 'js', 'cjs', 'json'],
			resolver: '<rootDir>/test/cts-resolver.js',
			transform: { '^.+\\.c?ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
			// every test runs on the sandbox world's day, not the machine's (test/clock.js)
			setupFiles: ['<rootDir>/test/clock.js'],
		},
		{
			displayName: 'e2e',
			...endToEnd,
			testMatch: ['**/*.e2e.test.js'],
			// n8n is installed in globalSetup (minutes, the first time); a workflow execution takes about 4 s
			globals: { timeout: 5 * 60 * 1000 },
			slowTestThreshold: 60,
		},
		{
			displayName: 'queue',
			...endToEnd,
			testMatch: ['**/queue.*.test.js'],
			// a worker killed in the middle of an execution is noticed by n8n after its job lock expires
			globals: { timeout: 15 * 60 * 1000 },
			slowTestThreshold: 120,
		},
	],
	testTimeout: 60000,
	maxWorkers: 2,
};
