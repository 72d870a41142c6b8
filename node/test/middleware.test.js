// The node:http request-listener wrapper on a real server on loopback.
'use strict';

const { suite, contentTypes, detectOnly } = require('./parts');

suite('http');
contentTypes('http');
detectOnly('http');
