/**
 * A plain `npm publish` from a laptop is refused before anything reaches the registry: the package
 * is only published by n8n's release path in GitHub Actions, with npm provenance
 * (.github/workflows/publish.yml). Checked against a local registry that records every request.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const received: string[] = [];
let registry: http.Server;
let registryUrl: string;
let userConfig: string;
let tmp: string;

beforeAll(async () => {
	registry = http.createServer((req, res) => {
		received.push(`${req.method} ${req.url}`);
		res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
	});
	await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
	registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
	tmp = mkdtempSync(path.join(os.tmpdir(), 'publish-guard-'));
	// a user with a token for that registry, as on a maintainer's laptop
	userConfig = path.join(tmp, 'npmrc');
	writeFileSync(
		userConfig,
		`${registryUrl.replace(/^http:/, '')}:_authToken=a-maintainers-token\n`,
	);
});

afterAll(async () => {
	await new Promise((resolve) => registry.close(resolve));
	rmSync(tmp, { recursive: true, force: true });
});

beforeEach(() => received.splice(0));

/** `npm publish <args>` in the repository, outside any CI: { code, output }. */
function npmPublish(args: string[]): Promise<{ code: number | null; output: string }> {
	// no CI, no release mode, and no npm settings but the repository's .npmrc and this user's
	const env: NodeJS.ProcessEnv = { ...process.env };
	for (const key of Object.keys(env))
		if (
			key === 'CI' ||
			key.startsWith('GITHUB_') ||
			key === 'RELEASE_MODE' ||
			/^npm_config_/i.test(key)
		)
			delete env[key];
	// npm's weekly check for a newer npm would ask this registry too, on a day that depends on the clock
	Object.assign(env, {
		npm_config_registry: registryUrl,
		npm_config_userconfig: userConfig,
		npm_config_update_notifier: 'false',
	});
	return new Promise((resolve, reject) => {
		const child = spawn('npm', ['publish', '--registry', registryUrl, ...args], {
			cwd: root,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		child.stdout.on('data', (d) => (output += d));
		child.stderr.on('data', (d) => (output += d));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, output }));
	});
}

const uploads = () => received.filter((r) => r.startsWith('PUT '));

test('npm publish with the repository settings (scripts ignored) is refused: provenance only exists in CI', async () => {
	const { code, output } = await npmPublish([]);
	expect(code).not.toBe(0);
	expect(output).toContain('Automatic provenance generation not supported');
	expect(uploads()).toEqual([]);
});

test("npm publish with scripts on is refused by n8n's own guard (n8n-node prerelease)", async () => {
	const { code, output } = await npmPublish(['--ignore-scripts=false']);
	expect(code).not.toBe(0);
	expect(output).toContain('run release');
	expect(uploads()).toEqual([]);
	expect(received).toEqual([]);
});
