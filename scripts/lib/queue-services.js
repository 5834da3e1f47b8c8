'use strict';
/**
 * What n8n's queue mode needs besides n8n: Postgres and Redis from Debian's packages, each run
 * privately on a free port of 127.0.0.1 with its data in a temp folder, and stopped with the
 * process that started them (through guard.js, like every n8n process).
 *
 *   ensureQueuePackages();                       // apt-get install postgresql redis-server if missing
 *   const pg = await startPostgres({ dir });     // { host, port, user, password, database, version, stop() }
 *   const redis = await startRedis({ dir });     // { host, port, version, stop() }
 *
 * Each listens on a port chosen right before it starts, and starts again on a new one when that
 * was taken in between (ports.js); readiness is asked through its private unix socket, so another
 * server on the port cannot pass for it.
 *
 * Postgres refuses to run as root: as root, its programs run as Debian's `postgres` system user
 * (runuser), and the data folder belongs to that user.
 */
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const crypto = require('node:crypto');
const { spawn, spawnSync } = require('node:child_process');
const { endGroup, readFrom, sleep, tailFile } = require('./n8n');
const { PortTakenError, freePort, saysPortTaken, startOnFreePorts } = require('./ports');

const GUARD = path.join(__dirname, 'guard.js');
const HOST = '127.0.0.1';
const IS_ROOT = process.getuid?.() === 0;

function log(msg) {
	process.stderr.write(`[queue] ${msg}\n`);
}

