'use strict';
/**
 * A real n8n, run from the pinned install in `.n8n-local/` (see ../n8n-local.js), with this
 * package loaded as a community package. Used by `npm run demo` and the end-to-end tests.
 *
 *   const n8n = await N8n.create({ name: 'e2e' });   // fresh user folder under .n8n-local/runs/
 *   n8n.installPackage();                              // copy package.json + dist/ like an npm install
 *   await n8n.importCredentials([...]); await n8n.importWorkflow({...});
 *   const { code, run, error } = await n8n.execute(workflowId);
 *   await n8n.start(); await n8n.setupOwner(); await n8n.rest('GET', '/types/nodes.json');
 *   await n8n.dispose();                               // stops everything, removes the folder
 *
 * Every process is started through guard.js, in its own process group, and dies with this
 * process even if it is killed without a chance to clean up. Its ports (the server's unless one is
 * given, the task broker's, a worker's health port) are chosen right before each start and chosen
 * again when one was taken in between (ports.js).
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn, spawnSync } = require('node:child_process');
const { ensureN8n, ROOT } = require('../n8n-local');
const {
	PortTakenError,
	freePort,
	portIsFree,
	saysPortTaken,
	startOnFreePorts,
} = require('./ports');

const PACKAGE_NAME = require(path.join(ROOT, 'package.json')).name;
const GUARD = path.join(__dirname, 'guard.js');

const OWNER = {
	email: 'demo@billing.example',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'Billing-Demo-2026',
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The JSON object n8n prints for `execute --rawOutput`: from the first line that is exactly `{`. */
function parseRunOutput(stdout) {
	const lines = stdout.split('\n');
	const start = lines.findIndex((l) => l === '{');
	if (start < 0) return null;
	// the object ends at the first later line that is exactly `}`
	for (let end = start + 1; end < lines.length; end++) {
		if (lines[end] !== '}') continue;
		try {
			return JSON.parse(lines.slice(start, end + 1).join('\n'));
		} catch {
			/* a nested `}` line: keep looking */
		}
	}
	return null;
}

class N8n {
	/**
	 * @param {object} o
	 * @param {string} [o.name]     prefix of the run folder
	 * @param {string} [o.keepAs]   use this folder of the install (kept on dispose) instead of a fresh temp one
	 * @param {boolean} [o.fresh]   empty the keepAs folder first
	 * @param {string} [o.version]  n8n release (default: N8N_E2E_VERSION or the pinned one)
	 * @param {boolean} [o.quiet]   do not print n8n's server output
	 * @param {string} [o.encryptionKey]  N8N_ENCRYPTION_KEY (instances sharing a database share it)
	 * @param {object} [o.env]      more environment (e.g. queue mode's, see queue.js)
	 * @param {number} [o.port]     the server's port (default: one chosen at each start)
	 * @param {(ports: object, attempt: number) => Promise<void>} [o.onPortsChosen]  awaited between
	 *   choosing the ports and starting n8n on them: { port, brokerPort, healthPort } before a
	 *   server or worker starts, { brokerPort } before a CLI command (the tests of port choice
	 *   take one there)
	 */
	static async create(o = {}) {
		const install = ensureN8n(o.version);
		const n8n = new N8n(install, o);
		await n8n.choosePorts();
		return n8n;
	}

	/**
	 * Whether this n8n runs task runners, and so a task broker on its own port: what n8n's own config
	 * says (`@n8n/config`'s TaskRunnersConfig, read in the install with this instance's environment).
	 * n8n 1.x has them off unless N8N_RUNNERS_ENABLED=true; 2.x has them on by default; 2.41 has no
	 * such setting any more (always on), which reads as on here.
	 */
	taskRunnersEnabled() {
		const script =
			"require('reflect-metadata');const { Container } = require('@n8n/di');const { GlobalConfig } = require('@n8n/config');process.stdout.write(JSON.stringify(Container.get(GlobalConfig).taskRunners.enabled ?? null))";
		const r = spawnSync(this.install.node, ['-e', script], {
			cwd: this.install.dir,
			env: this.env(),
			encoding: 'utf8',
		});
		if (r.status !== 0)
			throw new Error(`reading n8n ${this.version}'s task runner config failed\n${r.stderr}`);
		return JSON.parse(r.stdout) !== false;
	}

	/** New ports for the next start: the server's (unless it was given), the task broker's, a worker's health port. */
	async choosePorts({ worker = false } = {}) {
		this.port = this.fixedPort ?? (await freePort());
		this.brokerPort = await freePort();
		this.healthPort = worker ? await freePort() : undefined;
		return { port: this.port, brokerPort: this.brokerPort, healthPort: this.healthPort };
	}

