'use strict';
// Error type thrown by routes and turned into `{ error: { code, message } }` replies.

class ApiError extends Error {
	constructor(status, code, message, extra, headers) {
		super(message);
		this.status = status;
		this.code = code;
		this.extra = extra || null;
		this.headers = headers || {};
	}
	toBody() {
		return { error: { code: this.code, message: this.message, ...(this.extra || {}) } };
	}
}

const badRequest = (message) => new ApiError(400, 'ERR_BAD_REQUEST', message);
const notFound = (message) => new ApiError(404, 'ERR_NOT_FOUND', message);

module.exports = { ApiError, badRequest, notFound };
