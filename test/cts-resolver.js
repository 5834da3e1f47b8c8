'use strict';
/**
 * Jest resolver for the tests' CommonJS TypeScript: TypeScript has a .cts file import another by
 * its compiled name (`./harness/index.cjs`), which jest looks for on disk. A relative `.cjs` that is
 * not there is the `.cts` source (or, for the sandbox, its `.js`); every other request resolves as usual.
 */
module.exports = (request, options) => {
	try {
		return options.defaultResolver(request, options);
	} catch (error) {
		if (!/^\.{1,2}\/.*\.cjs$/.test(request)) throw error;
		for (const ext of ['.cts', '.js']) {
			try {
				return options.defaultResolver(request.replace(/\.cjs$/, ext), options);
			} catch {
				/* next */
			}
		}
		throw error;
	}
};
