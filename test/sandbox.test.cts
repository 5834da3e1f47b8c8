// Checks the Subscription Billing API v2 sandbox itself (test/sandbox), over real HTTP.
import { readFileSync } from 'fs';
import { join } from 'path';
import { startSandbox, Sandbox, FaultKind } from './sandbox/index.cjs';

type Json = any;

let sb: Sandbox;
const others: Sandbox[] = [];

async function call(
	method: string,
	path: string,
	opts: {
		body?: unknown;
		raw?: string | FormData;
		contentType?: string;
		headers?: Record<string, string>;
		key?: string | null;
	} = {},
): Promise<{ status: number; body: Json; headers: Headers }> {
	const headers: Record<string, string> = { ...(opts.headers ?? {}) };
	if (opts.key !== null) headers['X-SERVICE-KEY'] = opts.key ?? sb.apiKey;
	let body: string | FormData | undefined;
	if (opts.raw !== undefined) {
		body = opts.raw;
		if (opts.contentType) headers['Content-Type'] = opts.contentType;
	} else if (opts.body !== undefined) {
		body = JSON.stringify(opts.body);
		headers['Content-Type'] = opts.contentType ?? 'application/json';
	}
	const url = path.startsWith('http') ? path : `${sb.baseUrl}${path}`;
	const res = await fetch(url, { method, headers, body });
	const text = await res.text();
	let parsed: Json = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// non-JSON body (kept as text)
	}
	return { status: res.status, body: parsed, headers: res.headers };
}

beforeAll(async () => {
	sb = await startSandbox();
});

afterAll(async () => {
	await Promise.all([sb, ...others].map((s) => s.close()));
});

beforeEach(() => {
	sb.setFaults(null);
	sb.reset();
});

describe('authentication and routing', () => {
	it('answers 401 without or with a wrong key, never echoing the key', async () => {
		const missing = await call('GET', '/customers', { key: null });
		expect(missing.status).toBe(401);
		expect(missing.body).toEqual({
			error: { code: 'ERR_UNAUTHORIZED', message: 'Invalid or missing API key.' },
		});
		const wrong = await call('GET', '/customers', { key: 'not-the-key-123' });
		expect(wrong.status).toBe(401);
		expect(JSON.stringify(wrong.body)).not.toContain('not-the-key-123');
	});

	it('answers 404 for unknown routes and ids that do not match the path patterns', async () => {
		const f = sb.fixtures;
		for (const path of [
			'/nope',
			'/customers/',
			'/subscriptions/abc_def',
			`/subscriptions/${f.subscriptionId}%2Finvoices`,
			`/subscriptions/${f.subscriptionId}/recast/${f.recastOrderId.toUpperCase()}`,
			`/subscriptions/${f.subscriptionId}/recast/not-a-uuid`,
		]) {
			const r = await call(path.includes('/recast/') ? 'DELETE' : 'GET', path);
			expect([path, r.status, r.body.error.code]).toEqual([path, 404, 'ERR_NOT_FOUND']);
		}
		const outside = await fetch(`${sb.origin}/api/v1/customers`);
		expect(outside.status).toBe(404);
	});

	it('answers 405 for a wrong method on a known path', async () => {
		const r = await call('DELETE', '/customers');
		expect(r.status).toBe(405);
		expect(r.body.error.code).toBe('ERR_METHOD_NOT_ALLOWED');
		expect(r.headers.get('allow')).toContain('GET');
	});

	it('adds error_id to the subscription retrieval 404 only', async () => {
		const r = await call('GET', '/subscriptions/does-not-exist');
		expect(r.status).toBe(404);
		expect(r.body.error.code).toBe('ERR_NOT_FOUND');
		expect(r.body.error.error_id).toMatch(/^[0-9a-f-]{36}$/);
		const other = await call('GET', '/subscriptions/does-not-exist/milestones');
		expect(other.status).toBe(404);
		expect(other.body.error.error_id).toBeUndefined();
	});
});

