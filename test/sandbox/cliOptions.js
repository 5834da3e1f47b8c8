'use strict';
// The sandbox's settings as `npm run sandbox` and `npm run demo` take them: a flag
// (`--customers=10000` or `--customers 10000`) or its environment variable (SANDBOX_CUSTOMERS);
// the flag wins. Every value is checked, and a bad one is refused naming the flag or variable.

const { DEPLOYMENTS } = require('./deployments');

class SandboxOptionError extends Error {}

const whole = (min, max = Number.MAX_SAFE_INTEGER) => ({
	parse: (text) =>
		/^\d+$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : undefined,
	expected:
		max === Number.MAX_SAFE_INTEGER
			? `a whole number of at least ${min}`
			: `a whole number from ${min} to ${max}`,
});
const decimal = (min) => ({
	parse: (text) => (/^\d+(\.\d+)?$/.test(text) && Number(text) >= min ? Number(text) : undefined),
	expected: `a number of at least ${min}`,
});
const word = {
	parse: (text) => (/^\S+$/.test(text) ? text : undefined),
	expected: 'a value without spaces',
};
const deploymentName = {
	parse: (text) => (Object.hasOwn(DEPLOYMENTS, text) ? text : undefined),
	expected: `one of ${Object.keys(DEPLOYMENTS).join(', ')}`,
};

/** A setting: its flag (`--customers=N`), its variable, its place in sandboxSettings' answer, its check, its help. */
const setting = (usage, variable, target, check, help) => {
	const [flag, placeholder] = usage.split('=');
	return { flag, placeholder, variable, target, ...check, help };
};

const GROUPS = [
	{
		title: 'The world',
		settings: [
			setting(
				'--customers=N',
				'SANDBOX_CUSTOMERS',
				'options.seed.customers',
				whole(4),
				'customers (default 12, at least 4)',
			),
			setting(
				'--invoices=N',
				'SANDBOX_INVOICES',
				'options.seed.bigCustomerInvoices',
				whole(0),
				'invoices of the big customer (default 250)',
			),
			setting(
				'--seed=N',
				'SANDBOX_SEED',
				'options.seed.seed',
				whole(0),
				'seed of every id and value (default 1)',
			),
		],
	},
	{
		title: 'What the gateway in front of the API does (default: nothing)',
		settings: [
			setting(
				'--latency-ms=MS',
				'SANDBOX_LATENCY_MS',
				'options.limits.latencyMs',
				decimal(0),
				'every answer held this long',
			),
			setting(
				'--jitter-ms=MS',
				'SANDBOX_JITTER_MS',
				'options.limits.jitterMs',
				decimal(0),
				'and up to this long more (seeded)',
			),
			setting(
				'--rate=N',
				'SANDBOX_RATE',
				'options.limits.ratePerSecond',
				decimal(0),
				'requests per second per API key; more: 429 (0: no limit)',
			),
			setting(
				'--burst=N',
				'SANDBOX_BURST',
				'options.limits.burst',
				decimal(1),
				"requests --rate lets through at once (default: a second's worth)",
			),
			setting(
				'--max-in-flight=N',
				'SANDBOX_MAX_IN_FLIGHT',
				'options.limits.maxInFlight',
				whole(0),
				'requests in flight over all keys; one more: 429 (0: no cap)',
			),
			setting(
				'--deployment=NAME',
				'SANDBOX_DEPLOYMENT',
				'deployment',
				deploymentName,
				'a deployment that differs from the contract (see below)',
			),
		],
	},
	{
		title: 'Where',
		settings: [
			setting(
				'--port=N',
				'SANDBOX_PORT',
				'options.port',
				whole(0, 65535),
				'port (default 0: a free one)',
			),
			setting(
				'--host=ADDRESS',
				'SANDBOX_HOST',
				'options.host',
				word,
				'address to listen on (default 127.0.0.1)',
			),
			setting(
				'--api-key=KEY',
				'SANDBOX_API_KEY',
				'options.apiKey',
				word,
				'the API key it accepts (default sbx_test_key_…)',
			),
		],
	},
];
const SETTINGS = GROUPS.flatMap((group) => group.settings);

