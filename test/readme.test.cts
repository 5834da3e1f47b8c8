import { readFileSync } from 'node:fs';
import path from 'node:path';
import { resources } from '../nodes/SubscriptionBilling/SubscriptionBilling.node';

const readme = readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');

function operationsTable(): Array<{ resource: string; operation: string; request: string }> {
	const section = readme.slice(
		readme.indexOf('## Operations'),
		readme.indexOf('\n## ', readme.indexOf('## Operations') + 1),
	);
	return section
		.split('\n')
		.filter((line) => /^\| [A-Z]/.test(line) && !line.startsWith('| Resource '))
		.map((line) => line.split('|').map((cell) => cell.trim()))
		.map(([, resource, operation, request]) => ({ resource, operation, request }));
}

test("the README's operations table lists exactly the node's operations, with their method and path", () => {
	const documented = operationsTable().map(({ resource, operation, request }) => {
		const [, method, apiPath] = /^`(\w+) ([^`]+)`/.exec(request) ?? [];
		return `${resource} / ${operation}: ${method} ${apiPath}`;
	});
	const snakeCase = (name: string) => name.replace(/([A-Z])/g, '_$1').toLowerCase();
	const implemented = resources.flatMap((resource) =>
		resource.operations.map(
			(operation) =>
				`${resource.name} / ${operation.name}: ${operation.method} ${operation.path.replace(/\{(\w+)\}/g, (_, name: string) => `{${snakeCase(name)}}`)}`,
		),
	);
	expect([...documented].sort()).toEqual([...implemented].sort());
});

test('the README documents every npm script it tells people to run', () => {
	const scripts = Object.keys(
		(require('../package.json') as { scripts: Record<string, string> }).scripts,
	);
	const mentioned = [...readme.matchAll(/npm run ([\w:]+)/g)].map((match) => match[1]);
	for (const script of new Set(mentioned))
		expect({ script, exists: scripts.includes(script) }).toEqual({ script, exists: true });
	expect(readme).toContain('npm test');
});