describe('pagination', () => {
	it('walks 3+ pages of a search through absolute next links', async () => {
		const { searchName, searchNameMatches } = sb.fixtures;
		expect(searchNameMatches).toBeGreaterThanOrEqual(5);
		let url: string | null = `${sb.baseUrl}/customers/search?limit=2`;
		const names: string[] = [];
		let pages = 0;
		while (url) {
			const r = await call('POST', url, { body: { name: searchName.toUpperCase() } });
			expect(r.status).toBe(200);
			expect(Object.keys(r.body).sort()).toEqual(['count', 'next', 'previous', 'results']);
			expect(r.body.count).toBe(searchNameMatches);
			if (pages === 0) expect(r.body.previous).toBeNull();
			else
				expect(r.body.previous).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2\/customers\/search\?/);
			names.push(...r.body.results.map((c: Json) => c.name));
			url = r.body.next;
			if (url) {
				expect(url.startsWith(`${sb.baseUrl}/customers/search?`)).toBe(true);
				const q = new URL(url).searchParams;
				expect(q.getAll('limit')).toEqual(['2']);
				expect(q.getAll('offset')).toHaveLength(1);
			}
			pages++;
		}
		expect(pages).toBe(Math.ceil(searchNameMatches / 2));
		expect(pages).toBeGreaterThanOrEqual(3);
		expect(new Set(names).size).toBe(searchNameMatches);
		expect(names.every((n) => n.toLowerCase().includes('acme'))).toBe(true);
	});

	it('keeps the other query parameters in next/previous links', async () => {
		const r = await call(
			'GET',
			`/customers/${sb.fixtures.customerId}/invoices?ordering=due_at&limit=3&offset=3`,
		);
		expect(r.status).toBe(200);
		for (const link of [r.body.next, r.body.previous]) {
			const u = new URL(link);
			expect(u.searchParams.get('ordering')).toBe('due_at');
			expect(u.searchParams.getAll('limit')).toEqual(['3']);
			expect(u.searchParams.getAll('offset')).toHaveLength(1);
		}
		expect(new URL(r.body.previous).searchParams.get('offset')).toBe('0');
	});

	it('writes its links with https when started behind a TLS front (linkScheme)', async () => {
		const behindTls = await startSandbox({ linkScheme: 'https' });
		others.push(behindTls);
		const r = await call(
			'GET',
			`${behindTls.baseUrl}/customers/${behindTls.fixtures.customerId}/invoices?limit=1`,
			{ key: behindTls.apiKey },
		);
		expect(r.status).toBe(200);
		expect(r.body.next).toBe(
			`https://${behindTls.baseUrl.slice('http://'.length)}/customers/${behindTls.fixtures.customerId}/invoices?limit=1&offset=1`,
		);
	});

	it('rejects duplicated limit/offset and bad values, clamps limit to 1000', async () => {
		const id = sb.fixtures.customerId;
		const dup = await call('GET', `/customers/${id}/invoices?limit=2&limit=2`);
		expect(dup.status).toBe(400);
		expect(dup.body.error.message).toContain('limit');
		const dupOffset = await call('GET', `/customers/${id}/invoices?offset=2&offset=4`);
		expect(dupOffset.status).toBe(400);
		expect(dupOffset.body.error.message).toContain('offset');
		expect((await call('GET', `/customers/${id}/invoices?limit=0`)).status).toBe(400);
		expect((await call('GET', `/customers/${id}/invoices?offset=-1`)).status).toBe(400);
		const badOrdering = await call('GET', `/customers/${id}/invoices?ordering=amount`);
		expect(badOrdering.status).toBe(400);
		expect(badOrdering.body.error.message).toContain('ordering');
		const big = await call('GET', `/customers/${sb.fixtures.bigCustomerId}/invoices?limit=5000`);
		expect(big.status).toBe(200);
		expect(big.body.results).toHaveLength(Math.min(1000, sb.fixtures.bigCustomerInvoices));
	});
});

