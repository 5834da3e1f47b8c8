'use strict';
// `npm run demo`'s command line: its own flags and the sandbox's options (test/sandbox/cliOptions.js),
// each refused with a message that names it.

const { sandboxSettings } = require('../../test/sandbox/cliOptions');

const FLAGS = ['--help', '-h', '--fresh', '--no-build', '--verbose', '--queue'];
const NUMBER_FLAGS = ['--workers', '--concurrency'];

/**
 * { flags: the demo's flags given, number(name, fallback): a `--name=N` of the demo's, sandbox:
 * sandboxSettings' answer }. Throws for an unknown option, a bad sandbox value, or a sandbox option
 * with a real service (BILLING_BASE_URL / BILLING_API_KEY).
 */
function demoOptions(argv, env) {
	const sandbox = sandboxSettings(argv, env);
	const unknown = sandbox.rest.filter(
		(arg) => !FLAGS.includes(arg) && !NUMBER_FLAGS.includes(arg.split('=')[0]),
	);
	if (unknown.length > 0) throw new Error(`unknown option ${unknown[0]} (--help lists them)`);
	if ((env.BILLING_BASE_URL || env.BILLING_API_KEY) && sandbox.given.length > 0)
		throw new Error(
			`${sandbox.given.join(', ')}: an option of the sandbox, which is not started when BILLING_BASE_URL and BILLING_API_KEY are set`,
		);
	const number = (name, fallback) =>
		Number(sandbox.rest.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
	return { flags: new Set(sandbox.rest.filter((arg) => FLAGS.includes(arg))), number, sandbox };
}

module.exports = { demoOptions };
