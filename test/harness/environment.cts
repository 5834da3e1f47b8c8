/**
 * Process-wide n8n-core setup: DI registrations, log capture and shutdown.
 * n8n-core resolves Logger, InstanceSettings (and through it Cipher) from the @n8n/di Container.
 * The real InstanceSettings reads/writes ~/.n8n/config, so a stand-in is registered instead.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { InstanceSettings } from 'n8n-core';
// Not re-exported by n8n-core's index; same module instance as the one n8n-core resolves.
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';
import { LoggerProxy } from 'n8n-workflow';
import type { Logger as WorkflowLogger, LogMetadata } from 'n8n-workflow';

/** Per-run capture buffer; async context follows the run through promises, timers and sockets. */
const runLogs = new AsyncLocalStorage<string[]>();
const unscopedLogs: string[] = [];

function safeStringify(value: unknown): string {
	const seen = new WeakSet<object>();
	return JSON.stringify(value, (_key, v: unknown) => {
		if (v instanceof Error) return { ...v, name: v.name, message: v.message };
		if (typeof v === 'object' && v !== null) {
			if (seen.has(v)) return '[Circular]';
			seen.add(v);
		}
		return typeof v === 'bigint' ? v.toString() : v;
	});
}

type Level = 'error' | 'warn' | 'info' | 'debug';
function record(level: Level, message: string, metadata?: LogMetadata): void {
	const meta = metadata && Object.keys(metadata).length > 0 ? ` ${safeStringify(metadata)}` : '';
	(runLogs.getStore() ?? unscopedLogs).push(`[${level}] ${message}${meta}`);
}

const capturingLogger = {
	error: (m: string, meta?: LogMetadata) => record('error', m, meta),
	warn: (m: string, meta?: LogMetadata) => record('warn', m, meta),
	info: (m: string, meta?: LogMetadata) => record('info', m, meta),
	debug: (m: string, meta?: LogMetadata) => record('debug', m, meta),
	scoped() {
		return capturingLogger;
	},
};

const fakeInstanceSettings = {
	instanceId: 'harness-instance-id',
	hostId: 'main-harness',
	instanceType: 'main',
	instanceRole: 'leader',
	isLeader: true,
	isMultiMain: false,
	isSingleMain: true,
	isWorker: false,
	encryptionKey: 'harness-encryption-key',
	hmacSignatureSecret: 'harness-hmac-secret',
	n8nFolder: '/nonexistent/harness/.n8n',
	staticCacheDir: '/nonexistent/harness/.cache',
	customExtensionDir: '/nonexistent/harness/.n8n/custom',
	nodesDownloadDir: '/nonexistent/harness/.n8n/nodes',
};

let initialized = false;

/** Idempotent: registers the DI stand-ins and the capturing logger. */
export function ensureN8nCoreEnvironment(): void {
	if (initialized) return;
	initialized = true;
	Container.set(Logger, capturingLogger as unknown as Logger);
	Container.set(InstanceSettings, fakeInstanceSettings as unknown as InstanceSettings);
	LoggerProxy.init(capturingLogger as WorkflowLogger);
}

/** Runs fn with its own log buffer and returns the buffer alongside fn's result. */
export async function withCapturedLogs<T>(
	fn: () => Promise<T>,
): Promise<{ value: T; logs: string[] }> {
	const logs: string[] = [];
	const value = await runLogs.run(logs, fn);
	return { value, logs };
}

/**
 * n8n-core 2.8.x: every ExecuteContext resolves SSHClientsManager, whose constructor starts a
 * 60 s setInterval that is never unref'd, so jest never exits. Clear it (and any SSH clients).
 */
export function shutdownN8nCore(): void {
	if (!initialized) return;
	const manager = Container.get(SSHClientsManager) as unknown as { onShutdown(): void };
	manager.onShutdown();
}
