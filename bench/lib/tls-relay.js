'use strict';
// The benchmark's network: HTTPS with a round trip, in a process of its own, on 127.0.0.1. For each
// sandbox port in RELAY_TARGETS (JSON {name: port}):
//
//   client --TCP--> delay --TCP--> TLS server (RELAY_CERT / RELAY_KEY) --TCP--> sandbox
//
// `delay` holds every chunk `delayMs` in each direction, the TLS handshake's too, in order (a
// one-way latency: a round trip is 2 x delayMs; bandwidth and TCP's own handshake and slow start
// are not simulated). The TLS server counts the TLS connections it completes (secureConnection).
//
// IPC: { id, cmd: 'clear', delayMs } sets the delay, zeroes the count  -> { id, ok: true }
//      { id, cmd: 'count' }  TLS connections since 'clear', CPU spent  -> { id, tlsConnections, cpuMs }
//      { cmd: 'close' }

const fs = require('node:fs');
const net = require('node:net');
const tls = require('node:tls');

const targets = JSON.parse(process.env.RELAY_TARGETS);
const secure = {
	cert: fs.readFileSync(process.env.RELAY_CERT),
	key: fs.readFileSync(process.env.RELAY_KEY),
};
let delayMs = 0;
let tlsConnections = 0;
let cpuStart = process.cpuUsage();

/** Writes what `from` sends to `to`, each chunk (and the end) `delayMs` after it arrived, in order. */
function delayedPipe(from, to) {
	const queue = [];
	let timer = null;
	const deliver = (chunk) => (chunk === null ? to.end() : to.write(chunk));
	const drain = () => {
		timer = null;
		const now = Date.now();
		while (queue.length > 0 && queue[0].at <= now) deliver(queue.shift().chunk);
		if (queue.length > 0) timer = setTimeout(drain, queue[0].at - now);
	};
	const push = (chunk) => {
		if (delayMs === 0 && queue.length === 0) return deliver(chunk);
		queue.push({ at: Date.now() + delayMs, chunk });
		if (!timer) timer = setTimeout(drain, delayMs);
	};
	from.on('data', push);
	from.on('end', () => push(null));
	from.on('error', () => to.destroy());
	from.on('close', () => {
		if (queue.length === 0) to.destroy();
	});
}

async function listen(server) {
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return server.address().port;
}

async function relayTo(sandboxPort) {
	// Nagle's algorithm on any hop would hold small writes for the peer's delayed ACK (40 ms): off everywhere.
	const terminator = tls.createServer({ ...secure, noDelay: true }, (clear) => {
		const upstream = net.connect({ port: sandboxPort, host: '127.0.0.1', noDelay: true });
		clear.pipe(upstream).pipe(clear);
		clear.on('error', () => upstream.destroy());
		upstream.on('error', () => clear.destroy());
	});
	terminator.on('secureConnection', () => tlsConnections++);
	terminator.on('tlsClientError', () => undefined);
	const tlsPort = await listen(terminator);
	const front = net.createServer({ noDelay: true }, (client) => {
		const inner = net.connect({ port: tlsPort, host: '127.0.0.1', noDelay: true });
		delayedPipe(client, inner);
		delayedPipe(inner, client);
	});
	return listen(front);
}

async function main() {
	const ports = {};
	for (const [name, port] of Object.entries(targets)) ports[name] = await relayTo(port);
	process.on('message', (msg) => {
		if (msg.cmd === 'clear') {
			delayMs = msg.delayMs ?? 0;
			tlsConnections = 0;
			cpuStart = process.cpuUsage();
			process.send({ id: msg.id, ok: true });
		} else if (msg.cmd === 'count') {
			const cpu = process.cpuUsage(cpuStart);
			process.send({ id: msg.id, tlsConnections, cpuMs: (cpu.user + cpu.system) / 1000 });
		} else if (msg.cmd === 'close') {
			process.exit(0);
		}
	});
	process.on('disconnect', () => process.exit(0));
	process.send({ type: 'ready', ports });
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
