/** @type {import('jest').Config} */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	// tests are CommonJS TypeScript (.cts), outside the `**/*.ts` the node linter checks (docs/development.md, Linting);
	// a .test.ts still runs here, and `npm run lint` then names it
	testMatch: ['**/*.test.cts', '**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	moduleFileExtensions: ['cts', 'ts', 'js', 'cjs', 'json'],
	resolver: '<rootDir>/test/cts-resolver.js',
	transform: { '^.+\\.c?ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
	// every test runs on the sandbox world's day, not the machine's (test/clock.js)
	setupFiles: ['<rootDir>/test/clock.js'],
	testTimeout: 60000,
	maxWorkers: 2,
};