	constructor(install, o) {
		this.install = install;
		this.version = install.version;
		// Run folders live inside the n8n install folder: walking up from the package, Node then
		// finds n8n's own n8n-workflow (as in a real n8n, which strips the peer dependency when it
		// installs a community package), not the repo's dev copy, which would be a second module
		// instance (instanceof NodeApiError fails across the two).
		this.keep = Boolean(o.keepAs);
		const runs = path.join(install.dir, 'runs');
		fs.mkdirSync(runs, { recursive: true });
		this.dir = o.keepAs
			? path.join(install.dir, o.keepAs)
			: fs.mkdtempSync(path.join(runs, `${o.name ?? 'n8n'}-`));
		if (o.fresh) fs.rmSync(this.dir, { recursive: true, force: true });
		this.userFolder = path.join(this.dir, 'user');
		this.tmp = path.join(this.dir, 'tmp');
		fs.mkdirSync(this.userFolder, { recursive: true });
		fs.mkdirSync(this.tmp, { recursive: true });
		const keyFile = path.join(this.dir, 'encryption-key');
		if (o.encryptionKey) fs.writeFileSync(keyFile, o.encryptionKey, { mode: 0o600 });
		else if (!fs.existsSync(keyFile))
			fs.writeFileSync(keyFile, crypto.randomBytes(24).toString('hex'), { mode: 0o600 });
		this.encryptionKey = fs.readFileSync(keyFile, 'utf8').trim();
		this.quiet = o.quiet ?? true;
		this.logFile = path.join(this.dir, 'n8n.log');
		this.children = new Set();
		this.cookie = null;
		this.browserId = crypto.randomUUID();
		this.extraEnv = o.env ?? {};
		this.fixedPort = o.port;
		this.onPortsChosen = o.onPortsChosen;
	}

	get baseUrl() {
		return `http://127.0.0.1:${this.port}`;
	}

	env() {
		const inherited = { ...process.env };
		// under jest, NODE_ENV=test makes n8n's logger silent (and the run JSON is logged)
		for (const k of Object.keys(inherited))
			if (k === 'NODE_ENV' || k.startsWith('JEST_')) delete inherited[k];
		return {
			...inherited,
			...this.install.env,
			N8N_USER_FOLDER: this.userFolder,
			TMPDIR: this.tmp,
			N8N_ENCRYPTION_KEY: this.encryptionKey,
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
			N8N_LOG_LEVEL: 'info',
			N8N_LOG_OUTPUT: 'console',
			N8N_HOST: '127.0.0.1',
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_PORT: String(this.port),
			N8N_PROTOCOL: 'http',
			N8N_EDITOR_BASE_URL: this.baseUrl,
			WEBHOOK_URL: `${this.baseUrl}/`,
			N8N_SECURE_COOKIE: 'false',
			N8N_RUNNERS_BROKER_PORT: String(this.brokerPort),
			N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
			...(this.healthPort
				? {
						QUEUE_HEALTH_CHECK_ACTIVE: 'true',
						QUEUE_HEALTH_CHECK_PORT: String(this.healthPort),
						N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
					}
				: {}),
			GENERIC_TIMEZONE: 'UTC',
			DB_SQLITE_POOL_SIZE: '2',
			NODE_ENV: 'production',
			NODE_OPTIONS: '',
			...this.extraEnv,
		};
	}

