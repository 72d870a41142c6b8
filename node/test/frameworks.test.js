// The Express middleware and the Fastify plugin, from npm, on real servers
// on loopback.
'use strict';

const { suite, contentTypes, multipart, detectOnly } = require('./parts');

suite('express');
contentTypes('express');
multipart('express');
detectOnly('express');
suite('fastify');
contentTypes('fastify');
multipart('fastify');
detectOnly('fastify');
