// The node:http request-listener wrapper on a real server on loopback.
'use strict';

const { suite, contentTypes, multipart, detectOnly } = require('./parts');

suite('http');
contentTypes('http');
multipart('http');
detectOnly('http');