describe('what each endpoint declares: anything else is a 400 naming it', () => {
	interface Route {
		method: string;
		path: string;
		query?: string[];
		body?: 'json' | 'form';
	}
	// Every route of the sandbox, so that a route added later is covered too.
	const routes = require('./sandbox/routes/index.cjs') as Route[];

	/** The route's path with the fixtures' ids in it (the recast or upgrade order by the path). */
	function concretePath(route: Route): string {
		const f = sb.fixtures;
		const ids: Record<string, string> = {
			subscription_id: f.subscriptionId,
			customer_id: f.customerId,
			milestone_id: f.milestoneId,
			plan_id: f.planId,
			order_id: route.path.includes('/upgrade/') ? f.upgradeOrderId : f.recastOrderId,
		};
		return route.path.replace(/:(\w+)/g, (_, name: string) => ids[name]);
	}

	const label = (route: Route) => `${route.method} ${route.path}`;

	it('the routes are exactly the operations of the README', () => {
		const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
		// Customer → Get reads the same route as Customer → Get Many
		const documented = [
			...new Set(
				[...readme.matchAll(/^\| [^|]+ \| [^|]+ \| `(GET|POST|PUT|PATCH|DELETE) ([^`]+)`/gm)].map(
					(m) => `${m[1]} ${m[2]}`,
				),
			),
		];
		expect(documented).toHaveLength(30);
		expect(routes.map((route) => label(route).replace(/:(\w+)/g, '{$1}')).sort()).toEqual(
			documented.sort(),
		);
	});

	it('an unknown query parameter, on every endpoint', async () => {
		for (const route of routes) {
			const r = await call(
				route.method,
				`${concretePath(route)}?expand=all`,
				route.body ? { body: {} } : {},
			);
			expect([label(route), r.status, r.body.error?.code]).toEqual([
				label(route),
				400,
				'ERR_BAD_REQUEST',
			]);
			expect(r.body.error.message).toMatch(/^expand: Unknown query parameter; /);
		}
		expect(sb.requests.every((request) => request.status === 400)).toBe(true);
	});

	it('a query parameter given twice, on every endpoint (a declared one where it has any)', async () => {
		for (const route of routes) {
			const name = route.query?.[0] ?? 'expand';
			const value = name === 'charge_immediately' ? 'no' : name === 'ordering' ? 'due_at' : '1';
			const r = await call(
				route.method,
				`${concretePath(route)}?${name}=${value}&${name}=${value}`,
				route.body ? { body: {} } : {},
			);
			expect([label(route), r.status]).toEqual([label(route), 400]);
			expect(r.body.error.message).toMatch(new RegExp(`^${name}: `));
		}
	});

	it('documented parameters of other endpoints: paging on the four unpaged lists, ordering on invoice search, scope on customer invoices', async () => {
		const f = sb.fixtures;
		for (const path of ['recast', 'upgrade', 'milestones', 'payment-methods']) {
			for (const query of ['limit=10', 'offset=0', 'limit=1000&offset=0']) {
				const r = await call('GET', `/subscriptions/${f.subscriptionId}/${path}?${query}`);
				expect([path, query, r.status]).toEqual([path, query, 400]);
				expect(r.body.error.message).toMatch(
					/^(limit|offset): Unknown query parameter; GET \/subscriptions\/\{subscription_id\}\/[\w-]+ takes no query parameters\.$/,
				);
			}
		}
		const search = await call('POST', '/invoices/search?ordering=-issued_at', {
			body: { customer_id: f.customerId },
		});
		expect([search.status, search.body.error.message]).toEqual([
			400,
			'ordering: Unknown query parameter; POST /invoices/search accepts only limit, offset.',
		]);
		const scope = await call('GET', `/customers/${f.customerId}/invoices?scope=all`);
		expect([scope.status, scope.body.error.message]).toEqual([
			400,
			'scope: Unknown query parameter; GET /customers/{customer_id}/invoices accepts only limit, offset, ordering.',
		]);
		const planQuery = await call('GET', `/plans/${f.planId}?ordering=created_at`);
		expect(planQuery.status).toBe(400);
	});

	it('an unknown body field, on every endpoint that takes a body, and nothing is applied', async () => {
		for (const route of routes.filter((r) => r.body)) {
			const query = route.query?.includes('charge_immediately') ? '?charge_immediately=no' : '';
			const r = await call(route.method, `${concretePath(route)}${query}`, {
				body: { unknown_field: 'x' },
			});
			expect([label(route), r.status, r.body.error?.message]).toEqual([
				label(route),
				400,
				expect.stringMatching(/^unknown_field: Unknown field; this operation accepts only /),
			]);
		}
		const f = sb.fixtures;
		const usage = {
			transaction_id: 'txn-extra-field',
			subscription_id: f.subscriptionId,
			brick_id: f.usageBrickId,
			value: 3,
			time: '2026-09-10T10:00:00Z',
		};
		const created = await call('POST', '/usage', { body: { ...usage, unit: 'calls' } });
		expect([created.status, created.body.error.message]).toEqual([
			400,
			'unit: Unknown field; this operation accepts only transaction_id, subscription_id, brick_id, value, time, properties.',
		]);
		expect(sb.state.usage.has('txn-extra-field')).toBe(false);
		const updated = await call('PATCH', '/usage', {
			body: { transaction_id: f.usageTransactionId, value: 5, time: '2026-09-10T10:00:00Z' },
		});
		expect([updated.status, updated.body.error.message]).toEqual([
			400,
			'time: Unknown field; this operation accepts only transaction_id, value, properties.',
		]);
		expect(sb.state.usage.get(f.usageTransactionId).value).not.toBe(5);
		const customer = await call('POST', '/customers', {
			body: { name: 'Extra Field Co', email: 'a@example.com' },
		});
		expect(customer.body.error.message).toMatch(/^email: Unknown field; /);
		const search = await call('POST', '/invoices/search', {
			body: { customer_id: f.customerId, status: 'PAID' },
		});
		expect(search.body.error.message).toBe(
			'status: Unknown field; this operation accepts only customer_id, invoice_numbers, invoice_ids.',
		);
	});

	it('an unknown field inside a documented object: address, bricks[] items and their discount', async () => {
		const f = sb.fixtures;
		const street = await call('POST', '/customers', {
			body: { name: 'Nested Co', address: { city: 'Oslo', street: 'Main' } },
		});
		expect([street.status, street.body.error.message]).toEqual([
			400,
			'address.street: Unknown field; address accepts only line_1, line_2, city, region, zip, country.',
		]);
		const form = new URLSearchParams({
			name: 'Nested Form Co',
			'address[city]': 'Lima',
			'address[street]': 'Main',
		});
		const formStreet = await call('POST', '/customers', {
			raw: form.toString(),
			contentType: 'application/x-www-form-urlencoded',
		});
		expect([formStreet.status, formStreet.body.error.message]).toEqual([
			400,
			expect.stringMatching(/^address\.street: Unknown field; /),
		]);
		const patch = await call('PATCH', `/customers/${f.customerId}`, {
			body: { address: { postcode: '0150' } },
		});
		expect(patch.body.error.message).toMatch(/^address\.postcode: Unknown field; /);
		expect(
			sb.state.customers.has(f.customerId) && sb.state.customers.get(f.customerId).address.postcode,
		).toBeUndefined();

		const upgrade = {
			starts_at: '2026-10-01',
			bricks: [{ brick_id: f.addOnBrickId, quantity: 1 }],
		};
		const price = await call('POST', `/subscriptions/${f.subscriptionId}/upgrade`, {
			body: { ...upgrade, bricks: [{ ...upgrade.bricks[0], unit_price: 10 }] },
		});
		expect([price.status, price.body.error.message]).toEqual([
			400,
			'bricks[0].unit_price: Unknown field; bricks[0] accepts only brick_id, quantity, discount.',
		]);
		const recast = { starts_at: '2026-12-01', contract_length: 12, billing_frequency: 'MONTHLY' };
		const amount = await call('POST', `/subscriptions/${f.subscriptionId}/recast`, {
			body: {
				...recast,
				bricks: [
					{ brick_id: f.seatsBrickId, quantity: 2 },
					{ brick_id: f.addOnBrickId, quantity: 1, discount: { rate: '10', amount: 5 } },
				],
			},
		});
		expect([amount.status, amount.body.error.message]).toEqual([
			400,
			'bricks[1].discount.amount: Unknown field; bricks[1].discount accepts only rate, renews.',
		]);
		const orders = [...sb.state.orders.values()].filter(
			(o: Json) => o.subscription_id === f.subscriptionId,
		);
		expect(orders.map((o: Json) => o.order_id).sort()).toEqual(
			[
				f.recastOrderId,
				f.deletedRecastOrderId,
				f.upgradeOrderId,
				...orders.filter((o: Json) => o.stage === 'CLOSED_LOST').map((o: Json) => o.order_id),
			].sort(),
		);

		const free = await call('POST', `/subscriptions/${f.subscriptionId}/upgrade`, {
			body: { ...upgrade, metadata: { any: { nested: ['shape'] } } },
		});
		expect(free.status).toBe(201); // metadata is free-form
	});

	it('a body on an operation that takes none; an empty one is no body', async () => {
		const f = sb.fixtures;
		const start = `/subscriptions/${f.subscriptionId}/upgrade/${f.upgradeOrderId}/start?charge_immediately=no`;
		const withField = await call('POST', start, { body: { charge_immediately: 'no' } });
		expect([withField.status, withField.body.error.message]).toEqual([
			400,
			'charge_immediately: Unknown field; this operation accepts no fields.',
		]);
		const text = await call('POST', start, { raw: 'go', contentType: 'text/plain' });
		expect([text.status, text.body.error.message]).toEqual([
			400,
			'POST /subscriptions/{subscription_id}/upgrade/{order_id}/start takes no request body.',
		]);
		const del = await call(
			'DELETE',
			`/subscriptions/${f.subscriptionId}/recast/${f.recastOrderId}`,
			{ body: { reason: 'x' } },
		);
		expect(del.status).toBe(400);
		expect(sb.state.orders.get(f.recastOrderId).stage).toBe('BUILDING');
		const empty = await call('POST', start, { body: {} });
		expect([empty.status, empty.body]).toEqual([200, { subscription_id: f.subscriptionId }]);
	});

	it('the four unpaged lists answer a plain JSON array', async () => {
		const f = sb.fixtures;
		for (const [path, key] of [
			['recast', 'order_id'],
			['upgrade', 'order_id'],
			['milestones', 'milestone_id'],
			['payment-methods', 'payment_method_id'],
		]) {
			const r = await call('GET', `/subscriptions/${f.subscriptionId}/${path}`);
			expect([path, r.status, Array.isArray(r.body)]).toEqual([path, 200, true]);
			expect(r.body.length).toBeGreaterThan(0);
			for (const entry of r.body) expect(typeof entry[key]).toBe('string');
		}
	});

	it('sign URLs: redirect_url optional for a subscription (in a JSON object body), required for upgrades and recasts', async () => {
		const f = sb.fixtures;
		const sign = `/subscriptions/${f.openOrderSubscriptionId}/sign`;
		const none = await call('POST', sign, { body: {} });
		expect([none.status, none.body]).toEqual([
			200,
			{ url: `${sb.origin}/sign/subscription-${f.openOrderSubscriptionId}` },
		]);
		const withUrl = await call('POST', sign, {
			body: { redirect_url: 'https://example.com/done' },
		});
		expect(withUrl.body.url).toBe(
			`${sb.origin}/sign/subscription-${f.openOrderSubscriptionId}?redirect_url=${encodeURIComponent('https://example.com/done')}`,
		);
		const noBody = await call('POST', sign);
		expect([noBody.status, noBody.body.error.code]).toEqual([400, 'ERR_BAD_REQUEST']);
		const blank = await call('POST', sign, { body: { redirect_url: '' } });
		expect(blank.body.error.message).toMatch(/^redirect_url: /);
		const upgrade = await call(
			'POST',
			`/subscriptions/${f.subscriptionId}/upgrade/${f.upgradeOrderId}/sign`,
			{ body: {} },
		);
		expect([upgrade.status, upgrade.body.error.message]).toEqual([
			400,
			'redirect_url: This field is required.',
		]);
		const recast = await call(
			'POST',
			`/subscriptions/${f.subscriptionId}/recast/${f.recastOrderId}/sign`,
			{ body: {} },
		);
		expect([recast.status, recast.body.error.message]).toEqual([
			400,
			'redirect_url: This field is required.',
		]);
	});
});

describe('customers', () => {
	it('creates customers from JSON, urlencoded and multipart bodies', async () => {
		const json = await call('POST', '/customers', {
			body: { name: 'Json Co', address: { line_1: '1 Json Way', city: 'Oslo' } },
		});
		expect(json.status).toBe(201);
		expect(json.body.customer_id).toMatch(/^[0-9a-f-]{36}$/);
		expect(json.body.subscriptions).toEqual([]);
		expect(json.body.address.city).toBe('Oslo');

		const form = new URLSearchParams({
			name: 'Form Co',
			external_id: 'form-1',
			'address[line_1]': '2 Form St',
			'address[city]': 'Lima',
		});
		const urlencoded = await call('POST', '/customers', {
			raw: form.toString(),
			contentType: 'application/x-www-form-urlencoded',
		});
		expect(urlencoded.status).toBe(201);
		expect(urlencoded.body.address).toMatchObject({ line_1: '2 Form St', city: 'Lima' });

		const multipart = new FormData();
		multipart.append('name', 'Multipart Co');
		multipart.append('address.city', 'Kyiv');
		multipart.append('tax_id', 'UA-1');
		const mp = await call('POST', '/customers', { raw: multipart });
		expect(mp.status).toBe(201);
		expect(mp.body).toMatchObject({
			name: 'Multipart Co',
			tax_id: 'UA-1',
			address: { city: 'Kyiv' },
		});

		const jsonField = new URLSearchParams({
			name: 'Json Field Co',
			address: JSON.stringify({ country: 'NZ' }),
		});
		const jf = await call('POST', '/customers', {
			raw: jsonField.toString(),
			contentType: 'application/x-www-form-urlencoded',
		});
		expect(jf.status).toBe(201);
		expect(jf.body.address.country).toBe('NZ');

		const names = [...sb.state.customers.values()].map((c: Json) => c.name);
		expect(names).toEqual(
			expect.arrayContaining(['Json Co', 'Form Co', 'Multipart Co', 'Json Field Co']),
		);
		const entry = sb.requests.find((r) => r.contentType === 'multipart/form-data');
		expect(entry?.body).toMatchObject({ name: 'Multipart Co' });
	});

	it('rejects other content types, malformed JSON, duplicates and missing names', async () => {
		const text = await call('POST', '/customers', { raw: 'name=x', contentType: 'text/plain' });
		expect(text.status).toBe(400);
		expect(text.body.error.message).toContain('text/plain');
		const formOnJsonOnly = await call('PATCH', `/customers/${sb.fixtures.customerId}`, {
			raw: 'name=x',
			contentType: 'application/x-www-form-urlencoded',
		});
		expect(formOnJsonOnly.status).toBe(400);
		expect(
			(await call('POST', '/customers', { raw: '{"name":', contentType: 'application/json' }))
				.status,
		).toBe(400);
		const dup = await call('POST', '/customers', { body: { name: sb.fixtures.customerName } });
		expect(dup.status).toBe(400);
		const missing = await call('POST', '/customers', { body: { legal_name: 'x' } });
		expect(missing.body.error.message).toMatch(/^name: /);
		const wrongType = await call('POST', '/customers', { body: { name: 42 } });
		expect(wrongType.status).toBe(400);
	});

	it('limits external_id and processor_customer_id to 255 characters', async () => {
		const tooLong = await call('POST', '/customers', {
			body: { name: 'Long Co', external_id: 'x'.repeat(256) },
		});
		expect(tooLong.status).toBe(400);
		expect(tooLong.body.error).toEqual({
			code: 'ERR_BAD_REQUEST',
			message: 'external_id: Ensure this field has no more than 255 characters.',
		});
		const patch = await call('PATCH', `/customers/${sb.fixtures.customerId}`, {
			body: { processor_customer_id: 'p'.repeat(256) },
		});
		expect(patch.status).toBe(400);
		expect(patch.body.error.message).toContain('processor_customer_id');
		const ok = await call('POST', '/customers', {
			body: { name: 'Long Co', external_id: 'x'.repeat(255) },
		});
		expect(ok.status).toBe(201);
	});

	it('updates partially and rejects an empty update', async () => {
		const id = sb.fixtures.customerId;
		const r = await call('PATCH', `/customers/${id}`, {
			body: { tax_id: 'NEW-TAX', address: { city: 'Boston' } },
		});
		expect(r.status).toBe(200);
		expect(r.body).toMatchObject({
			name: sb.fixtures.customerName,
			tax_id: 'NEW-TAX',
			address: { city: 'Boston', line_1: '100 Market Street' },
		});
		expect((await call('PATCH', `/customers/${id}`, { body: {} })).status).toBe(400);
		expect(
			(
				await call('PATCH', '/customers/00000000-0000-4000-8000-000000000000', {
					body: { tax_id: 'x' },
				})
			).status,
		).toBe(404);
	});
});

describe('recasts', () => {
	it('soft-deletes a recast order and keeps it', async () => {
		const { subscriptionId, recastOrderId } = sb.fixtures;
		const del = await call('DELETE', `/subscriptions/${subscriptionId}/recast/${recastOrderId}`);
		expect(del.status).toBe(200);
		expect(del.body).toEqual({
			message: `Recast ${recastOrderId} deleted.`,
			order_id: recastOrderId,
		});
		expect(sb.state.orders.get(recastOrderId).stage).toBe('CLOSED_DELETE');
		const list = await call('GET', `/subscriptions/${subscriptionId}/recast`);
		expect(list.body.find((o: Json) => o.order_id === recastOrderId).stage).toBe('CLOSED_DELETE');
		const again = await call('DELETE', `/subscriptions/${subscriptionId}/recast/${recastOrderId}`);
		expect(again.status).toBe(400);
		expect(again.body.error.code).toBe('ERR_BAD_REQUEST');
		const unknown = await call(
			'DELETE',
			`/subscriptions/${subscriptionId}/recast/00000000-0000-4000-8000-000000000000`,
		);
		expect(unknown.status).toBe(404);
	});

	it('creates and starts a recast that replaces the line items', async () => {
		const f = sb.fixtures;
		const noBricks = await call('POST', `/subscriptions/${f.subscriptionId}/recast`, {
			body: {
				starts_at: '2026-12-01',
				contract_length: 12,
				billing_frequency: 'MONTHLY',
				plan_id: f.planId,
			},
		});
		expect(noBricks.status).toBe(400);
		const created = await call('POST', `/subscriptions/${f.subscriptionId}/recast`, {
			body: {
				starts_at: '2026-12-01',
				contract_length: 12,
				billing_frequency: 'MONTHLY',
				bricks: [{ brick_id: f.seatsBrickId, quantity: 7 }],
			},
		});
		expect(created.status).toBe(201);
		const orderId = created.body.order_id;
		expect(sb.state.orders.get(orderId).stage).toBe('BUILDING');
		expect(
			(await call('POST', `/subscriptions/${f.subscriptionId}/recast/${orderId}/start`)).status,
		).toBe(400);
		const started = await call(
			'POST',
			`/subscriptions/${f.subscriptionId}/recast/${orderId}/start?charge_immediately=no`,
		);
		expect(started.body).toEqual({ subscription_id: f.subscriptionId });
		const sub = await call('GET', `/subscriptions/${f.subscriptionId}`);
		expect(sub.body.line_items.map((l: Json) => [l.brick_id, l.quantity])).toEqual([
			[f.seatsBrickId, 7],
		]);
		expect(sub.body).toMatchObject({ billing_frequency: 'MONTHLY', ends_at: '2027-11-30' });
		expect(sub.body.phases).toBeUndefined();
	});
});

describe('milestones, payment methods, usage', () => {
	it('completes a milestone: IMMEDIATELY raises an invoice, NEXT_INVOICE needs a scheduled invoice', async () => {
		const f = sb.fixtures;
		const done = await call(
			'POST',
			`/subscriptions/${f.subscriptionId}/milestones/${f.milestoneId}/complete`,
			{
				body: { quantity: 2, bill_on: 'IMMEDIATELY', issued_at: '2026-09-20' },
			},
		);
		expect(done.status).toBe(200);
		expect(done.body).toMatchObject({
			milestone_id: f.milestoneId,
			quantity: 10,
			quantity_completed: 5,
		});
		const invoices = await call('GET', `/customers/${f.customerId}/invoices?limit=1`);
		expect(invoices.body.results[0].invoice_id).toBe(done.body.invoice_id);
		const tooMany = await call(
			'POST',
			`/subscriptions/${f.subscriptionId}/milestones/${f.milestoneId}/complete`,
			{ body: { quantity: 6, bill_on: 'NEXT_INVOICE' } },
		);
		expect(tooMany.status).toBe(400);
		const datesOnNext = await call(
			'POST',
			`/subscriptions/${f.subscriptionId}/milestones/${f.milestoneId}/complete`,
			{
				body: { quantity: 1, bill_on: 'NEXT_INVOICE', due_at: '2026-10-01' },
			},
		);
		expect(datesOnNext.body.error.message).toMatch(/^due_at: /);
		const noneLeft = await call(
			'POST',
			`/subscriptions/${f.finishedMilestoneSubscriptionId}/milestones/${f.finishedMilestoneId}/complete`,
			{
				body: { quantity: 1, bill_on: 'NEXT_INVOICE' },
			},
		);
		expect(noneLeft.status).toBe(400);
		expect(noneLeft.body.error.message).toMatch(/^bill_on: /);
	});

	it('sets the default payment method only to one attached to the customer', async () => {
		const f = sb.fixtures;
		const path = `/subscriptions/${f.subscriptionId}/payment-methods/default`;
		expect(
			(await call('PUT', path, { body: { payment_method_id: f.foreignPaymentMethodId } })).status,
		).toBe(400);
		expect((await call('PUT', path, { body: { payment_method_id: 'pm_unknown' } })).status).toBe(
			400,
		);
		const ok = await call('PUT', path, {
			raw: `payment_method_id=${f.paymentMethodId}`,
			contentType: 'application/x-www-form-urlencoded',
		});
		expect(ok.body).toEqual({
			subscription_id: f.subscriptionId,
			default_payment_method_id: f.paymentMethodId,
		});
		expect((await call('GET', path)).body).toMatchObject({
			payment_method_id: f.paymentMethodId,
			is_default: true,
		});
	});

	it('updates and deletes usage entries', async () => {
		const id = sb.fixtures.usageTransactionId;
		const patched = await call('PATCH', '/usage', {
			body: { transaction_id: id, value: 9, properties: { a: 'b' } },
		});
		expect(patched.body).toEqual({ message: 'Usage entry updated successfully.' });
		expect(sb.state.usage.get(id)).toMatchObject({ value: 9, properties: { a: 'b' } });
		expect(
			(await call('PATCH', '/usage', { body: { transaction_id: id, value: '9' } })).status,
		).toBe(400);
		expect((await call('DELETE', '/usage', { body: { transaction_id: id } })).body).toEqual({
			message: 'Usage entry deleted successfully.',
		});
		expect((await call('DELETE', '/usage', { body: { transaction_id: id } })).status).toBe(404);
	});
});

describe('idempotency', () => {
	it('replays a write with the same key without applying it twice', async () => {
		const f = sb.fixtures;
		const body = {
			transaction_id: 'txn-idem-1',
			subscription_id: f.subscriptionId,
			brick_id: f.usageBrickId,
			value: 3,
			time: '2026-09-10T10:00:00Z',
		};
		const headers = { 'X-SERVICE-IDEMPOTENT-OPERATION-KEY': 'idem-key-1' };
		const first = await call('POST', '/usage', { body, headers });
		const second = await call('POST', '/usage', { body, headers });
		expect(first.status).toBe(201);
		expect(second.status).toBe(201);
		expect(second.body).toEqual(first.body);
		expect(second.headers.get('idempotent-replayed')).toBe('true');
		const withoutKey = await call('POST', '/usage', { body });
		expect(withoutKey.status).toBe(400); // duplicate transaction_id: the first one was applied
		expect([...sb.state.usage.keys()].filter((k) => k === 'txn-idem-1')).toHaveLength(1);
		const longKey = await call('POST', '/usage', {
			body,
			headers: { 'X-SERVICE-IDEMPOTENT-OPERATION-KEY': 'k'.repeat(256) },
		});
		expect(longKey.status).toBe(400);
	});
});

describe('idempotency keys are kept across calls and bound to one request', () => {
	const key = (value: string) => ({ 'X-SERVICE-IDEMPOTENT-OPERATION-KEY': value });
	const milestonePath = () =>
		`/subscriptions/${sb.fixtures.subscriptionId}/milestones/${sb.fixtures.milestoneId}/complete`;
	const completed = () =>
		(sb.state.milestones.get(sb.fixtures.milestoneId) as { quantity_completed: number })
			.quantity_completed;

	it('replays the same request with the same key whatever the order of its body keys, applying it once', async () => {
		const before = completed();
		const first = await call('POST', milestonePath(), {
			body: { quantity: 1, bill_on: 'IMMEDIATELY' },
			headers: key('same-request'),
		});
		const reordered = await call('POST', milestonePath(), {
			raw: '{"bill_on":"IMMEDIATELY","quantity":1}',
			contentType: 'application/json',
			headers: key('same-request'),
		});
		expect(first.status).toBe(200);
		expect(reordered.body).toEqual(first.body);
		expect(reordered.headers.get('idempotent-replayed')).toBe('true');
		expect(completed()).toBe(before + 1);
	});

	it('refuses the same key with another body, query, path or method, and applies none of them', async () => {
		const before = completed();
		expect(
			(
				await call('POST', milestonePath(), {
					body: { quantity: 1, bill_on: 'IMMEDIATELY' },
					headers: key('bound'),
				})
			).status,
		).toBe(200);
		const refusals = [
			[
				'body',
				await call('POST', milestonePath(), {
					body: { quantity: 2, bill_on: 'IMMEDIATELY' },
					headers: key('bound'),
				}),
			],
			[
				'path',
				await call(
					'POST',
					milestonePath().replace(sb.fixtures.subscriptionId, 'another-subscription'),
					{ body: { quantity: 1, bill_on: 'IMMEDIATELY' }, headers: key('bound') },
				),
			],
			[
				'method, path and body',
				await call('PATCH', '/usage', {
					body: { transaction_id: sb.fixtures.usageTransactionId, value: 1 },
					headers: key('bound'),
				}),
			],
		] as const;
		for (const [part, answer] of refusals) {
			expect(answer.status).toBe(400);
			expect((answer.body as { error: { message: string } }).error.message).toBe(
				`X-SERVICE-IDEMPOTENT-OPERATION-KEY: This key was already used for a different request (POST /api/v2${milestonePath()}; the ${part} differ${part.includes(' and ') ? '' : 's'}). Send a new key for a new write.`,
			);
		}
		expect(completed()).toBe(before + 1);
		expect(sb.state.usage.get(sb.fixtures.usageTransactionId).value).not.toBe(1);
	});

	it('refuses the same key with another value of a documented query parameter, and applies nothing', async () => {
		const startPath = `/subscriptions/${sb.fixtures.subscriptionId}/upgrade/${sb.fixtures.upgradeOrderId}/start`;
		expect(
			(await call('POST', `${startPath}?charge_immediately=no`, { headers: key('bound-query') }))
				.status,
		).toBe(200);
		const other = await call('POST', `${startPath}?charge_immediately=yes`, {
			headers: key('bound-query'),
		});
		expect(other.status).toBe(400);
		expect((other.body as { error: { message: string } }).error.message).toBe(
			`X-SERVICE-IDEMPOTENT-OPERATION-KEY: This key was already used for a different request (POST /api/v2${startPath}; the query differs). Send a new key for a new write.`,
		);
		expect(
			(sb.state.orders.get(sb.fixtures.upgradeOrderId) as { charge_immediately: boolean })
				.charge_immediately,
		).toBe(false);
	});
});

describe('faults', () => {
	const kinds: FaultKind[] = ['429', '500', '502', '503', 'drop', 'slow', 'truncate'];
	for (const kind of kinds) {
		it(`injects ${kind}`, async () => {
			sb.setFaults({ on: [sb.requestCount + 1], kinds: [kind], slowMs: 200, retryAfterSeconds: 0 });
			const f = sb.fixtures;
			const body = {
				transaction_id: `txn-fault-${kind}`,
				subscription_id: f.subscriptionId,
				brick_id: f.usageBrickId,
				value: 1,
				time: '2026-09-10T10:00:00Z',
			};
			const started = Date.now();
			let status: number | undefined;
			let text: string | undefined;
			let error: unknown;
			try {
				const res = await fetch(`${sb.baseUrl}/usage`, {
					method: 'POST',
					headers: { 'X-SERVICE-KEY': sb.apiKey, 'Content-Type': 'application/json' },
					body: JSON.stringify(body),
				});
				status = res.status;
				if (kind === '429' || kind === '503') expect(res.headers.get('retry-after')).toBe('0');
				text = await res.text();
			} catch (e) {
				error = e;
			}
			const entry = sb.requests[sb.requests.length - 1];
			expect(entry.fault).toBe(kind);
			const applied = sb.state.usage.has(body.transaction_id);
			switch (kind) {
				case '429':
					expect(status).toBe(429);
					expect(JSON.parse(text!).error.code).toBe('ERR_RATE_LIMITED');
					expect(applied).toBe(false);
					break;
				case '500':
				case '503':
					expect(status).toBe(Number(kind));
					expect(applied).toBe(false);
					break;
				case '502':
					expect(status).toBe(502);
					expect(text).toBe('<html>Bad Gateway</html>');
					expect(applied).toBe(false);
					break;
				case 'drop':
					expect(error).toBeDefined();
					expect(entry.status).toBeNull();
					expect(applied).toBe(false);
					break;
				case 'slow':
					expect(status).toBe(201);
					expect(Date.now() - started).toBeGreaterThanOrEqual(190);
					expect(applied).toBe(true);
					break;
				case 'truncate':
					expect(error).toBeDefined();
					expect(applied).toBe(true);
					break;
			}
			sb.setFaults(null);
			const after = await call('GET', '/plans');
			expect(after.status).toBe(200);
		});
	}

	it('rate mode is deterministic for a given seed', async () => {
		const run = async () => {
			sb.reset();
			sb.setFaults({ rate: 0.5, kinds: ['500', '503'], seed: 7 });
			const statuses: number[] = [];
			for (let i = 0; i < 12; i++) statuses.push((await call('GET', '/plans')).status);
			sb.setFaults(null);
			return statuses;
		};
		const a = await run();
		expect(a.some((s) => s !== 200)).toBe(true);
		expect(await run()).toEqual(a);
	});
});

describe('seed', () => {
	it('is deterministic: two sandboxes give the same fixtures and data', async () => {
		const a = await startSandbox({ seed: { customers: 20, bigCustomerInvoices: 40, seed: 3 } });
		const b = await startSandbox({ seed: { customers: 20, bigCustomerInvoices: 40, seed: 3 } });
		others.push(a, b);
		expect(a.fixtures).toEqual(b.fixtures);
		const strip = (s: string) => s.replace(/127\.0\.0\.1:\d+/g, 'HOST');
		const page = async (s: Sandbox) => {
			const res = await fetch(
				`${s.baseUrl}/customers/${s.fixtures.bigCustomerId}/invoices?limit=10`,
				{ headers: { 'X-SERVICE-KEY': s.apiKey } },
			);
			return strip(await res.text());
		};
		expect(await page(a)).toEqual(await page(b));
		expect(a.fixtures.customerId).not.toBe(sb.fixtures.customerId); // another seed, other ids
		expect(a.fixtures.customerCount).toBe(20);
	});

	it('openInvoices: each customer from the third on billed on net-30 terms with that many open, a week of paid and of issued ones', async () => {
		const customers = 300;
		const world = await startSandbox({
			seed: { customers, bigCustomerInvoices: 0, openInvoices: 3 },
		});
		others.push(world);
		const weekAgo = Date.now() - 7 * 86_400_000;
		let open = 0;
		let paid = 0;
		let issued = 0;
		for (const c of [...world.state.customers.keys()].slice(2)) {
			const res = await fetch(`${world.baseUrl}/customers/${c}/invoices?limit=100`, {
				headers: { 'X-SERVICE-KEY': world.apiKey },
			});
			const invoices: Json[] = ((await res.json()) as Json).results;
			const opened = invoices.filter((i) => i.fully_paid_at === null && i.remaining_amount > 0);
			expect(opened.length).toBeGreaterThanOrEqual(2);
			expect(opened.length).toBeLessThanOrEqual(4);
			for (const i of invoices)
				expect(Date.parse(i.due_at) - Date.parse(i.issued_at)).toBe(30 * 86_400_000);
			open += opened.length;
			paid += invoices.filter((i) => Date.parse(i.fully_paid_at) >= weekAgo).length;
			issued += invoices.filter((i) => Date.parse(i.issued_at) >= weekAgo).length;
		}
		// Issued every 10 days, paid on the due date: 3 open, and 0.7 paid and 0.7 issued a week, a customer.
		expect(open / (customers - 2)).toBeCloseTo(3, 1);
		expect(paid / (customers - 2)).toBeCloseTo(0.7, 1);
		expect(issued / (customers - 2)).toBeCloseTo(0.7, 1);
		await expect(startSandbox({ seed: { openInvoices: 0 } })).rejects.toThrow(/openInvoices/);
	});

	it('seeds 100k invoices and serves the first page of 1000 quickly', async () => {
		const t0 = Date.now();
		const big = await startSandbox({ seed: { bigCustomerInvoices: 100000 } });
		others.push(big);
		const t1 = Date.now();
		const res = await fetch(
			`${big.baseUrl}/customers/${big.fixtures.bigCustomerId}/invoices?limit=1000`,
			{ headers: { 'X-SERVICE-KEY': big.apiKey } },
		);
		const body: Json = await res.json();
		const t2 = Date.now();
		expect(body.count).toBe(100000);
		expect(body.results).toHaveLength(1000);
		const issued = body.results.map((i: Json) => i.issued_at);
		expect([...issued].sort().reverse()).toEqual(issued);
		console.log(
			`sandbox: seeding 100k invoices took ${t1 - t0} ms, first page of 1000 took ${t2 - t1} ms`,
		);
	});
});
