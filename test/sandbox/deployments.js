'use strict';
// Deployments of the API that differ from the contract where it is silent: a front on 127.0.0.1
// that passes every request to a sandbox and varies one thing, the way a real deployment, or a
// proxy or gateway in front of it, does. The sandbox behind it stays the strict judge: the front
// never accepts a request the sandbox would refuse, it only changes how answers are written and
// delivered (links, page caps, status codes, error bodies, compression, chunking, cut or missing
// answers).
//
//   const { startSandbox, startDeployment } = require('./test/sandbox');
//   const sb = await startSandbox();
//   const front = await startDeployment(sb, 'relative-links');   // or a DeploymentConfig
//   ... front.baseUrl, front.requests (what the client sent), front.openConnections(), front.close()
//
// DeploymentConfig (every key optional, each varies one thing):
//   links: 'relative' | 'internal' | 'outside' | 'none' | 'repeat'  how `next`/`previous` are
//          written: relative to the host, with the service's internal address (`internalOrigin`),
//          at the internal address under another path (/internal/... instead of /api/v2/...), left
//          out (while `count` says more exist), or every later page's `next` pointing back at the
//          second page, already served
//   internalOrigin: origin written by links: 'internal' and 'outside' (default http://internal:8080)
//   linkHeader: true  paging by an RFC 8288 Link header only (`<…>; rel="next"`, `<…>; rel="prev"`,
//          written as `links` says): the envelope has no `next`, `previous` or `count`
//   pastEnd: 'not-found'  a full page always links a next page; a page past the end (offset > 0,
//          no results) is answered 404 {"error": {"code": "ERR_NOT_FOUND", "message": "Invalid page"}}
//   addedAtHead: true  lists gain one record at their head once their first page was read (as a list
//          newest first does when a record is created meanwhile): a page at offset n > 0 is the
//          API's page at n - 1, with `count` one more and `next` one further
//   notFoundFrom: n  a page at offset n or more is answered 404 with the web server's HTML page,
//          without reaching the API (a gateway that limits how far a list is paged)
//   pageCap: { size, over: 'refuse' | 'clamp' }  pages of at most `size`: a larger `limit` is
//          answered 400 (refuse) or served at `size` (clamp)
//   statuses: 'gateway'  400 becomes 422; 401, 403 and 404 come without the error envelope
//          ({"detail": ...}); creates answer 200 instead of 201; deletes 204 without a body
//   notFoundMessage: text  the API's 404s keep their code and error id, with this message (a
//          deployment whose messages do not name the record, such as "Not found.")
//   gatewayPages: true  the first attempt of each request gets, in turn, a 502 HTML page, a 503 HTML
//          page with Retry-After: 0 and an empty 500, without reaching the API
//   rateLimit: 'http-date' | 'none'  the first attempt of every third request gets 429 with
//          Retry-After as an HTTP date, or without Retry-After (not forwarded)
//   compression: 'gzip' | 'deflate'  answers compressed (Content-Encoding)
//   chunkBytes: n  answers written n bytes at a time
//   cutWrites: true  the first attempt of each write reaches the API, then its answer is cut off
//   decorate: true  unknown fields in every object, date-times with milliseconds and an offset
//   invoiceStatuses: { sandbox's word: deployment's word }  an invoice's `status` in the
//          deployment's own words (the contract lists no invoice statuses), e.g. PAST_DUE as OVERDUE
//   silent: true  connections are accepted and never answered
//   holdPages: n  requests for a later page of a list (offset > 0) are held until n are held
//          together, or until the page the list's count ends with is among them; then they are
//          passed on last asked first (a client that reads pages one at a time waits
//          for ever). `heldTogether`: most pages held at once
//
// Every entry of `requests` has `arrived` and `answered`: its place in the front's sequence of
// arrivals and answers (1, 2, ...), so that a test sees which requests overlapped without a clock.

const http = require('http');
const zlib = require('zlib');

