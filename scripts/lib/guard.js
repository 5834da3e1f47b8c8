'use strict';
/**
 * Runs a command and makes sure it and everything it started die with the process that asked for
 * it: `node guard.js <ownerPid> <cmd> [args...]`. Started detached (its own process group), it
 * takes down the whole group when the owner is gone (even after a SIGKILL of the owner, e.g. a
 * jest timeout or a closed terminal), when it is told to stop (SIGTERM/SIGINT/SIGHUP), or when the
 * command exits (leftover children such as task runners). Ends as the command ended: with its exit
 * code, or by the same signal, so that its owner can tell a crash or a kill from an exit.
 */
const os = require('node:os');
const { spawn } = require('node:child_process');

const [ownerPid, cmd, ...args] = process.argv.slice(2);
const child = spawn(cmd, args, { stdio: 'inherit' });
let childDone = false;
let stopping = false;

function signalGroup(signal) {
	try {
		process.kill(-process.pid, signal);
	} catch {
		/* already gone */
	}
}

function finish(code, signal) {
	// SIGTERM to what is left of the group (this process ignores it from now on), then leave
	signalGroup('SIGTERM');
	setTimeout(() => (signal ? endBy(signal) : process.exit(code)), 300);
}

/** Ends this process by `signal`, or, for one Node ignores (SIGPIPE), with 128 + its number as a shell does. */
function endBy(signal) {
	process.removeAllListeners(signal);
	process.kill(process.pid, signal);
	setTimeout(() => process.exit(128 + (os.constants.signals[signal] ?? 0)), 300);
}

function stop() {
	if (stopping || childDone) return;
	stopping = true;
	try {
		child.kill('SIGTERM'); // n8n shuts down gracefully on SIGTERM
	} catch {
		/* gone */
	}
	setTimeout(() => signalGroup('SIGKILL'), 8000).unref();
}

for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
	process.on(sig, () => {
		if (!childDone) stop();
	});
}
child.on('exit', (code, signal) => {
	childDone = true;
	// an exit code alone would hide a crash: say which signal ended the command
	if (signal && !stopping)
		process.stderr.write(`[guard] ${cmd} ${args.join(' ')} was ended by ${signal}\n`);
	finish(code, signal);
});
setInterval(() => {
	try {
		process.kill(Number(ownerPid), 0);
	} catch {
		stop();
	}
}, 1000);
