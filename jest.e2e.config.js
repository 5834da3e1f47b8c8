/**
 * End-to-end tests: this package inside a real n8n (the pinned release, installed into
 * .n8n-local/ by scripts/n8n-local.js), against the API sandbox, and in the editor in Chromium.
 * Run with `npm run test:e2e` (or `bash scripts/ci-e2e.sh`, which also installs what is missing).
 * @type {import('jest').Config}
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.js'],
	transform: {},
	globalSetup: '<rootDir>/test/e2e/global-setup.js',
	// each file starts its own n8n; the machine has 2 cores
	maxWorkers: 1,
	// n8n is installed in globalSetup (minutes, the first time); a workflow execution takes about 4 s
	testTimeout: 5 * 60 * 1000,
	slowTestThreshold: 60,
	verbose: true,
};