const DEPLOYMENTS = {
	contract: {},
	'relative-links': { links: 'relative' },
	'internal-links': { links: 'internal' },
	'no-next-links': { links: 'none' },
	'repeated-next': { links: 'repeat' },
	'link-header': { linkHeader: true },
	'not-found-past-end': { pastEnd: 'not-found' },
	'added-at-head': { addedAtHead: true },
	'page-cap-refuse': { pageCap: { size: 100, over: 'refuse' } },
	'page-cap-clamp': { pageCap: { size: 100, over: 'clamp' } },
	'gateway-statuses': { statuses: 'gateway' },
	'gateway-pages': { gatewayPages: true },
	'rate-limit-http-date': { rateLimit: 'http-date' },
	'rate-limit-no-retry-after': { rateLimit: 'none' },
	gzip: { compression: 'gzip' },
	deflate: { compression: 'deflate' },
	'tiny-chunks': { chunkBytes: 61 },
	'cut-writes': { cutWrites: true },
	'unknown-fields-and-offsets': { decorate: true },
	'overdue-status': { invoiceStatuses: { PAST_DUE: 'OVERDUE' } },
	silent: { silent: true },
};

const WEB_SERVER_404 = {
	status: 404,
	headers: { 'Content-Type': 'text/html' },
	body: '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>',
};
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

function configOf(variant) {
	if (typeof variant === 'string') {
		if (!DEPLOYMENTS[variant])
			throw new Error(
				`Unknown deployment '${variant}'. Known: ${Object.keys(DEPLOYMENTS).join(', ')}`,
			);
		return { name: variant, ...DEPLOYMENTS[variant] };
	}
	return { name: 'custom', ...variant };
}

/** The same instant, written with milliseconds and a +02:00 offset. */
function withOffset(value) {
	const m = DATE_TIME.exec(value);
	if (!m) return value;
	const shifted = new Date(Date.parse(value) + 2 * 3600 * 1000).toISOString().replace('Z', '');
	return `${shifted}+02:00`;
}

function decorate(value) {
	if (Array.isArray(value)) return value.map(decorate);
	if (value && typeof value === 'object') {
		const out = {};
		for (const [k, v] of Object.entries(value)) out[k] = decorate(v);
		out.gateway_region = 'eu-west-1';
		return out;
	}
	return typeof value === 'string' ? withOffset(value) : value;
}

/** invoiceStatuses: every invoice's (an object with an `invoice_id`) `status` in the deployment's words. */
function renameInvoiceStatuses(value, words) {
	if (Array.isArray(value)) return value.map((element) => renameInvoiceStatuses(element, words));
	if (!value || typeof value !== 'object') return value;
	const out = {};
	for (const [k, v] of Object.entries(value)) out[k] = renameInvoiceStatuses(v, words);
	if ('invoice_id' in value && Object.hasOwn(words, value.status)) out.status = words[value.status];
	return out;
}

class Deployment {
	constructor(sandbox, variant) {
		this.sandbox = sandbox;
		this.config = configOf(variant);
		this.internalOrigin = this.config.internalOrigin || 'http://internal:8080';
		/** What the client sent: { method, url, headers, answeredWith } in arrival order. */
		this.requests = [];
		/** Attempts seen per request identity (method, url, body). */
		this.attempts = new Map();
		this.firstPageLinks = new Map();
		this.sockets = new Set();
		/** Arrivals and answers so far (each entry's `arrived` and `answered` are places in this sequence). */
		this.events = 0;
		/** holdPages: the requests held, the most held at once, and the count the list's pages gave. */
		this.held = [];
		this.heldTogether = 0;
		this.listCount = undefined;
	}

	listen() {
		this.server = http.createServer((req, res) => this.handle(req, res));
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		this.server.on('clientError', (_err, socket) => socket.destroy());
		return new Promise((resolve) => {
			this.server.listen(0, '127.0.0.1', () => {
				this.origin = `http://127.0.0.1:${this.server.address().port}`;
				this.baseUrl = `${this.origin}/api/v2`;
				resolve(this);
			});
		});
	}