	/** Copies package.json and dist/ where n8n installs a community package from npm. */
	installPackage(root = ROOT) {
		const target = path.join(this.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
		if (!fs.existsSync(path.join(root, 'dist')))
			throw new Error('dist/ is missing: run `npm run build` first');
		fs.rmSync(target, { recursive: true, force: true });
		fs.mkdirSync(target, { recursive: true });
		// as n8n does after `npm pack`: the package.json without dev, peer and optional dependencies
		const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
		for (const key of ['devDependencies', 'peerDependencies', 'optionalDependencies'])
			delete manifest[key];
		fs.writeFileSync(path.join(target, 'package.json'), JSON.stringify(manifest, null, 2));
		fs.cpSync(path.join(root, 'dist'), path.join(target, 'dist'), { recursive: true });
		// n8n's own package list of the nodes folder, as `npm install` in n8n would leave it
		const nodesPkg = path.join(this.userFolder, '.n8n', 'nodes', 'package.json');
		const pkg = fs.existsSync(nodesPkg)
			? JSON.parse(fs.readFileSync(nodesPkg, 'utf8'))
			: { name: 'installed-nodes', private: true };
		pkg.dependencies = {
			...pkg.dependencies,
			[PACKAGE_NAME]: require(path.join(root, 'package.json')).version,
		};
		fs.writeFileSync(nodesPkg, JSON.stringify(pkg, null, 2));
		return target;
	}

	/** Spawns `n8n <args>` through the guard; returns the child process. */
	spawnN8n(args, { stdio = ['ignore', 'pipe', 'pipe'], env = this.env() } = {}) {
		const child = spawn(
			process.execPath,
			[GUARD, String(process.pid), this.install.node, this.install.bin, ...args],
			{
				cwd: this.dir,
				env,
				stdio,
				detached: true,
			},
		);
		this.children.add(child);
		child.once('exit', () => this.children.delete(child));
		return child;
	}

	/**
	 * Runs an n8n CLI command to its end: { code, stdout, stderr }. `n8n execute` starts a task
	 * broker of its own: each command gets its own broker port (the server's may be in use by the
	 * running `n8n start`), and runs again on a new one when that was taken in between.
	 */
	async cli(args, opts) {
		let brokerPort;
		return startOnFreePorts({
			what: `n8n ${args[0]}`,
			choose: async () => ({ brokerPort: (brokerPort = await freePort()) }),
			onChosen: this.onPortsChosen,
			start: async () => {
				const r = await this.cliOnce(args, {
					...opts,
					env: { ...this.env(), N8N_RUNNERS_BROKER_PORT: String(brokerPort) },
				});
				if (r.code !== 0 && saysPortTaken(`${r.stdout}\n${r.stderr}`))
					throw new PortTakenError(`n8n ${args[0]}`, `task broker port ${brokerPort}`);
				return r;
			},
		});
	}

	cliOnce(args, { timeoutMs = 120000, env } = {}) {
		return new Promise((resolve, reject) => {
			const child = this.spawnN8n(args, { env });
			let stdout = '';
			let stderr = '';
			child.stdout.on('data', (d) => (stdout += d));
			child.stderr.on('data', (d) => (stderr += d));
			const timer = setTimeout(() => {
				killGroup(child, 'SIGKILL');
				reject(
					new Error(`n8n ${args.join(' ')} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`),
				);
			}, timeoutMs);
			child.on('error', reject);
			child.on('exit', (code, signal) => {
				clearTimeout(timer);
				resolve({ code, signal, stdout, stderr });
			});
		});
	}

	async cliOk(args, opts) {
		const r = await this.cli(args, opts);
		if (r.code !== 0)
			throw new Error(
				`n8n ${args.join(' ')} exited with ${r.code ?? r.signal}\n${r.stdout}\n${r.stderr}`,
			);
		return r;
	}

	/**
	 * Makes an imported workflow active from the next start of n8n: `publish:workflow` on n8n 2.x,
	 * `update:workflow --active=true` on 1.x (which has no publish).
	 */
	async activateWorkflow(id) {
		const major = Number(String(this.version).split('.')[0]);
		return this.cliOk(
			major >= 2
				? ['publish:workflow', `--id=${id}`]
				: ['update:workflow', `--id=${id}`, '--active=true'],
		);
	}

	writeTmpJson(name, data) {
		const file = path.join(this.dir, name);
		fs.writeFileSync(file, JSON.stringify(data, null, 2));
		return file;
	}

	/** Imports credentials (plain `data` objects: n8n encrypts them with this instance's key). */
	importCredentials(credentials) {
		const file = this.writeTmpJson(`credentials-${crypto.randomUUID()}.json`, credentials);
		return this.cliOk(['import:credentials', `--input=${file}`]);
	}

	/** Imports one workflow (or an array of them). */
	importWorkflow(workflow) {
		const file = this.writeTmpJson(`workflow-${crypto.randomUUID()}.json`, workflow);
		return this.cliOk(['import:workflow', `--input=${file}`]);
	}

	/**
	 * Executes a stored workflow: { code, run, error, succeeded, stdout, stderr }. `run` is n8n's run
	 * data (`run.data.resultData.runData[nodeName][0].data.main[0]` holds a node's output items).
	 * `succeeded`: the run finished without an error and n8n exited 0, or was ended by SIGSEGV after
	 * printing that finished run, as n8n on Node 22 and 24 sometimes is on a loaded machine
	 * (docs/compatibility.md).
	 */
	async execute(workflowId, opts) {
		const r = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], opts);
		const run = parseRunOutput(r.stdout);
		const error = run?.data?.resultData?.error ?? null;
		const exited = r.code === 0 || (r.signal === 'SIGSEGV' && run?.finished === true);
		return { ...r, run, error, succeeded: exited && run !== null && error === null };
	}

	/** Starts `n8n start` and waits until it is ready. */
	async start({ timeoutMs = 120000 } = {}) {
		// /healthz/readiness answers before the migrations have run and the REST API is
		// mounted; /rest/settings is public and answers once the editor can be used
		// (before that, every path answers 200 "n8n is starting up. Please wait")
		await this.launchOnFreePorts({
			args: ['start'],
			worker: false,
			readyUrl: () => `${this.baseUrl}/rest/settings`,
			isReady: (res, text) => res.ok && text.startsWith('{'),
			// said once the server listens, before the task broker starts and the REST API is mounted
			listening: () => `n8n ready on 127.0.0.1, port ${this.port}`,
			timeoutMs,
		});
	}

	/**
	 * Starts `n8n worker --concurrency <n>` (queue mode: give the queue environment in `env`) and
	 * waits until its health server says it is connected to the database and Redis.
	 */
	async startWorker({ concurrency = 10, timeoutMs = 120000 } = {}) {
		await this.launchOnFreePorts({
			args: ['worker', `--concurrency=${concurrency}`],
			worker: true,
			readyUrl: () => `http://127.0.0.1:${this.healthPort}/healthz/readiness`,
			isReady: (res) => res.ok,
			listening: () => `n8n worker server listening on port ${this.healthPort}`,
			timeoutMs,
		});
	}

	/** launch() on newly chosen ports, again on new ones while n8n says a port was taken. */
	launchOnFreePorts({ args, worker, readyUrl, isReady, listening, timeoutMs }) {
		return startOnFreePorts({
			what: `n8n ${args[0]}`,
			choose: () => this.choosePorts({ worker }),
			onChosen: this.onPortsChosen,
			start: () => this.launch(args, readyUrl(), isReady, listening(), timeoutMs),
		});
	}

	/**
	 * Spawns the long-running `n8n <args>` (this.server) and polls `readyUrl` until `isReady`.
	 * An answer counts only once this process's own log says `listening` (the port is ours, not
	 * another server's). Throws PortTakenError when n8n ends because a port is in use.
	 */
	async launch(args, readyUrl, isReady, listening, timeoutMs) {
		if (this.server) throw new Error('already started');
		const logStart = fs.existsSync(this.logFile) ? fs.statSync(this.logFile).size : 0;
		const log = fs.openSync(this.logFile, 'a');
		this.server = this.spawnN8n(args, { stdio: ['ignore', log, log] });
		fs.closeSync(log);
		const server = this.server;
		let exited = null;
		server.once('exit', (code, signal) => (exited = code ?? signal));
		if (!this.quiet) server.once('exit', echoFile(this.logFile, logStart));
		const output = () => readFrom(this.logFile, logStart);
		const what = `n8n ${args[0]}`;
		const deadline = Date.now() + timeoutMs;
		try {
			while (Date.now() < deadline) {
				if (exited !== null) {
					const taken = output().split('\n').find(saysPortTaken);
					if (taken && this.fixedPort && taken.includes(`port ${this.fixedPort} `))
						throw new Error(`${what}: the port it was given is in use: ${taken.trim()}`);
					if (taken) throw new PortTakenError(what, taken.trim());
					throw new Error(
						`${what} exited (${exited}) before it was ready; see ${this.logFile}\n${this.tailLog()}`,
					);
				}
				if (output().includes(listening)) {
					try {
						const res = await fetch(readyUrl);
						const text = await res.text();
						if (isReady(res, text)) return;
					} catch {
						/* not answering yet */
					}
				}
				await sleep(300);
			}
			throw new Error(
				`${what} was not ready after ${timeoutMs} ms; see ${this.logFile}\n${this.tailLog()}`,
			);
		} catch (error) {
			this.server = null;
			await endGroup(server, 'SIGKILL');
			throw error;
		}
	}

	/** Kills the running server or worker at once (SIGKILL to its whole process group), as a crash would. */
	async kill() {
		await this.end('SIGKILL');
	}

	/** Stops the server (if started). */
	async stop() {
		await this.end('SIGTERM');
	}

	/** Ends the server with `signal` (see endGroup). */
	async end(signal) {
		const server = this.server;
		this.server = null;
		if (server) await endGroup(server, signal);
	}

	tailLog(lines = 40) {
		return tailFile(this.logFile, lines);
	}

	/**
	 * Calls the server's REST API with the owner's session: { status, body, headers }. One
	 * connection per call: a kept-alive connection the server closes just as the next call reuses
	 * it fails that call ("other side closed"), more often the busier the machine.
	 */
	async rest(method, urlPath, body, { auth = true } = {}) {
		const headers = { 'browser-id': this.browserId, accept: 'application/json' };
		const payload = body === undefined ? undefined : JSON.stringify(body);
		if (payload !== undefined)
			Object.assign(headers, {
				'content-type': 'application/json',
				'content-length': Buffer.byteLength(payload),
			});
		if (auth && this.cookie) headers.cookie = this.cookie;
		const res = await new Promise((resolve, reject) => {
			const req = http.request(
				`${this.baseUrl}${urlPath}`,
				{ method, headers, agent: false },
				(answer) => {
					let text = '';
					answer.setEncoding('utf8');
					answer.on('data', (d) => (text += d));
					answer.on('end', () =>
						resolve({ status: answer.statusCode, headers: answer.headers, text }),
					);
					answer.on('error', reject);
				},
			);
			req.on('error', reject);
			req.end(payload);
		});
		const authCookie = (res.headers['set-cookie'] ?? [])
			.map((c) => c.split(';')[0])
			.find((c) => c.startsWith('n8n-auth='));
		if (authCookie) this.cookie = authCookie;
		let parsed = res.text;
		try {
			parsed = JSON.parse(res.text);
		} catch {
			/* not JSON */
		}
		return { status: res.status, body: parsed, headers: res.headers };
	}

	/** Creates the owner account (or signs in when it exists already). Returns the login. */
	async setupOwner(owner = OWNER) {
		const r = await this.rest('POST', '/rest/owner/setup', owner, { auth: false });
		if (r.status !== 200) {
			const login = await this.rest(
				'POST',
				'/rest/login',
				{ emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password },
				{ auth: false },
			);
			if (login.status !== 200) {
				throw new Error(
					`owner setup failed (${r.status} ${JSON.stringify(r.body)}) and so did the login (${login.status} ${JSON.stringify(login.body)})`,
				);
			}
		}
		return owner;
	}

	/** Stops every process this instance started; removes its folder unless it was given one. */
	async dispose() {
		await this.stop();
		for (const child of this.children) killGroup(child, 'SIGKILL');
		if (!this.keep && !process.env.N8N_E2E_KEEP)
			fs.rmSync(this.dir, { recursive: true, force: true });
	}
}

