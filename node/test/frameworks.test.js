// The Express middleware and the Fastify plugin, from npm, on real servers
// on loopback.
'use strict';

const { suite, detectOnly } = require('./parts');

suite('express');
detectOnly('express');
suite('fastify');
detectOnly('fastify');
