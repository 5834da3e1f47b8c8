'use strict';
// Every API route, relative to /api/v2.

module.exports = [
	...require('./customers'),
	...require('./invoices'),
	...require('./subscriptions'),
	...require('./recasts'),
	...require('./upgrades'),
	...require('./milestones'),
	...require('./plans'),
	...require('./payment-methods'),
	...require('./usage'),
];