/** What a file holds from byte `start` on ('' when there is none). */
function readFrom(file, start) {
	try {
		const fd = fs.openSync(file, 'r');
		try {
			const size = fs.fstatSync(fd).size;
			const buf = Buffer.alloc(Math.max(0, size - start));
			fs.readSync(fd, buf, 0, buf.length, start);
			return buf.toString('utf8');
		} finally {
			fs.closeSync(fd);
		}
	} catch {
		return '';
	}
}

/** Prints what is appended to `file` from byte `start` on, until the returned function is called. */
function echoFile(file, start) {
	let at = start;
	const timer = setInterval(() => {
		const more = readFrom(file, at);
		at += Buffer.byteLength(more);
		process.stdout.write(more);
	}, 200);
	timer.unref();
	return () => clearInterval(timer);
}

/** The last `lines` lines of a log file ('' when there is none). */
function tailFile(file, lines) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

/**
 * Sends `signal` to a child started through the guard and waits for it to exit; after a gentler
 * signal than SIGKILL, SIGKILL takes its whole process group once `graceMs` have passed.
 */
async function endGroup(child, signal, graceMs = 12000) {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((r) => child.once('exit', r));
	killGroup(child, signal);
	const t =
		signal === 'SIGKILL' ? undefined : setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
	await exited;
	clearTimeout(t);
}

function killGroup(child, signal) {
	try {
		// the guard forwards SIGTERM gracefully; SIGKILL takes the whole group at once
		if (signal === 'SIGKILL') process.kill(-child.pid, 'SIGKILL');
		else process.kill(child.pid, signal);
	} catch {
		/* gone */
	}
}

module.exports = {
	N8n,
	OWNER,
	PACKAGE_NAME,
	endGroup,
	freePort,
	portIsFree,
	parseRunOutput,
	readFrom,
	sleep,
	tailFile,
};
