// ESLint for the code that is not the node: the tests (CommonJS TypeScript, `.cts`, and the
// JavaScript end-to-end tests and sandbox), benchmarks, scripts and tool configs. The node itself is
// linted by `n8n-node lint` with the tool's own eslint.config.mjs, whose rules for n8n Cloud code
// apply to `**/*.ts` (and package.json): the code here may use Node's built-ins, timers and fixed
// test keys, as tests must. Run: `npm run lint:tests` (part of `npm run lint`).
import js from '@eslint/js';
import jest from 'eslint-plugin-jest';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/', 'bench/dist/', 'nodes/', 'credentials/', 'docs/', 'examples/', 'icons/'] },
	{
		files: ['**/*.js', '**/*.cjs', '**/*.mjs', '**/*.cts'],
		extends: [js.configs.recommended],
		languageOptions: { sourceType: 'commonjs', globals: globals.node },
		rules: { 'no-unused-vars': ['error', { ignoreRestSiblings: true }] },
	},
	{ files: ['**/*.mjs'], languageOptions: { sourceType: 'module' } },
	{
		files: ['**/*.cts'],
		extends: [tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
			// the tests read the API's and n8n's JSON as it comes, and load modules at run time
			// (a fresh copy in jest.isolateModules, the n8n install found on disk)
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-require-imports': 'off',
		},
	},
	{
		files: ['test/**/*.test.cts', 'test/e2e/**/*.test.js'],
		extends: [jest.configs['flat/recommended']],
		rules: {
			// "no test that asserts nothing": the project's own checks are named expect…
			'jest/expect-expect': ['error', { assertFunctionNames: ['expect', 'expect*'] }],
			// a setup that fails must fail the tests that rely on it; a test run only where n8n is installed;
			// an operation table's rows, whose checks run in the test of their row
			'jest/no-standalone-expect': [
				'error',
				{
					additionalTestBlockFunctions: [
						'beforeAll',
						'beforeEach',
						'testWhereN8nIsInstalled',
						'operationTable',
					],
				},
			],
			// tables of cases pick the check each case needs (a fixed message or a pattern, a status
			// that has an error id or not); every branch asserts
			'jest/no-conditional-expect': 'off',
		},
	},
	// functions handed to page.evaluate run in the browser page
	{
		files: ['test/e2e/**/*.js'],
		languageOptions: { globals: { ...globals.node, document: 'readonly', window: 'readonly' } },
	},
);
