'use strict';
/**
 * Ports for the servers the scripts start (n8n, its task broker, workers' health servers, Postgres,
 * Redis). A program given a port number must be told it before it listens, so the number is chosen
 * first (listen on port 0, read the port, close) and used a moment later: in between, anything else
 * may take it. Two things make that safe:
 *   - this process never hands out the same number twice (two servers of one n8n, or the next
 *     instance, cannot be given one port);
 *   - every start goes through `startOnFreePorts`: the ports are chosen, the server started, and
 *     when it ends because a port was taken in between, new ports are chosen and it starts again.
 * Readiness is only believed from the process that was started (its own log line or private
 * socket), never from whatever answers on the port: a port taken by another server must not pass
 * for ours.
 */
const net = require('node:net');

const HOST = '127.0.0.1';
const handedOut = new Set();

/** Listens on port 0 of 127.0.0.1 and closes again: a port that was free a moment ago. */
function ephemeralPort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, HOST, () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

/** A TCP port of 127.0.0.1 that is free now and that this process has not handed out before. */
async function freePort() {
	for (;;) {
		const port = await ephemeralPort();
		if (handedOut.has(port)) continue;
		handedOut.add(port);
		return port;
	}
}

/** Whether `port` can be listened on at 127.0.0.1. */
function portIsFree(port) {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.unref();
		srv.once('error', () => resolve(false));
		srv.listen(port, HOST, () => srv.close(() => resolve(true)));
	});
}

/** A server ended because one of its ports was taken between choosing the port and listening. */
class PortTakenError extends Error {
	constructor(what, detail) {
		super(`${what}: a port was taken before it could listen (${detail})`);
		this.name = 'PortTakenError';
	}
}

/** Whether a server's output says it could not listen because the address is in use. */
const saysPortTaken = (output) => /already in use/i.test(output);

/**
 * Starts a server on ports chosen for it, again on new ports when one was taken in between.
 *   choose()        picks the ports (and stores them where `start` reads them)
 *   start(attempt)  starts the server on them; throws PortTakenError when a port was taken
 *   onChosen(ports) optional, awaited between choosing and starting (tests take a port there)
 */
async function startOnFreePorts({ what, choose, start, onChosen, attempts = 5, log = defaultLog }) {
	for (let attempt = 1; ; attempt++) {
		const ports = await choose();
		if (onChosen) await onChosen(ports, attempt);
		try {
			return await start(attempt);
		} catch (error) {
			if (!(error instanceof PortTakenError) || attempt >= attempts) throw error;
			log(
				`${what}: ${error.message}; starting again on new ports (attempt ${attempt + 1} of ${attempts})`,
			);
		}
	}
}

function defaultLog(msg) {
	process.stderr.write(`[ports] ${msg}\n`);
}

module.exports = { HOST, PortTakenError, freePort, portIsFree, saysPortTaken, startOnFreePorts };
