'use strict';
// Summarises a V8 .cpuprofile (from `node --cpu-prof` or the inspector's Profiler): self time per
// function and per owner (ours = the package's dist/, n8n-core, n8n-workflow, n8n-nodes-base,
// other dependencies, Node's own code, GC).
//
//   node bench/lib/profile-summary.js file.cpuprofile [top]

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

function owner(url, functionName) {
	if (!url) {
		if (functionName === '(garbage collector)') return 'GC';
		if (functionName === '(idle)') return 'idle (waiting on the network)';
		if (functionName === '(program)') return 'V8/native (program)';
		return 'V8/native';
	}
	const file = url.replace(/^file:\/\//, '');
	const pkg = path.join(ROOT, 'bench', 'dist', 'pkg', 'dist') + path.sep;
	if (file.startsWith(path.join(ROOT, 'dist') + path.sep)) return 'ours (package dist/)';
	if (file.startsWith(pkg + 'nodes') || file.startsWith(pkg + 'credentials'))
		return 'ours (package dist/)';
	if (file.startsWith(path.join(ROOT, 'bench') + path.sep)) return 'bench harness';
	const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
	if (m) {
		if (['n8n-core', 'n8n-workflow', 'n8n-nodes-base'].includes(m[1])) return m[1];
		return `dep: ${m[1]}`;
	}
	if (url.startsWith('node:') || !url.includes('/')) return 'Node.js internals';
	return 'other';
}

function shortLocation(url, line) {
	if (!url) return '';
	const file = url.replace(/^file:\/\//, '');
	const pkg = path.join(ROOT, 'bench', 'dist', 'pkg') + path.sep;
	if (file.startsWith(pkg)) return `${file.slice(pkg.length)}:${line + 1}`;
	const rel = file.includes('node_modules/')
		? file.slice(file.lastIndexOf('node_modules/') + 13)
		: path.relative(ROOT, file);
	return `${rel}:${line + 1}`;
}

/** Inclusive buckets: share of the busy time with a matching frame anywhere on the stack. */
const STACK_BUCKETS = [
	[
		'inside our node (perform/transport/pagination and what they call)',
		(f, pkg) => f.url.startsWith(`file://${pkg}nodes`) || f.url.startsWith(`${pkg}nodes`),
	],
	[
		'n8n RoutingNode.runNode, per-item preparation (outside our code)',
		(f) => f.url.includes('routing-node.js') && f.functionName === 'runNode',
	],
	[
		'n8n expression evaluation (Expression.getParameterValue)',
		(f) =>
			f.url.includes('n8n-workflow/dist/cjs/expression.js') &&
			f.functionName === 'getParameterValue',
	],
	[
		'n8n HTTP helpers (n8n-core request-helper-functions, axios, sockets)',
		(f) => f.url.includes('request-helper-functions.js'),
	],
	[
		'credentials (getCredentials / getDecrypted / authenticate)',
		(f) => ['getCredentials', 'getDecrypted', 'authenticate'].includes(f.functionName),
	],
	[
		'n8n HTTP Request node execute()',
		(f) => f.url.includes('HttpRequestV3.node.js') && f.functionName === 'execute',
	],
];

function summarise(profile, top = 20) {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const pkg = path.join(ROOT, 'bench', 'dist', 'pkg', 'dist') + path.sep;
	const self = new Map(); // node id -> microseconds
	const { samples, timeDeltas } = profile;
	for (let i = 0; i < samples.length; i++) {
		const dt = timeDeltas[i + 1] ?? 0; // the delta after a sample is the time spent in it
		self.set(samples[i], (self.get(samples[i]) ?? 0) + dt);
	}
	// inclusive buckets (a frame may repeat on a stack: count the sample once per bucket)
	const bucketUs = STACK_BUCKETS.map(() => 0);
	const stackMemo = new Map();
	const bucketsOf = (id) => {
		if (stackMemo.has(id)) return stackMemo.get(id);
		const up = parent.has(id) ? bucketsOf(parent.get(id)) : 0;
		const { callFrame } = byId.get(id);
		let mask = up;
		STACK_BUCKETS.forEach(([, test], i) => {
			if (test(callFrame, pkg)) mask |= 1 << i;
		});
		stackMemo.set(id, mask);
		return mask;
	};
	for (const [id, us] of self) {
		const mask = bucketsOf(id);
		STACK_BUCKETS.forEach((_, i) => {
			if (mask & (1 << i)) bucketUs[i] += us;
		});
	}
	let total = 0;
	const fns = new Map();
	const owners = new Map();
	for (const [id, us] of self) {
		const { callFrame } = byId.get(id);
		const name = callFrame.functionName || '(anonymous)';
		const key = `${name} ${shortLocation(callFrame.url, callFrame.lineNumber)}`;
		const who = owner(callFrame.url, name);
		total += us;
		const f = fns.get(key) ?? {
			name,
			location: shortLocation(callFrame.url, callFrame.lineNumber),
			owner: who,
			us: 0,
		};
		f.us += us;
		fns.set(key, f);
		owners.set(who, (owners.get(who) ?? 0) + us);
	}
	const busy = total - (owners.get('idle (waiting on the network)') ?? 0);
	return {
		totalMs: total / 1000,
		busyMs: busy / 1000,
		stacks: STACK_BUCKETS.map(([name], i) => ({
			name,
			ms: bucketUs[i] / 1000,
			share: bucketUs[i] / Math.max(1, busy),
		})).filter((b) => b.ms > 0),
		owners: [...owners]
			.map(([name, us]) => ({ name, ms: us / 1000, share: us / total }))
			.sort((a, b) => b.ms - a.ms),
		functions: [...fns.values()]
			.map((f) => ({ ...f, ms: f.us / 1000, share: f.us / total }))
			.sort((a, b) => b.ms - a.ms)
			.slice(0, top),
	};
}

function format(summary) {
	const lines = [];
	lines.push(`profiled ${summary.totalMs.toFixed(0)} ms (busy ${summary.busyMs.toFixed(0)} ms)`);
	lines.push('self time by owner:');
	for (const o of summary.owners)
		lines.push(
			`  ${o.ms.toFixed(0).padStart(6)} ms ${(o.share * 100).toFixed(1).padStart(5)}%  ${o.name}`,
		);
	lines.push('busy time with these on the stack (inclusive, overlapping):');
	for (const b of summary.stacks)
		lines.push(
			`  ${b.ms.toFixed(0).padStart(6)} ms ${(b.share * 100).toFixed(1).padStart(5)}%  ${b.name}`,
		);
	lines.push('top functions (self time):');
	for (const f of summary.functions) {
		lines.push(
			`  ${f.ms.toFixed(0).padStart(6)} ms ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.name}  [${f.owner}] ${f.location}`,
		);
	}
	return lines.join('\n');
}

module.exports = { summarise, format };

if (require.main === module) {
	const profile = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
	console.log(format(summarise(profile, Number(process.argv[3] || 25))));
}
