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
//   links: 'relative' | 'internal' | 'none' | 'repeat'  how `next`/`previous` are written:
//          relative to the host, with the service's internal address (`internalOrigin`), left
//          out (while `count` says more exist), or every later page's `next` pointing back at the
//          second page, already served
//   internalOrigin: origin written by links: 'internal' (default http://internal:8080)
//   pageCap: { size, over: 'refuse' | 'clamp' }  pages of at most `size`: a larger `limit` is
//          answered 400 (refuse) or served at `size` (clamp)
//   statuses: 'gateway'  400 becomes 422; 401, 403 and 404 come without the error envelope
//          ({"detail": ...}); creates answer 200 instead of 201; deletes 204 without a body
//   gatewayPages: true  the first attempt of each request gets, in turn, a 502 HTML page, a 503 HTML
//          page with Retry-After: 0 and an empty 500, without reaching the API
//   rateLimit: 'http-date' | 'none'  the first attempt of every third request gets 429 with
//          Retry-After as an HTTP date, or without Retry-After (not forwarded)
//   compression: 'gzip' | 'deflate'  answers compressed (Content-Encoding)
//   chunkBytes: n  answers written n bytes at a time
//   cutWrites: true  the first attempt of each write reaches the API, then its answer is cut off
//   decorate: true  unknown fields in every object, date-times with milliseconds and an offset
//   silent: true  connections are accepted and never answered

const http = require('http');
const zlib = require('zlib');

const DEPLOYMENTS = {
  contract: {},
  'relative-links': { links: 'relative' },
  'internal-links': { links: 'internal' },
  'no-next-links': { links: 'none' },
  'repeated-next': { links: 'repeat' },
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
  silent: { silent: true },
};

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

function configOf(variant) {
  if (typeof variant === 'string') {
    if (!DEPLOYMENTS[variant]) throw new Error(`Unknown deployment '${variant}'. Known: ${Object.keys(DEPLOYMENTS).join(', ')}`);
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
    return new Promise((resolve, reject) => this.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
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
      const entry = { method: req.method, url: req.url, headers: { ...req.headers }, answeredWith: undefined };
      this.requests.push(entry);
      if (this.config.silent) return;
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
      this.forward(req, capped.url, body, (answer) => {
        const shaped = this.shape(req, capped.url, answer);
        entry.answeredWith = String(shaped.status);
        const isWrite = WRITES.has(req.method) && !capped.url.split('?')[0].endsWith('/search');
        this.reply(req, res, shaped, this.config.cutWrites && isWrite && attempt === 1);
      }, () => res.destroy());
    });
  }

  /** A gateway's page or a rate limit on a request's first attempt: nothing reaches the API. */
  refuseFirst(attempt) {
    if (attempt !== 1) return null;
    if (this.config.gatewayPages) {
      const turn = this.requests.length % 3;
      if (turn === 1) return { status: 502, headers: { 'Content-Type': 'text/html' }, body: '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>' };
      if (turn === 2) return { status: 503, headers: { 'Content-Type': 'text/html', 'Retry-After': '0' }, body: '<html><body>Service Unavailable</body></html>' };
      return { status: 500, headers: { 'Content-Type': 'text/plain' }, body: '' };
    }
    if (this.config.rateLimit && this.requests.length % 3 !== 1) return null;
    if (this.config.rateLimit === 'http-date') {
      return { status: 429, headers: { 'Content-Type': 'text/plain', 'Retry-After': new Date(Date.now() + 1000).toUTCString() }, body: 'Too Many Requests' };
    }
    if (this.config.rateLimit === 'none') return { status: 429, headers: { 'Content-Type': 'application/json' }, body: '{"detail":"Request was throttled."}' };
    return null;
  }

  capPage(url) {
    const cap = this.config.pageCap;
    if (!cap) return { url };
    const parsed = new URL(url, this.origin);
    const limit = parsed.searchParams.get('limit');
    if (limit === null || !(Number(limit) > cap.size)) return { url };
    if (cap.over === 'refuse') {
      const body = JSON.stringify({ error: { code: 'ERR_BAD_REQUEST', message: `limit: Ensure this value is less than or equal to ${cap.size}.` } });
      return { refusal: { status: 400, headers: { 'Content-Type': 'application/json' }, body } };
    }
    parsed.searchParams.set('limit', String(cap.size));
    return { url: `${parsed.pathname}${parsed.search}` };
  }

  forward(req, url, body, done, failed) {
    const upstream = http.request(
      { host: this.sandbox.host, port: this.sandbox.port, method: req.method, path: url, headers: { ...req.headers, host: new URL(this.origin).host } },
      (answer) => {
        const parts = [];
        answer.on('data', (part) => parts.push(part));
        answer.on('end', () => done({ status: answer.statusCode, headers: answer.headers, body: Buffer.concat(parts).toString('utf8') }));
        answer.on('error', failed);
      },
    );
    upstream.on('error', failed);
    upstream.end(body);
  }

  /** The answer as this deployment writes it. */
  shape(req, url, answer) {
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
      return { status, headers: { 'Content-Type': 'text/html' }, body: '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>' };
    }
    if (json && typeof json === 'object' && 'results' in json) json = this.links(req, url, json);
    if (this.config.statuses === 'gateway') {
      if (status === 400) status = 422;
      if ([401, 403, 404].includes(status)) json = { detail: status === 404 ? 'Not found.' : 'Authentication credentials were not provided.' };
      if (req.method === 'POST' && status === 201) status = 200;
      if (req.method === 'DELETE' && status === 200) return { status: 204, headers: {}, body: '' };
    }
    if (this.config.decorate && json !== undefined && status < 300) json = decorate(json);
    const body = json === undefined ? answer.body : JSON.stringify(json);
    return { status, headers: { 'Content-Type': type }, body };
  }

  links(req, url, page) {
    const style = this.config.links;
    if (!style) return page;
    const rewrite = (link) => {
      if (typeof link !== 'string') return link;
      const parsed = new URL(link);
      if (style === 'relative') return `${parsed.pathname}${parsed.search}`;
      if (style === 'internal') return `${this.internalOrigin}${parsed.pathname}${parsed.search}`;
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
