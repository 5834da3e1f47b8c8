'use strict';
// A hand-written SVG chart: requests answered per second over time against a rate-limited API,
// one line per way (2xx answers, solid; 429s, dotted), the limit as a dashed line. No dependencies.

const COLORS = {
	node: '#d9480f',
	httpRequest: '#1c7ed6',
	httpRequestRetry: '#7048e8',
	loop: '#2b8a3e',
};
const BIN_MS = 1000;

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** arrivals: [[ms since the first request, status]] -> per-second rates of 2xx and 429 per bin. */
function bins(arrivals, count) {
	const ok = new Array(count).fill(0);
	const limited = new Array(count).fill(0);
	for (const [ms, status] of arrivals) {
		const i = Math.min(count - 1, Math.floor(ms / BIN_MS));
		if (status === 429) limited[i]++;
		else if (status >= 200 && status < 300) ok[i]++;
	}
	const perSecond = 1000 / BIN_MS;
	return { ok: ok.map((n) => n * perSecond), limited: limited.map((n) => n * perSecond) };
}

/** series: [{ way, label, arrivals }]; limit: requests/s; idealS: the ideal wall time. */
function ratePlotSvg(series, { limit, idealS, title }) {
	const endMs =
		Math.max(idealS * 1000, ...series.flatMap((s) => s.arrivals.map(([ms]) => ms))) + BIN_MS;
	const count = Math.ceil(endMs / BIN_MS);
	const data = series.map((s) => ({ ...s, ...bins(s.arrivals, count) }));
	const yMax = limit * 3;
	const W = 960;
	const m = { left: 70, right: 310, top: 50, bottom: 60 };
	const pw = W - m.left - m.right;
	const ph = 320;
	const H = m.top + ph + m.bottom;
	const x = (ms) => m.left + (ms / endMs) * pw;
	const y = (v) => m.top + ph - (Math.min(v, yMax) / yMax) * ph;
	const out = [];
	out.push(
		`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="13">`,
	);
	out.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
	out.push(
		`<text x="${m.left}" y="28" font-size="15" font-weight="bold" fill="#222">${esc(title)}</text>`,
	);
	const yStep = yMax > 1000 ? 500 : 50;
	for (let v = 0; v <= yMax; v += yStep) {
		out.push(
			`<line x1="${m.left}" x2="${m.left + pw}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#eee"/>`,
		);
		out.push(
			`<text x="${m.left - 8}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" fill="#444">${v}</text>`,
		);
	}
	const xStep = endMs > 30_000 ? 5000 : endMs > 10_000 ? 2000 : 1000;
	for (let t = 0; t <= endMs; t += xStep) {
		out.push(
			`<text x="${x(t).toFixed(1)}" y="${m.top + ph + 20}" text-anchor="middle" fill="#444">${t / 1000}</text>`,
		);
	}
	out.push(
		`<text x="${m.left + pw / 2}" y="${m.top + ph + 44}" text-anchor="middle" fill="#222">seconds since the first request (bins of ${BIN_MS} ms)</text>`,
	);
	out.push(
		`<text transform="translate(20 ${m.top + ph / 2}) rotate(-90)" text-anchor="middle" fill="#222">answers per second</text>`,
	);
	out.push(
		`<line x1="${m.left}" x2="${m.left + pw}" y1="${y(limit).toFixed(1)}" y2="${y(limit).toFixed(1)}" stroke="#222" stroke-dasharray="6 4"/>`,
	);
	out.push(
		`<text x="${m.left + pw - 4}" y="${(y(limit) - 6).toFixed(1)}" text-anchor="end" fill="#222">limit ${limit}/s</text>`,
	);
	out.push(
		`<line x1="${x(idealS * 1000).toFixed(1)}" x2="${x(idealS * 1000).toFixed(1)}" y1="${m.top}" y2="${m.top + ph}" stroke="#999" stroke-dasharray="2 4"/>`,
	);
	out.push(
		`<text x="${(x(idealS * 1000) - 4).toFixed(1)}" y="${m.top + 12}" text-anchor="end" fill="#666">ideal ${idealS} s</text>`,
	);
	const line = (values, color, dash) => {
		const pts = values
			.map((v, i) => `${x(i * BIN_MS + BIN_MS / 2).toFixed(1)},${y(v).toFixed(1)}`)
			.join(' ');
		return `<polyline points="${pts}" fill="none" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`;
	};
	for (const d of data) {
		const last = Math.max(0, ...d.arrivals.map(([ms]) => ms));
		const used = Math.ceil((last + 1) / BIN_MS);
		out.push(
			line(
				d.ok.slice(0, used),
				COLORS[d.way] ?? '#666',
				d.way === 'httpRequest' ? '8 4' : undefined,
			),
		);
		out.push(line(d.limited.slice(0, used), COLORS[d.way] ?? '#666', '2 3'));
		d.ok
			.slice(0, used)
			.forEach((v, i) =>
				out.push(
					`<circle cx="${x(i * BIN_MS + BIN_MS / 2).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="${COLORS[d.way] ?? '#666'}"/>`,
				),
			);
	}
	data.forEach((d, i) => {
		const ly = m.top + 12 + i * 24;
		const lx = m.left + pw + 20;
		out.push(
			`<line x1="${lx}" x2="${lx + 24}" y1="${ly}" y2="${ly}" stroke="${COLORS[d.way] ?? '#666'}" stroke-width="3"/>`,
		);
		out.push(`<text x="${lx + 32}" y="${ly + 4}" fill="#222">${esc(d.label)}</text>`);
	});
	const note = m.top + 12 + data.length * 24 + 10;
	out.push(
		`<text x="${m.left + pw + 20}" y="${note}" font-size="11" fill="#666">solid (dashed for HTTP Request defaults): 2xx</text>`,
	);
	out.push(
		`<text x="${m.left + pw + 20}" y="${note + 15}" font-size="11" fill="#666">answers; dotted: 429s. Values above ${yMax.toFixed(0)}/s</text>`,
	);
	out.push(
		`<text x="${m.left + pw + 20}" y="${note + 30}" font-size="11" fill="#666">are cut off (the HTTP Request node sends</text>`,
	);
	out.push(
		`<text x="${m.left + pw + 20}" y="${note + 45}" font-size="11" fill="#666">all 2,000 at once: ~1,900 429s in a second)</text>`,
	);
	out.push('</svg>');
	return `${out.join('\n')}\n`;
}

module.exports = { ratePlotSvg };
