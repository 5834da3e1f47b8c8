'use strict';
// Before any end-to-end test: the package is built and the pinned n8n is installed (reused when
// .n8n-local/ has it already).
const fs = require('node:fs');
const path = require('node:path');
const { ensureN8n } = require('../../scripts/n8n-local');

module.exports = async function globalSetup(globalConfig) {
	if (globalConfig.maxWorkers > 1) {
		throw new Error(
			'each end-to-end test file starts its own n8n: run them one at a time with `npm run test:e2e` or `npm run test:queue` (jest -w 1); `npm test` runs the unit suite',
		);
	}
	const root = path.resolve(__dirname, '..', '..');
	if (
		!fs.existsSync(
			path.join(root, 'dist', 'nodes', 'SubscriptionBilling', 'SubscriptionBilling.node.js'),
		)
	) {
		throw new Error('dist/ is missing: run `npm run build` before the end-to-end tests');
	}
	const n8n = ensureN8n();
	process.stderr.write(
		`\n[e2e] n8n ${n8n.version} (${path.relative(root, n8n.dir)}) on Node ${n8n.node === process.execPath ? process.version : n8n.node}\n`,
	);
};
