'use strict';
// Non-API pages the API links to (no auth): signing page, billing portal, order PDF.

function escapeHtml(s) {
	return String(s).replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
	);
}

/** Returns a reply for GET pages outside /api/v2, or null. */
function page(method, rawPath, searchParams) {
	if (method !== 'GET') return null;
	let m = /^\/sign\/([\w-]+)$/.exec(rawPath);
	if (m) {
		const redirect = searchParams.get('redirect_url') || '';
		const html = `<!doctype html><html><head><title>Sign order</title></head><body><h1>Sandbox signing page</h1><p>Order: ${escapeHtml(m[1])}</p><a id="done" href="${escapeHtml(redirect)}">Sign and return</a></body></html>`;
		return { status: 200, raw: html, contentType: 'text/html; charset=utf-8', headers: {} };
	}
	m = /^\/portal\/([\w-]+)$/.exec(rawPath);
	if (m) {
		return {
			status: 200,
			raw: `<!doctype html><html><body><h1>Billing portal</h1><p>${escapeHtml(m[1])}</p></body></html>`,
			contentType: 'text/html; charset=utf-8',
			headers: {},
		};
	}
	m = /^\/orders\/([\w-]+)\.pdf$/.exec(rawPath);
	if (m) {
		return {
			status: 200,
			raw: `%PDF-1.4\n% sandbox order ${m[1]}\n%%EOF\n`,
			contentType: 'application/pdf',
			headers: {},
		};
	}
	return null;
}

module.exports = { page };
