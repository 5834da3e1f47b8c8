'use strict';
// Finds n8n's own nodes (n8n-nodes-base, which holds the HTTP Request node) and loads them against
// the repo's copy of n8n-workflow.
//
// n8n-nodes-base is not a dependency of this package: it comes with a full n8n install, which
// scripts/n8n-local.js puts in the git-ignored .n8n-local/n8n-<version>/ (n8n 2.8.4 by default,
// matching the root's n8n-core 2.8.1 / n8n-workflow 2.8.0).
//
// Module duplication: n8n-nodes-base does `require('n8n-workflow')`, which Node would resolve to
// .n8n-local/n8n-<version>/node_modules/n8n-workflow, a second copy of the package next to the
// root one that n8n-core (and the harness) use. Two copies mean two module instances: errors the
// HTTP Request node throws would not be `instanceof` the root's NodeApiError / NodeOperationError
// that n8n-core checks, the second copy's LoggerProxy is never initialised, and the process loads
// (and holds in memory) n8n-workflow twice. n8n itself avoids this because it runs with one
// n8n-workflow for everything. So a Module._resolveFilename hook sends `n8n-workflow` (and its
// subpaths) asked for from inside n8n-nodes-base to the root copy; every other dependency of
// n8n-nodes-base (lodash, cheerio, ...) still resolves inside .n8n-local.

const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const ROOT = path.resolve(__dirname, '..', '..');
const SHARED = /^n8n-workflow(\/|$)/;

/** Path of the n8n-nodes-base package to use, or null (with the reason) when there is none. */
function findNodesBase() {
	const fromEnv = process.env.BENCH_N8N_NODES_BASE;
	if (fromEnv) return fs.existsSync(path.join(fromEnv, 'package.json')) ? fromEnv : null;
	const { LOCAL: local } = require('../../scripts/n8n-local');
	if (!fs.existsSync(local)) return null;
	const candidates = fs
		.readdirSync(local)
		.filter((d) => d.startsWith('n8n-'))
		.map((d) => path.join(local, d, 'node_modules', 'n8n-nodes-base'))
		.filter((p) =>
			fs.existsSync(path.join(p, 'dist', 'nodes', 'HttpRequest', 'V3', 'HttpRequestV3.node.js')),
		);
	// prefer the release that matches the root's n8n-workflow (same minor), as n8n would ship them
	const rootWorkflow = require(
		path.join(ROOT, 'node_modules', 'n8n-workflow', 'package.json'),
	).version;
	const minor = (v) => v.split('.').slice(0, 2).join('.');
	const score = (p) => {
		const wf = path.join(p, '..', 'n8n-workflow', 'package.json');
		return fs.existsSync(wf) && minor(require(wf).version) === minor(rootWorkflow) ? 1 : 0;
	};
	candidates.sort((a, b) => score(b) - score(a));
	return candidates[0] || null;
}

function howToInstall() {
	return (
		'n8n-nodes-base (the HTTP Request node) was not found under .n8n-local/. Install n8n 2.8.4 there with ' +
		'`node scripts/n8n-local.js` (about 5 minutes and 2.3 GB, once), or run the bench with ' +
		'BENCH_INSTALL_N8N=1, or point BENCH_N8N_NODES_BASE at an n8n-nodes-base folder. ' +
		'Running the other two ways only.'
	);
}

let hooked = false;
/** Makes `n8n-workflow` resolve to the root copy for every module inside `nodesBaseDir`'s install. */
function shareN8nWorkflow(nodesBaseDir) {
	if (hooked) return;
	hooked = true;
	const installRoot = path.dirname(path.dirname(nodesBaseDir)) + path.sep; // .../n8n-2.8.4/
	const rootParent = {
		id: path.join(ROOT, 'index.js'),
		filename: path.join(ROOT, 'index.js'),
		paths: Module._nodeModulePaths(ROOT),
	};
	const original = Module._resolveFilename;
	Module._resolveFilename = function (request, parent, ...rest) {
		if (
			SHARED.test(request) &&
			parent &&
			parent.filename &&
			parent.filename.startsWith(installRoot)
		) {
			return original.call(this, request, rootParent, ...rest);
		}
		return original.call(this, request, parent, ...rest);
	};
}

/** The HTTP Request node, version 3 class (serves typeVersions 3 to 4.4), named as in n8n. */
function loadHttpRequestNode(nodesBaseDir) {
	shareN8nWorkflow(nodesBaseDir);
	const { HttpRequestV3 } = require(
		path.join(nodesBaseDir, 'dist', 'nodes', 'HttpRequest', 'V3', 'HttpRequestV3.node.js'),
	);
	return new HttpRequestV3({
		displayName: 'HTTP Request',
		name: 'httpRequest',
		group: ['output'],
		description: 'Makes an HTTP request and returns the response data',
		defaultVersion: 4.4,
	});
}

/** Checks that only the root n8n-workflow was loaded (call after loading). */
function n8nWorkflowCopies() {
	const dirs = new Set();
	for (const file of Object.keys(require.cache)) {
		const m = /^(.*\/node_modules\/n8n-workflow)\//.exec(file);
		if (m) dirs.add(m[1]);
	}
	return [...dirs];
}

module.exports = { findNodesBase, howToInstall, loadHttpRequestNode, n8nWorkflowCopies, ROOT };
