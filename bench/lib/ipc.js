'use strict';
// Request and answer over a forked child's IPC channel: call(cmd, fields) sends { id, cmd, ...fields }
// and resolves with the child's message carrying the same id.

function ipcCaller(child) {
	let nextId = 0;
	return (cmd, fields = {}) =>
		new Promise((resolve) => {
			const id = ++nextId;
			const onMessage = (m) => {
				if (m.id === id) {
					child.off('message', onMessage);
					resolve(m);
				}
			};
			child.on('message', onMessage);
			child.send({ id, cmd, ...fields });
		});
}

module.exports = { ipcCaller };
