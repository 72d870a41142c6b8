// The Express middleware and the Fastify plugin, from npm, on real servers
// on loopback.
'use strict';

const { suite, contentTypes, detectOnly } = require('./parts');

suite('express');
contentTypes('express');
detectOnly('express');
suite('fastify');
contentTypes('fastify');
detectOnly('fastify');
