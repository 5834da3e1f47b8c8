'use strict';
// A path as the scripts print it, so that it can be pasted: relative to the directory the user ran
// the command in (npm's INIT_CWD: `npm run` itself runs in the repository's root) when it is inside
// both that directory and the repository, absolute otherwise (n8n's installs may live in a cache
// outside the clone, N8N_LOCAL_DIR).

const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

const inside = (dir, target) => {
	const relative = path.relative(dir, target);
	return relative.split(path.sep)[0] !== '..' && !path.isAbsolute(relative);
};

/** `target` as printed; `cwd` is the user's directory. */
function shownPath(target, { cwd = process.env.INIT_CWD || process.cwd(), root = ROOT } = {}) {
	const absolute = path.resolve(target);
	if (!inside(root, absolute) || !inside(cwd, absolute)) return absolute;
	return path.relative(cwd, absolute) || '.';
}

module.exports = { shownPath };
