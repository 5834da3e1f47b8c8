'use strict';
// What `npm run demo` says when something it started ends without being asked to, and what it
// stops then.

const { shownPath } = require('./shownPath');

/** "n8n was killed (SIGKILL); its log: …" for an instance ({ name?, logFile }) that ended by itself. */
function endedMessage(instance, code, signal) {
	const who = instance.name ? `n8n ${instance.name}` : 'n8n';
	const how = signal ? `was killed (${signal})` : `stopped unexpectedly (exit ${code})`;
	return `${who} ${how}; its log: ${shownPath(instance.logFile)}`;
}

/** "n8n, Postgres and the sandbox". */
function listed(names) {
	return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** "Stopping n8n and the sandbox...": the parts the demo started that still run; null when none does. */
function stoppingMessage(running) {
	return running.length === 0 ? null : `Stopping ${listed(running)}...`;
}

module.exports = { endedMessage, stoppingMessage, listed };
