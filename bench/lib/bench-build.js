'use strict';
// Where the trigger benches (bench/trigger.js, bench/bookkeeping.js) build the package and the
// harness: bench/dist/pkg, or BENCH_BUILD (a folder inside the repository, so that the compiled
// files find its node_modules), e.g. BENCH_BUILD=bench/dist/mine to keep a build of one's own
// while another bench uses bench/dist/pkg. bench/run.js builds into bench/dist/pkg always.

const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const BUILD = path.resolve(ROOT, process.env.BENCH_BUILD || path.join('bench', 'dist', 'pkg'));
/** The compiled sources: <BUILD>/dist/nodes, /credentials, /test/harness. */
const BUILT = path.join(BUILD, 'dist');

/** Compiles bench/tsconfig.json into BUILD; throws when tsc reports errors. */
function buildBench() {
	const tsc = spawnSync(
		process.execPath,
		[
			path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
			'-p',
			path.join('bench', 'tsconfig.json'),
			'--outDir',
			BUILT,
			'--tsBuildInfoFile',
			path.join(BUILD, '.tsbuildinfo'),
		],
		{ cwd: ROOT, encoding: 'utf8' },
	);
	if (tsc.status !== 0) throw new Error(`tsc failed:\n${tsc.stdout}`);
	return BUILT;
}

module.exports = { BUILT, buildBench };
