import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import communityNodes from '@n8n/eslint-plugin-community-nodes';

const nodesBase = { 'n8n-nodes-base': n8nNodesBase };

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'bench/**', 'scripts/**', '.n8n-local/**', 'eslint.config.mjs', 'gulpfile.js', 'index.js', 'jest.config.js'] },
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
	},
	{
		files: ['package.json'],
		languageOptions: { parser: (await import('jsonc-eslint-parser')).default },
		plugins: nodesBase,
		rules: n8nNodesBase.configs.community.rules,
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: nodesBase,
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// A community package links its documentation by full URL; camel-cased slugs are for n8n's own nodes.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: nodesBase,
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// These two predate NodeConnectionTypes and contradict @n8n/community-nodes/node-connection-type-literal.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
	{
		...communityNodes.configs.recommended,
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
	},
];
