'use strict';
/**
 * n8n in queue mode on this machine: Postgres and Redis (queue-services.js), a main instance and
 * workers of the pinned n8n (n8n.js), each instance with its own user folder and this package
 * installed in it, all sharing one encryption key, one database and one queue.
 *
 *   const q = await QueueCluster.create({ workers: 2, concurrency: 10 });
 *   await q.main.importCredentials([...]); await q.importAndPublish(workflow);
 *   await q.start();                     // main (migrations, webhooks), then the workers
 *   await q.sql('select status from execution_entity');   // the shared database
 *   q.executionsRunBy(q.workers[0]);     // execution ids that worker started (from its log)
 *   await q.workers[0].kill();           // SIGKILL, as a crash would
 *   await q.restartMain();               // the main stopped and started again (polling triggers run there)
 *   await q.dispose();                   // stops everything, removes the folders
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { N8n } = require('./n8n');
const { ensureQueuePackages, startPostgres, startRedis } = require('./queue-services');

/** The environment every instance of one queue-mode setup shares. */
function queueEnv(postgres, redis) {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: postgres.password,
		// the editor's "Execute workflow" runs on a worker too, not on the main
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
	};
}

class QueueCluster {
	/**
	 * Installs Postgres and Redis when missing, starts them, prepares (does not start) the main
	 * and the workers, each with the package installed.
	 * @param {object} o
	 * @param {string} [o.name]        prefix of the folders
	 * @param {number} [o.workers]     how many workers (default 2)
	 * @param {number} [o.concurrency] executions at once per worker (n8n worker --concurrency)
	 * @param {number} [o.port]        the main's port (default: a free one)
	 * @param {boolean} [o.quiet]      do not print n8n's output (default true)
	 * @param {object} [o.env]         more environment for every instance
	 * @param {(service: string, ports: object, attempt: number) => Promise<void>} [o.onPortsChosen]
	 *   awaited between choosing a service's ports and starting it ('postgres', 'redis', 'main',
	 *   'worker 1', …; the tests of port choice take one there)
	 */
	static async create(o = {}) {
		const cluster = new QueueCluster(o);
		try {
			await cluster.prepare();
		} catch (e) {
			await cluster.dispose();
			throw e;
		}
		return cluster;
	}

	constructor(o) {
		this.options = { name: 'queue', workers: 2, concurrency: 10, quiet: true, ...o };
		this.workers = [];
		this.main = null;
	}

	async prepare() {
		const { name, workers, quiet, port, env, onPortsChosen } = this.options;
		const hook = (service) =>
			onPortsChosen && ((ports, attempt) => onPortsChosen(service, ports, attempt));
		this.versions = ensureQueuePackages();
		// outside the n8n install folder: Postgres's own user must be able to reach its data
		this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-${name}-`));
		[this.postgres, this.redis] = await Promise.all([
			startPostgres({ dir: this.dir, onChosen: hook('postgres') }),
			startRedis({ dir: this.dir, onChosen: hook('redis') }),
		]);
		this.encryptionKey = crypto.randomBytes(24).toString('hex');
		const shared = {
			encryptionKey: this.encryptionKey,
			env: { ...queueEnv(this.postgres, this.redis), ...env },
			quiet,
		};
		this.main = await N8n.create({
			name: `${name}-main`,
			port,
			...shared,
			onPortsChosen: hook('main'),
		});
		this.main.name = 'main';
		this.main.installPackage();
		for (let i = 1; i <= workers; i++) {
			const worker = await N8n.create({
				name: `${name}-worker${i}`,
				...shared,
				onPortsChosen: hook(`worker ${i}`),
			});
			worker.name = `worker ${i}`;
			worker.installPackage();
			this.workers.push(worker);
		}
	}

	/** Imports a workflow (through the main's CLI, into the shared database) and publishes it. */
	async importAndPublish(workflow) {
		await this.main.importWorkflow(workflow);
		await this.main.activateWorkflow(workflow.id);
	}

	/** Starts the main (it runs the migrations and registers the webhooks), then the workers. */
	async start() {
		await this.main.start();
		await Promise.all(
			this.workers.map((w) => w.startWorker({ concurrency: this.options.concurrency })),
		);
	}

	/**
	 * Restarts the main as an operator would (SIGTERM, then `n8n start` again), or after a crash
	 * (`{ crash: true }`: SIGKILL). Polling triggers run on the main, so they restart with it.
	 */
	async restartMain({ crash = false } = {}) {
		if (crash) await this.main.kill();
		else await this.main.stop();
		await this.main.start();
	}

	/** Runs a query on the shared database (with n8n's own `pg` client): the rows. */
	async sql(text, params = []) {
		if (!this.pgClient) {
			const { Client } = require(path.join(this.main.install.dir, 'node_modules', 'pg'));
			const { host, port, user, password, database } = this.postgres;
			this.pgClient = new Client({ host, port, user, password, database });
			await this.pgClient.connect();
		}
		return (await this.pgClient.query(text, params)).rows;
	}

	/** Execution records of a workflow: { id, status, mode, finished, retryOf, retrySuccessId }[]. */
	executions(workflowId) {
		return this.sql(
			'select id::text, status, mode, finished, "retryOf", "retrySuccessId" from execution_entity where "workflowId" = $1 order by id',
			[workflowId],
		);
	}

	/**
	 * The output items (json) of a node in a stored execution: n8n keeps the run data in
	 * execution_data.data in the `flatted` format.
	 */
	async executionOutput(executionId, nodeName) {
		const [row] = await this.sql('select data from execution_data where "executionId" = $1', [
			executionId,
		]);
		if (!row) return null;
		const { parse } = require(path.join(this.main.install.dir, 'node_modules', 'flatted'));
		const runs = parse(row.data).resultData?.runData?.[nodeName] ?? [];
		return runs.flatMap((run) => (run.data?.main?.[0] ?? []).map((item) => item.json));
	}

	/** Ids of the executions a worker started, read from its log ("Worker started execution <id>"). */
	executionsRunBy(worker) {
		const log = fs.existsSync(worker.logFile) ? fs.readFileSync(worker.logFile, 'utf8') : '';
		return [...log.matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]);
	}

	/** Stops every process it started and removes its folders. */
	async dispose() {
		await this.pgClient?.end().catch(() => {});
		await Promise.allSettled([this.main, ...this.workers].filter(Boolean).map((n) => n.dispose()));
		await Promise.allSettled([this.redis?.stop(), this.postgres?.stop()]);
		if (this.dir && !process.env.N8N_E2E_KEEP)
			fs.rmSync(this.dir, { recursive: true, force: true });
	}
}

module.exports = { QueueCluster, queueEnv };
