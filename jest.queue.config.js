/**
 * End-to-end tests in n8n's queue mode: Postgres, Redis, a main and two workers of the pinned n8n
 * (scripts/lib/queue.js). Run with `npm run test:queue` (or `bash scripts/queue-e2e.sh`, which
 * also installs what is missing). Kept apart from `npm run test:e2e`: it needs Postgres and Redis
 * and keeps both cores busy for minutes.
 * @type {import('jest').Config}
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/queue.*.test.js'],
	transform: {},
	globalSetup: '<rootDir>/test/e2e/global-setup.js',
	maxWorkers: 1,
	// a worker killed in the middle of an execution is noticed by n8n after its job lock expires
	testTimeout: 15 * 60 * 1000,
	slowTestThreshold: 120,
	verbose: true,
};
