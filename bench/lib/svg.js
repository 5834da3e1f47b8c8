'use strict';
// A hand-written SVG chart: wall time per invoice (µs) against list size, one line per way, both
// axes logarithmic (a flat line = cost grows linearly with the list; the vertical gap between two
// lines = their ratio). The figures are repeated in a table under the plot. No dependencies.

const COLORS = { node: '#d9480f', httpRequest: '#1c7ed6', loop: '#2b8a3e' };
const LABELS = {
	node: 'this node (n8n engine)',
	httpRequest: 'HTTP Request node (n8n engine)',
	loop: 'plain keep-alive loop',
};

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** 1-2-5 ticks covering [lo, hi]. */
function logTicks(lo, hi) {
	const ticks = [];
	for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
		for (const m of [1, 2, 5]) {
			const v = m * 10 ** e;
			if (v >= lo * 0.999 && v <= hi * 1.001) ticks.push(v);
		}
	}
	return ticks;
}

/** series: [{ way, points: [{ size, us }] }] */
function timePerInvoiceSvg(series, { title } = {}) {
	const sizes = [...new Set(series.flatMap((s) => s.points.map((p) => p.size)))].sort(
		(a, b) => a - b,
	);
	const all = series.flatMap((s) => s.points.map((p) => p.us));
	const yLo = 10 ** Math.floor(Math.log10(Math.min(...all) * 0.9));
	const yHi = 10 ** Math.ceil(Math.log10(Math.max(...all) * 1.1));
	const W = 820;
	const tableRows = series.length + 1;
	const m = { left: 80, right: 270, top: 50, bottom: 70 + tableRows * 20 + 20 };
	const ph = 300;
	const H = m.top + ph + m.bottom;
	const pw = W - m.left - m.right;
	const lx0 = Math.log10(sizes[0]);
	const lx1 = Math.log10(sizes[sizes.length - 1]);
	const x = (size) =>
		m.left + (lx1 === lx0 ? pw / 2 : ((Math.log10(size) - lx0) / (lx1 - lx0)) * pw);
	const y = (us) =>
		m.top + ph - ((Math.log10(us) - Math.log10(yLo)) / (Math.log10(yHi) - Math.log10(yLo))) * ph;
	const out = [];
	out.push(
		`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="13">`,
	);
	out.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
	out.push(
		`<text x="${m.left}" y="28" font-size="16" font-weight="bold" fill="#222">${esc(title ?? '')}</text>`,
	);
	for (const v of logTicks(yLo, yHi)) {
		out.push(
			`<line x1="${m.left}" x2="${m.left + pw}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e6e6e6"/>`,
		);
		out.push(
			`<text x="${m.left - 8}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" fill="#444">${esc(v.toLocaleString('en-US'))}</text>`,
		);
	}
	out.push(
		`<text transform="translate(22 ${m.top + ph / 2}) rotate(-90)" text-anchor="middle" fill="#222">µs per invoice (log scale)</text>`,
	);
	out.push(`<line x1="${m.left}" x2="${m.left}" y1="${m.top}" y2="${m.top + ph}" stroke="#888"/>`);
	out.push(
		`<line x1="${m.left}" x2="${m.left + pw}" y1="${m.top + ph}" y2="${m.top + ph}" stroke="#888"/>`,
	);
	for (const s of sizes) {
		out.push(
			`<line x1="${x(s).toFixed(1)}" x2="${x(s).toFixed(1)}" y1="${m.top + ph}" y2="${m.top + ph + 5}" stroke="#888"/>`,
		);
		out.push(
			`<text x="${x(s).toFixed(1)}" y="${m.top + ph + 20}" text-anchor="middle" fill="#444">${s.toLocaleString('en-US')}</text>`,
		);
	}
	out.push(
		`<text x="${m.left + pw / 2}" y="${m.top + ph + 42}" text-anchor="middle" fill="#222">invoices listed (Return All, page size 1000; log scale)</text>`,
	);
	for (const s of series) {
		const color = COLORS[s.way] ?? '#666';
		const pts = s.points.map((p) => `${x(p.size).toFixed(1)},${y(p.us).toFixed(1)}`).join(' ');
		out.push(`<polyline points="${pts}" fill="none" stroke="${color}" stroke-width="2.5"/>`);
		for (const p of s.points)
			out.push(
				`<circle cx="${x(p.size).toFixed(1)}" cy="${y(p.us).toFixed(1)}" r="4" fill="${color}"/>`,
			);
	}
	// legend
	series.forEach((s, i) => {
		const ly = m.top + 12 + i * 24;
		const lx = m.left + pw + 24;
		out.push(
			`<line x1="${lx}" x2="${lx + 24}" y1="${ly}" y2="${ly}" stroke="${COLORS[s.way] ?? '#666'}" stroke-width="3"/>`,
		);
		out.push(
			`<text x="${lx + 32}" y="${ly + 4}" fill="#222">${esc(LABELS[s.way] ?? s.way)}</text>`,
		);
	});
	const note = m.top + 12 + series.length * 24 + 12;
	out.push(
		`<text x="${m.left + pw + 24}" y="${note}" font-size="11" fill="#666">flat line = cost grows linearly;</text>`,
	);
	out.push(
		`<text x="${m.left + pw + 24}" y="${note + 15}" font-size="11" fill="#666">at 1,000 (one page) the fixed cost</text>`,
	);
	out.push(
		`<text x="${m.left + pw + 24}" y="${note + 30}" font-size="11" fill="#666">of running a workflow dominates</text>`,
	);
	// table of the figures
	const ty = m.top + ph + 70;
	const colW = Math.min(100, (W - m.left - 320) / Math.max(1, sizes.length - 1));
	out.push(`<text x="${m.left}" y="${ty}" font-weight="bold" fill="#222">µs per invoice</text>`);
	sizes.forEach((size, j) =>
		out.push(
			`<text x="${m.left + 320 + j * colW}" y="${ty}" text-anchor="end" font-weight="bold" fill="#222">${size.toLocaleString('en-US')}</text>`,
		),
	);
	series.forEach((s, i) => {
		const rowY = ty + 20 * (i + 1);
		out.push(
			`<text x="${m.left}" y="${rowY}" fill="${COLORS[s.way] ?? '#666'}">${esc(LABELS[s.way] ?? s.way)}</text>`,
		);
		sizes.forEach((size, j) => {
			const p = s.points.find((q) => q.size === size);
			out.push(
				`<text x="${m.left + 320 + j * colW}" y="${rowY}" text-anchor="end" fill="#222">${p ? p.us.toFixed(1) : '–'}</text>`,
			);
		});
	});
	out.push('</svg>');
	return `${out.join('\n')}\n`;
}

module.exports = { timePerInvoiceSvg };