/** The newest installed Postgres server's bin folder (Debian: /usr/lib/postgresql/<major>/bin), or null. */
function postgresBinDir() {
	const base = '/usr/lib/postgresql';
	if (!fs.existsSync(base)) return null;
	const majors = fs
		.readdirSync(base)
		.filter((d) => fs.existsSync(path.join(base, d, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? path.join(base, majors[0], 'bin') : null;
}

function redisServerBin() {
	const r = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
	return r.status === 0 ? r.stdout.trim() : null;
}

/** Installs Debian's postgresql and redis-server when they are missing. Returns their versions. */
function ensureQueuePackages() {
	const missing = [];
	if (!postgresBinDir()) missing.push('postgresql');
	if (!redisServerBin()) missing.push('redis-server');
	if (missing.length) {
		const started = Date.now();
		log(`installing ${missing.join(' ')} (apt-get)`);
		const sudo = IS_ROOT ? [] : ['sudo'];
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		for (const args of [
			['apt-get', 'update', '-qq'],
			['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing],
		]) {
			const cmd = [...sudo, ...args];
			const r = spawnSync(cmd[0], cmd.slice(1), { env, stdio: ['ignore', 'ignore', 'inherit'] });
			if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed (exit ${r.status})`);
		}
		log(`installed ${missing.join(' ')} in ${Math.round((Date.now() - started) / 1000)} s`);
	}
	return versions();
}

function versions() {
	const pgBin = postgresBinDir();
	const redis = redisServerBin();
	const out = (cmd, args) => spawnSync(cmd, args, { encoding: 'utf8' }).stdout.trim();
	return {
		postgres: pgBin ? out(path.join(pgBin, 'postgres'), ['--version']) : null,
		redis: redis ? out(redis, ['--version']).split(' ').slice(0, 3).join(' ') : null,
	};
}

/** argv that runs `cmd` as Postgres's system user when this process is root. */
function asPostgresUser(cmd, args) {
	return IS_ROOT ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

function runOk(cmd, args, what) {
	const [c, a] = asPostgresUser(cmd, args);
	const r = spawnSync(c, a, { encoding: 'utf8' });
	if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}): ${r.stderr || r.stdout}`);
	return r.stdout;
}

/** Spawns a long-running server through the guard (own process group, dies with this process). */
function spawnGuarded(cmd, args, logFile) {
	const log = fs.openSync(logFile, 'a');
	const child = spawn(process.execPath, [GUARD, String(process.pid), cmd, ...args], {
		stdio: ['ignore', log, log],
		detached: true,
	});
	fs.closeSync(log);
	let exited = null;
	child.once('exit', (code, signal) => (exited = code ?? signal));
	return {
		child,
		pid: child.pid,
		exited: () => exited,
		stop: () => endGroup(child, 'SIGTERM', 10000),
	};
}

/**
 * Waits until `check()` passes. When the server ends first: PortTakenError if its log (from byte
 * `logStart` on) says its port was in use, an Error otherwise.
 */
async function waitFor(what, check, server, logFile, { logStart = 0, timeoutMs = 60000 } = {}) {
	const deadline = Date.now() + timeoutMs;
	try {
		while (Date.now() < deadline) {
			if (server.exited() !== null) {
				const taken = readFrom(logFile, logStart).split('\n').find(saysPortTaken);
				if (taken) throw new PortTakenError(what, taken.trim());
				throw new Error(
					`${what} exited (${server.exited()}) before it was ready; see ${logFile}\n${tail(logFile)}`,
				);
			}
			if (await check()) return;
			await sleep(200);
		}
		throw new Error(
			`${what} was not ready after ${timeoutMs} ms; see ${logFile}\n${tail(logFile)}`,
		);
	} catch (error) {
		await endGroup(server.child, 'SIGKILL');
		throw error;
	}
}

const logSize = (file) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/**
 * Spawns `command(port)` ([cmd, args]) on a port chosen for it and waits until `isReady(port)`;
 * again on a new port when the server says the port was taken in between. { port, server }.
 */
async function startOnFreePort({ what, logFile, onChosen, command, isReady }) {
	let port;
	let server;
	await startOnFreePorts({
		what,
		onChosen,
		choose: async () => ({ port: (port = await freePort()) }),
		start: async () => {
			const logStart = logSize(logFile);
			server = spawnGuarded(...command(port), logFile);
			await waitFor(what, () => isReady(port), server, logFile, { logStart });
		},
	});
	return { port, server: { ...server, logFile } };
}

const tail = (file) => tailFile(file, 30);

/**
 * Sends one inline command to Redis and resolves with the first reply line (or null). `at`: its
 * TCP port on 127.0.0.1, or `{ path }` of its unix socket.
 */
function redisCommand(at, command) {
	return new Promise((resolve) => {
		const socket = typeof at === 'number' ? net.connect(at, HOST) : net.connect(at.path);
		let reply = '';
		const done = (v) => {
			socket.destroy();
			resolve(v);
		};
		socket.setTimeout(2000, () => done(null));
		socket.on('error', () => done(null));
		socket.on('connect', () => socket.write(`${command}\r\n`));
		socket.on('data', (d) => {
			reply += d;
			if (reply.includes('\r\n')) done(reply.split('\r\n')[0]);
		});
	});
}

/**
 * Postgres on a free port of 127.0.0.1, data in `<dir>/postgres` (a folder of the temp dir: the
 * `postgres` user must be able to reach it). One database and one user, with a password.
 */
async function startPostgres({ dir, database = 'n8n', user = 'n8n', onChosen }) {
	const bin = postgresBinDir();
	if (!bin) throw new Error('Postgres is not installed (ensureQueuePackages installs it)');
	const root = path.join(dir, 'postgres');
	const data = path.join(root, 'data');
	const socketDir = path.join(root, 'socket');
	fs.mkdirSync(socketDir, { recursive: true });
	const password = crypto.randomBytes(12).toString('hex');
	const pwFile = path.join(root, 'pw');
	fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
	if (IS_ROOT) {
		// the temp folder itself (mkdtemp: 0700, root) must let the postgres user through
		fs.chmodSync(dir, 0o711);
		spawnSync('chown', ['-R', 'postgres:postgres', root]);
	}
	runOk(
		path.join(bin, 'initdb'),
		[
			'-D',
			data,
			'-U',
			user,
			`--pwfile=${pwFile}`,
			'--auth-host=scram-sha-256',
			'--auth-local=trust',
			'--no-locale',
			'-E',
			'UTF8',
		],
		'initdb',
	);
	fs.rmSync(pwFile);
	const { port, server } = await startOnFreePort({
		what: 'Postgres',
		logFile: path.join(dir, 'postgres.log'),
		onChosen,
		command: (port) =>
			asPostgresUser(path.join(bin, 'postgres'), [
				'-D',
				data,
				'-p',
				String(port),
				'-c',
				`listen_addresses=${HOST}`,
				'-c',
				`unix_socket_directories=${socketDir}`,
				'-c',
				'max_connections=100',
			]),
		// Postgres opens its unix socket (in a folder of its own) only after it listens on the port
		isReady: (port) =>
			spawnSync(path.join(bin, 'pg_isready'), ['-q', '-h', socketDir, '-p', String(port)])
				.status === 0,
	});
	runOk(
		path.join(bin, 'createdb'),
		['-h', socketDir, '-p', String(port), '-U', user, database],
		'createdb',
	);
	return {
		host: HOST,
		port,
		user,
		password,
		database,
		logFile: server.logFile,
		version: versions().postgres,
		pid: server.pid,
		stop: () => server.stop(),
	};
}

/** Redis on a free port of 127.0.0.1, nothing saved to disk. */
async function startRedis({ dir, onChosen }) {
	const bin = redisServerBin();
	if (!bin) throw new Error('redis-server is not installed (ensureQueuePackages installs it)');
	const root = path.join(dir, 'redis');
	fs.mkdirSync(root, { recursive: true });
	const socketPath = path.join(root, 'redis.sock');
	const { port, server } = await startOnFreePort({
		what: 'Redis',
		logFile: path.join(dir, 'redis.log'),
		onChosen,
		command: (port) => [
			bin,
			[
				'--port',
				String(port),
				'--bind',
				HOST,
				'--unixsocket',
				socketPath,
				'--unixsocketperm',
				'700',
				'--save',
				'',
				'--appendonly',
				'no',
				'--dir',
				root,
				'--daemonize',
				'no',
			],
		],
		// Redis opens its unix socket only after it listens on the port
		isReady: async () => (await redisCommand({ path: socketPath }, 'PING')) === '+PONG',
	});
	return {
		host: HOST,
		port,
		logFile: server.logFile,
		version: versions().redis,
		pid: server.pid,
		stop: () => server.stop(),
	};
}

module.exports = { ensureQueuePackages, startPostgres, startRedis, versions, redisCommand };
