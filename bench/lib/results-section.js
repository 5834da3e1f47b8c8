'use strict';
// Puts one section of bench/RESULTS.md (from its "## <heading>" line to the next "## ") in place of
// the previous one, or at the end. What the figures mean is written by hand in bench/FINDINGS.md.

const fs = require('node:fs');
const path = require('node:path');

function writeSection(heading, section) {
	const file = path.join(__dirname, '..', 'RESULTS.md');
	const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
	const full = `${section.trimEnd()}\n`;
	const start = text.indexOf(`\n## ${heading}\n`);
	if (start < 0) return fs.writeFileSync(file, `${text.trimEnd()}\n\n${full}`);
	const next = text.indexOf('\n## ', start + 1);
	fs.writeFileSync(file, `${text.slice(0, start + 1)}${full}${next < 0 ? '' : text.slice(next)}`);
}

/** A run's goals, each `{ name, measured, rule, pass }`, as the lines of a table with a PASS or MISS verdict. */
function goalsTable(goals) {
	return [
		'| goal | measured | rule | verdict |',
		'|---|---|---|---|',
		...goals.map((g) => `| ${g.name} | ${g.measured} | ${g.rule} | ${g.pass ? 'PASS' : 'MISS'} |`),
	];
}

module.exports = { writeSection, goalsTable };
