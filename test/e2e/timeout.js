'use strict';
// An end-to-end project's timeout (jest.config.js): Jest 29 has only one global testTimeout.
require('@jest/globals').jest.setTimeout(globalThis.timeout);
