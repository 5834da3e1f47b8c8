'use strict';
// Script errors of n8n's own editor that the editor test tolerates: each is named exactly, for the
// releases that raise it, and is raised the same way with no community package installed.
const KNOWN = [
	{
		// n8n 1.x: signing in from /signin, the editor checks for new versions with settings the
		// sign-in page never loaded (its public /rest/settings has no `versionNotifications`)
		releases: /^1\./,
		message: "Cannot read properties of undefined (reading 'enabled')",
		stack: /checkForNewVersions[\s\S]*initializeAuthenticatedFeatures/,
	},
];

/** The known errors of n8n `version`'s own editor. */
function knownN8nPageErrorsFor(version) {
	return KNOWN.filter((k) => k.releases.test(version));
}

/** Whether `error` (a Playwright `pageerror`) is a known error of n8n `version`'s own editor. */
function isKnownN8nPageError(version, error) {
	return knownN8nPageErrorsFor(version).some(
		(k) => error.message === k.message && k.stack.test(error.stack ?? ''),
	);
}

module.exports = { isKnownN8nPageError, knownN8nPageErrorsFor };