/** The options' lines for `--help`, under their groups. */
function optionsHelp() {
	const lines = [];
	for (const { title, settings } of GROUPS) {
		lines.push(title);
		for (const { flag, placeholder, variable, help } of settings)
			lines.push(`  ${`${flag}=${placeholder}`.padEnd(19)} ${variable.padEnd(22)} ${help}`);
	}
	const deployments = `Deployments: ${Object.keys(DEPLOYMENTS).join(', ')}.`;
	return [...lines, ...deployments.match(/.{1,99}(\s|$)/g).map((line) => line.trimEnd())].join(
		'\n',
	);
}

/** The flag's name and its `=value`, if any: `--customers=5` → ['--customers', '5']. */
function splitFlag(arg) {
	const at = arg.indexOf('=');
	return at < 0 ? [arg, undefined] : [arg.slice(0, at), arg.slice(at + 1)];
}

/** The text of each setting given, and where it came from: a flag of argv wins over its variable. */
function givenTexts(argv, env) {
	const texts = new Map();
	const rest = [];
	for (let i = 0; i < argv.length; i++) {
		const [name, inline] = splitFlag(argv[i]);
		const setting = SETTINGS.find((s) => s.flag === name);
		if (!setting) {
			rest.push(argv[i]);
			continue;
		}
		const text = inline ?? (argv[i + 1]?.startsWith('--') ? undefined : argv[++i]);
		if (text === undefined)
			throw new SandboxOptionError(`${name} needs a value: ${name}=${setting.placeholder}`);
		texts.set(setting, { text, source: name });
	}
	for (const setting of SETTINGS) {
		const text = env[setting.variable];
		if (!texts.has(setting) && text !== undefined && text !== '')
			texts.set(setting, { text, source: setting.variable });
	}
	return { texts, rest };
}

/**
 * The sandbox's settings from `argv` and `env`: { options: startSandbox's, deployment: a name or
 * undefined, given: the flags taken from argv, rest: argv's other arguments }. Throws
 * SandboxOptionError for a value it refuses.
 */
function sandboxSettings(argv, env = {}) {
	const { texts, rest } = givenTexts(argv, env);
	const settings = { options: { seed: {}, limits: {} }, deployment: undefined };
	for (const [setting, { text, source }] of texts) {
		const value = setting.parse(text.trim());
		if (value === undefined)
			throw new SandboxOptionError(`${source} must be ${setting.expected}, not "${text}"`);
		const path = setting.target.split('.');
		const last = path.pop();
		path.reduce((object, key) => object[key], settings)[last] = value;
	}
	const given = [...texts.values()].map(({ source }) => source).filter((s) => s.startsWith('--'));
	return { ...settings, given, rest };
}

/** One line on a running sandbox's world and limits: "10000 customers, seed 1; 40 ms per answer, …". */
function worldSummary(sandbox) {
	const { customers, seed } = sandbox.seedOptions;
	const world = `${customers} customers, seed ${seed}`;
	if (!sandbox.limits.active) return `${world}; no latency, no rate limit`;
	const c = sandbox.limits.config;
	const limits = [
		c.latencyMs > 0 || c.jitterMs > 0
			? `${c.latencyMs} ms per answer${c.jitterMs > 0 ? ` + up to ${c.jitterMs} ms` : ''}`
			: 'no latency',
		c.ratePerSecond > 0
			? `${c.ratePerSecond} requests/s per API key (burst ${c.burst})`
			: 'no rate limit',
		...(c.maxInFlight > 0 ? [`at most ${c.maxInFlight} requests in flight`] : []),
	];
	return `${world}; ${limits.join(', ')}`;
}

module.exports = { sandboxSettings, optionsHelp, worldSummary, SandboxOptionError };