	/** Connections currently open to the front (a client that closes timed-out attempts leaves none). */
	openConnections() {
		return new Promise((resolve, reject) =>
			this.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
		);
	}

	clear() {
		this.requests.length = 0;
		this.attempts.clear();
		this.firstPageLinks.clear();
	}

	handle(req, res) {
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			const entry = {
				method: req.method,
				url: req.url,
				headers: { ...req.headers },
				answeredWith: undefined,
				arrived: ++this.events,
				answered: undefined,
			};
			this.requests.push(entry);
			res.on('finish', () => (entry.answered = ++this.events));
			if (this.config.silent) return;
			if (this.config.holdPages && this.isLaterPage(req.url))
				return this.hold(req.url, () => this.pass(req, res, body, entry));
			this.pass(req, res, body, entry);
		});
	}

	isLaterPage(url) {
		return Number(new URL(url, this.origin).searchParams.get('offset') || 0) > 0;
	}

	/** holdPages: keeps `release` until enough pages are held (see the header), then passes the held ones on, last asked first. */
	hold(url, release) {
		const parsed = new URL(url, this.origin);
		const end =
			Number(parsed.searchParams.get('offset')) + Number(parsed.searchParams.get('limit') || 100);
		this.held.push({ end, release });
		this.heldTogether = Math.max(this.heldTogether, this.held.length);
		const last =
			this.listCount !== undefined && this.held.some((page) => page.end >= this.listCount);
		if (this.held.length < this.config.holdPages && !last) return;
		const released = this.held.reverse();
		this.held = [];
		for (const page of released) page.release();
	}

	pass(req, res, body, entry) {
		const identity = `${req.method} ${req.url} ${body.toString('utf8')}`;
		const attempt = (this.attempts.get(identity) || 0) + 1;
		this.attempts.set(identity, attempt);
		const refused = this.refuseFirst(attempt);
		if (refused) {
			entry.answeredWith = `${refused.status} (not forwarded)`;
			return this.reply(req, res, refused, false);
		}
		const capped = this.capPage(req.url);
		if (capped.refusal) {
			entry.answeredWith = '400 (page cap)';
			return this.reply(req, res, capped.refusal, false);
		}
		if (this.tooDeep(req.url)) {
			entry.answeredWith = '404 (too deep)';
			return this.reply(req, res, WEB_SERVER_404, false);
		}
		const forwarded = this.shiftedForHead(capped.url);
		this.forward(
			req,
			forwarded,
			body,
			(answer) => {
				const shaped = this.shape(req, capped.url, answer, forwarded !== capped.url);
				entry.answeredWith = String(shaped.status);
				const isWrite = WRITES.has(req.method) && !capped.url.split('?')[0].endsWith('/search');
				this.reply(req, res, shaped, this.config.cutWrites && isWrite && attempt === 1);
			},
			() => res.destroy(),
		);
	}

	/** A gateway's page or a rate limit on a request's first attempt: nothing reaches the API. */
	refuseFirst(attempt) {
		if (attempt !== 1) return null;
		if (this.config.gatewayPages) {
			const turn = this.requests.length % 3;
			if (turn === 1)
				return {
					status: 502,
					headers: { 'Content-Type': 'text/html' },
					body: '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>',
				};
			if (turn === 2)
				return {
					status: 503,
					headers: { 'Content-Type': 'text/html', 'Retry-After': '0' },
					body: '<html><body>Service Unavailable</body></html>',
				};
			return { status: 500, headers: { 'Content-Type': 'text/plain' }, body: '' };
		}
		if (this.config.rateLimit && this.requests.length % 3 !== 1) return null;
		if (this.config.rateLimit === 'http-date') {
			return {
				status: 429,
				headers: {
					'Content-Type': 'text/plain',
					'Retry-After': new Date(Date.now() + 1000).toUTCString(),
				},
				body: 'Too Many Requests',
			};
		}
		if (this.config.rateLimit === 'none')
			return {
				status: 429,
				headers: { 'Content-Type': 'application/json' },
				body: '{"detail":"Request was throttled."}',
			};
		return null;
	}

	capPage(url) {
		const cap = this.config.pageCap;
		if (!cap) return { url };
		const parsed = new URL(url, this.origin);
		const limit = parsed.searchParams.get('limit');
		if (limit === null || !(Number(limit) > cap.size)) return { url };
		if (cap.over === 'refuse') {
			const body = JSON.stringify({
				error: {
					code: 'ERR_BAD_REQUEST',
					message: `limit: Ensure this value is less than or equal to ${cap.size}.`,
				},
			});
			return { refusal: { status: 400, headers: { 'Content-Type': 'application/json' }, body } };
		}
		parsed.searchParams.set('limit', String(cap.size));
		return { url: `${parsed.pathname}${parsed.search}` };
	}

	forward(req, url, body, done, failed) {
		const upstream = http.request(
			{
				host: this.sandbox.host,
				port: this.sandbox.port,
				method: req.method,
				path: url,
				headers: { ...req.headers, host: new URL(this.origin).host },
			},
			(answer) => {
				const parts = [];
				answer.on('data', (part) => parts.push(part));
				answer.on('end', () =>
					done({
						status: answer.statusCode,
						headers: answer.headers,
						body: Buffer.concat(parts).toString('utf8'),
					}),
				);
				answer.on('error', failed);
			},
		);
		upstream.on('error', failed);
		upstream.end(body);
	}

	/** addedAtHead: the API's page one place earlier than a later page asked for. */
	shiftedForHead(url) {
		if (!this.config.addedAtHead) return url;
		const parsed = new URL(url, this.origin);
		const offset = Number(parsed.searchParams.get('offset') || 0);
		if (!(offset > 0)) return url;
		parsed.searchParams.set('offset', String(offset - 1));
		return `${parsed.pathname}${parsed.search}`;
	}

	/** The page as it is once a record was added at the head: one more counted, its next page one further. */
	withRecordAtHead(page) {
		if (!page.next) return { ...page, count: page.count + 1 };
		const next = new URL(page.next);
		next.searchParams.set('offset', String(Number(next.searchParams.get('offset')) + 1));
		return { ...page, count: page.count + 1, next: next.href };
	}

	/** A page at an offset past `notFoundFrom`. */
	tooDeep(url) {
		if (this.config.notFoundFrom === undefined) return false;
		return (
			Number(new URL(url, this.origin).searchParams.get('offset') || 0) >= this.config.notFoundFrom
		);
	}

	/** The answer as this deployment writes it. */
	shape(req, url, answer, shiftedForHead) {
		const type = String(answer.headers['content-type'] || 'application/json');
		let status = answer.status;
		let json;
		try {
			json = answer.body ? JSON.parse(answer.body) : undefined;
		} catch {
			json = undefined;
		}
		const path = new URL(url, this.origin).pathname;
		if (status === 404 && path !== '/api/v2' && !path.startsWith('/api/v2/')) {
			// Outside the API, the web server in front of it answers, as web servers do.
			return WEB_SERVER_404;
		}
		const headers = { 'Content-Type': type };
		if (json && typeof json === 'object' && typeof json.count === 'number')
			this.listCount = json.count;
		if (json && typeof json === 'object' && 'results' in json && status < 300) {
			if (shiftedForHead) json = this.withRecordAtHead(json);
			if (this.config.pastEnd === 'not-found') json = this.pastEnd(url, json);
			if (json.error) status = 404;
			else json = this.links(req, url, json);
			if (this.config.linkHeader && !json.error) json = this.inLinkHeader(json, headers);
		}
		if (this.config.statuses === 'gateway') {
			if (status === 400) status = 422;
			if ([401, 403, 404].includes(status))
				json = {
					detail: status === 404 ? 'Not found.' : 'Authentication credentials were not provided.',
				};
			if (req.method === 'POST' && status === 201) status = 200;
			if (req.method === 'DELETE' && status === 200) return { status: 204, headers: {}, body: '' };
		}
		if (this.config.notFoundMessage !== undefined && status === 404 && json?.error)
			json = { error: { ...json.error, message: this.config.notFoundMessage } };
		if (this.config.invoiceStatuses && json !== undefined && status < 300)
			json = renameInvoiceStatuses(json, this.config.invoiceStatuses);
		if (this.config.decorate && json !== undefined && status < 300) json = decorate(json);
		const body = json === undefined ? answer.body : JSON.stringify(json);
		return { status, headers, body };
	}

	/** pastEnd 'not-found': a full page links the next; an empty page after the first is the API's 404 (its body). */
	pastEnd(url, page) {
		const parsed = new URL(url, this.origin);
		const offset = Number(parsed.searchParams.get('offset') || 0);
		const limit = Number(parsed.searchParams.get('limit') || 100);
		if (offset > 0 && page.results.length === 0)
			return { error: { code: 'ERR_NOT_FOUND', message: 'Invalid page' } };
		if (page.next || page.results.length < limit) return page;
		parsed.searchParams.set('limit', String(limit));
		parsed.searchParams.set('offset', String(offset + limit));
		return { ...page, next: `${this.origin}${parsed.pathname}${parsed.search}` };
	}

	/** linkHeader: `next` and `previous` move to a Link header; the envelope keeps only `results`. */
	inLinkHeader(page, headers) {
		const links = [];
		if (page.next) links.push(`<${page.next}>; rel="next"`);
		if (page.previous) links.push(`<${page.previous}>; rel="prev"`);
		if (links.length > 0) headers.Link = links.join(', ');
		const { count, next, previous, ...rest } = page;
		return rest;
	}

	links(req, url, page) {
		const style = this.config.links;
		if (!style) return page;
		const rewrite = (link) => {
			if (typeof link !== 'string') return link;
			const parsed = new URL(link);
			if (style === 'relative') return `${parsed.pathname}${parsed.search}`;
			if (style === 'internal') return `${this.internalOrigin}${parsed.pathname}${parsed.search}`;
			if (style === 'outside')
				return `${this.internalOrigin}/internal${parsed.pathname.replace(/^\/api\/v2/, '')}${parsed.search}`;
			return link;
		};
		if (style === 'none') return { ...page, next: null, previous: null };
		if (style === 'repeat') {
			const key = `${req.method} ${new URL(url, this.origin).pathname}`;
			if (!this.firstPageLinks.has(key) && page.next) this.firstPageLinks.set(key, page.next);
			return { ...page, next: this.firstPageLinks.get(key) ?? page.next };
		}
		return { ...page, next: rewrite(page.next), previous: rewrite(page.previous) };
	}

	reply(req, res, answer, cut) {
		let body = Buffer.from(answer.body || '', 'utf8');
		const headers = { ...answer.headers };
		if (this.config.compression && body.length > 0) {
			body = this.config.compression === 'gzip' ? zlib.gzipSync(body) : zlib.deflateSync(body);
			headers['Content-Encoding'] = this.config.compression;
		}
		headers['Content-Length'] = body.length;
		res.writeHead(answer.status, headers);
		if (cut) {
			res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.destroy());
			return;
		}
		const size = this.config.chunkBytes;
		if (!size) return res.end(body);
		let at = 0;
		const next = () => {
			if (res.destroyed) return;
			if (at >= body.length) return res.end();
			res.write(body.subarray(at, at + size));
			at += size;
			setImmediate(next);
		};
		next();
	}

	close() {
		return new Promise((resolve) => {
			this.server.close(() => resolve());
			this.server.closeAllConnections();
			for (const socket of this.sockets) socket.destroy();
		});
	}
}

/** Starts a deployment (a name of DEPLOYMENTS or a DeploymentConfig) in front of a running sandbox. */
async function startDeployment(sandbox, variant) {
	const deployment = new Deployment(sandbox, variant);
	await deployment.listen();
	return deployment;
}

module.exports = { DEPLOYMENTS, startDeployment, Deployment };
