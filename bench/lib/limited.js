'use strict';
// Figures, goals and the plot of the scenarios against an API with latency and a rate limit
// (bench/run.js: 'limited-write' and 'limited-list').

const { ratePlotSvg } = require('./rate-svg');

const LABELS = {
	node: 'this node, default settings',
	httpRequest: 'HTTP Request node, defaults',
	httpRequestRetry: 'HTTP Request node, Retry On Fail',
	loop: 'plain keep-alive loop',
	ideal: `ideal (writes ÷ limit)`,
};

const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = Math.floor(s.length / 2);
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (x, digits = 0) =>
	x === undefined || Number.isNaN(x)
		? '–'
		: x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The run whose wall time is the median of its way's runs (for the plot). */
function medianRun(runs) {
	const sorted = [...runs].sort((a, b) => a.wallMs - b.wallMs);
	return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * run: bench/run.js's run object. Returns { tables: [markdown], goals: [{name, measured, pass, rule}],
 * svg } or undefined when the run has no limited scenarios.
 */
function limitedReport(run) {
	const { results, limitsConfig: cfg } = run;
	const writes = results.filter((r) => r.key === 'limited-write');
	const lists = results.filter((r) => r.key === 'limited-list');
	if (!cfg || writes.length === 0) return undefined;
	const idealMs = (cfg.writes / cfg.limits.ratePerSecond) * 1000;
	const ways = [...new Set(writes.map((r) => r.way))];
	const rows = ways.map((way) => {
		const runs = writes.filter((r) => r.way === way);
		const wallMs = median(runs.map((r) => r.wallMs));
		return {
			way,
			runs: runs.length,
			wallMs,
			minMs: Math.min(...runs.map((r) => r.wallMs)),
			maxMs: Math.max(...runs.map((r) => r.wallMs)),
			ratio: wallMs / idealMs,
			requests: median(runs.map((r) => r.requests)),
			tooMany: median(
				runs.map((r) => r.limited.limits.limited + r.limited.limits.rejectedInFlight),
			),
			failed: Math.max(...runs.map((r) => r.failed ?? 0)),
			applied: median(runs.map((r) => r.limited.applied)),
			doubled: Math.max(...runs.map((r) => r.limited.doubled)),
			maxInFlight: Math.max(...runs.map((r) => r.limited.limits.maxInFlightSeen)),
			cpuMs: median(runs.map((r) => r.cpuMs)),
			error: runs.find((r) => r.error)?.error,
			arrivals: medianRun(runs).limited.arrivals,
		};
	});
	const { latencyMs, jitterMs, ratePerSecond, burst } = cfg.limits;
	const lines = [];
	lines.push(
		`### ${fmt(cfg.writes)} usage writes (PATCH /usage, one per item) against an API with ${latencyMs}–${latencyMs + jitterMs} ms latency and ${ratePerSecond} requests/s (burst ${burst})`,
		'',
		'| way | runs | median wall s (min–max) | wall ÷ ideal | requests | 429s received | failed items | writes applied | applied twice | most in flight (sandbox) | client CPU ms |',
		'|---|---|---|---|---|---|---|---|---|---|---|',
	);
	lines.push(
		`| ${LABELS.ideal} | – | ${fmt(idealMs / 1000, 1)} | 1.00x | ${fmt(cfg.writes)} | 0 | 0 | ${fmt(cfg.writes)} | 0 | – | – |`,
	);
	for (const r of rows) {
		lines.push(
			`| ${LABELS[r.way] ?? r.way} | ${r.runs} | ${fmt(r.wallMs / 1000, 1)} (${fmt(r.minMs / 1000, 1)}–${fmt(r.maxMs / 1000, 1)}) | ${r.ratio.toFixed(2)}x | ${fmt(r.requests)} | ${fmt(r.tooMany)} | ${fmt(r.failed)} | ${fmt(r.applied)} | ${fmt(r.doubled)} | ${fmt(r.maxInFlight)} | ${fmt(r.cpuMs)} |`,
		);
	}
	const errors = rows.filter((r) => r.error);
	if (errors.length) {
		lines.push('');
		for (const r of errors)
			lines.push(`- ${LABELS[r.way] ?? r.way}: the execution failed: "${r.error}"`);
	}
	const tables = [lines.join('\n')];

	const listRows = [...new Set(lists.map((r) => r.way))].map((way) => {
		const runs = lists.filter((r) => r.way === way);
		return {
			way,
			runs: runs.length,
			wallMs: median(runs.map((r) => r.wallMs)),
			requests: median(runs.map((r) => r.requests)),
			cpuMs: median(runs.map((r) => r.cpuMs)),
			count: runs[0].count,
		};
	});
	if (listRows.length) {
		const loop = listRows.find((r) => r.way === 'loop');
		const list = [
			`### Return All of ${fmt(cfg.invoices)} invoices (10 pages of 1000) from the same API`,
			'',
			'| way | runs | median wall ms | requests | invoices | client CPU ms | vs loop |',
			'|---|---|---|---|---|---|---|',
		];
		for (const r of listRows) {
			list.push(
				`| ${LABELS[r.way] ?? r.way} | ${r.runs} | ${fmt(r.wallMs)} | ${fmt(r.requests)} | ${fmt(r.count)} | ${fmt(r.cpuMs)} | ${loop ? (r.wallMs / loop.wallMs).toFixed(2) + 'x' : '–'} |`,
			);
		}
		tables.push(list.join('\n'));
	}

	const goals = [];
	const node = rows.find((r) => r.way === 'node');
	if (node) {
		goals.push({
			name: `limited-write: this node's wall time ÷ ideal (${fmt(idealMs / 1000)} s)`,
			measured: `${node.ratio.toFixed(2)}x (${fmt((100 / node.ratio) | 0)}% of the limit)`,
			pass: node.ratio <= 1.11,
			rule: '<= 1.11x (>= 90% of the limit), no tuning',
		});
		goals.push({
			name: 'limited-write: this node, failed items',
			measured: fmt(node.failed),
			pass: node.failed === 0,
			rule: '0',
		});
		goals.push({
			name: 'limited-write: this node, writes applied twice',
			measured: fmt(node.doubled),
			pass: node.doubled === 0,
			rule: '0',
		});
	}
	const listNode = listRows.find((r) => r.way === 'node');
	const listLoop = listRows.find((r) => r.way === 'loop');
	if (listNode && listLoop) {
		const ratio = listNode.wallMs / listLoop.wallMs;
		goals.push({
			name: `limited-list: Return All of ${fmt(cfg.invoices)} at ${latencyMs}–${latencyMs + jitterMs} ms, wall time vs plain loop`,
			measured: `${ratio.toFixed(2)}x`,
			pass: ratio <= 1.25,
			rule: '<= 1.25x',
		});
	}

	const svg = ratePlotSvg(
		rows.map((r) => ({ way: r.way, label: LABELS[r.way] ?? r.way, arrivals: r.arrivals })),
		{
			limit: ratePerSecond,
			idealS: idealMs / 1000,
			title: `${fmt(cfg.writes)} writes against ${ratePerSecond} requests/s: answers per second (median run)`,
		},
	);
	return { tables, goals, svg };
}

module.exports = { limitedReport };
