'use strict';
// A hand-written SVG bar chart for bench/https.js: per list size and one-way delay, the median wall
// time of each way relative to the keep-alive loop (1.0 = as fast as the loop). No dependencies.

const COLORS = {
	node: '#d9480f',
	nodeSequential: '#f59f00',
	httpRequest: '#1c7ed6',
	loop: '#2b8a3e',
};
const LABELS = {
	node: 'this node',
	nodeSequential: 'this node, a page at a time',
	httpRequest: 'HTTP Request node',
	loop: 'keep-alive loop',
};

/** groups: [{ label, values: { way: ratio } }] */
function ratioBarsSvg(groups, ways, title) {
	const W = 860;
	const H = 380;
	const m = { left: 60, right: 20, top: 50, bottom: 80 };
	const pw = W - m.left - m.right;
	const ph = H - m.top - m.bottom;
	const max = Math.max(2, ...groups.flatMap((g) => ways.map((w) => g.values[w] ?? 0))) * 1.1;
	const y = (v) => m.top + ph - (v / max) * ph;
	const gw = pw / groups.length;
	const bw = (gw * 0.8) / ways.length;
	const out = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">`,
	];
	out.push(
		`<rect width="${W}" height="${H}" fill="white"/>`,
		`<text x="${W / 2}" y="24" text-anchor="middle" font-size="15">${title}</text>`,
	);
	for (let t = 0; t <= max; t += 0.5) {
		out.push(
			`<line x1="${m.left}" x2="${W - m.right}" y1="${y(t)}" y2="${y(t)}" stroke="${t === 1 ? '#555' : '#ddd'}" ${t === 1 ? 'stroke-dasharray="4 3"' : ''}/>`,
		);
		out.push(`<text x="${m.left - 6}" y="${y(t) + 4}" text-anchor="end">${t.toFixed(1)}x</text>`);
	}
	groups.forEach((g, i) => {
		const x0 = m.left + i * gw + gw * 0.1;
		ways.forEach((way, j) => {
			const v = g.values[way];
			if (v === undefined) return;
			out.push(
				`<rect x="${x0 + j * bw}" y="${y(v)}" width="${bw - 2}" height="${m.top + ph - y(v)}" fill="${COLORS[way]}"><title>${LABELS[way]}: ${v.toFixed(2)}x</title></rect>`,
			);
			out.push(
				`<text x="${x0 + j * bw + bw / 2}" y="${y(v) - 3}" text-anchor="middle" font-size="10">${v.toFixed(2)}</text>`,
			);
		});
		g.label
			.split('\n')
			.forEach((line, k) =>
				out.push(
					`<text x="${x0 + gw * 0.4}" y="${m.top + ph + 16 + k * 14}" text-anchor="middle">${line}</text>`,
				),
			);
	});
	ways.forEach((way, j) => {
		const lx = m.left + j * 190;
		out.push(
			`<rect x="${lx}" y="${H - 22}" width="12" height="12" fill="${COLORS[way]}"/><text x="${lx + 18}" y="${H - 12}">${LABELS[way]}</text>`,
		);
	});
	out.push('</svg>');
	return out.join('\n');
}

module.exports = { ratioBarsSvg };
