const { src, dest } = require('gulp');

/** Copies the icons and the codex files next to the compiled node and credential. */
function buildIcons() {
	return src(['icons/**/*.svg', 'nodes/**/*.node.json'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	);
}

exports['build:icons'] = buildIcons;
