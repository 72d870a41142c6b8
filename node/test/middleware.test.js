// The node:http request-listener wrapper on a real server on loopback.
'use strict';

const { suite, detectOnly } = require('./parts');

suite('http');
detectOnly('http');
