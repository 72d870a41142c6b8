// The node:http request-listener wrapper on a real server on loopback.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const ug = require('..');
const { suite, contentTypes, multipart, detectOnly } = require('./parts');
const { send } = require('./servers');

suite('http');
contentTypes('http');
multipart('http');
detectOnly('http');

// A guard called late, once its request's body has all arrived, leaves the
// body check of the request after it on the same connection in place.

test('http: a guard called late leaves the next pipelined request watched', async () => {
  const guard = new ug.Guard();
  const seen = [];
  let count = 0;
  const server = http.createServer((req, res) => {
    const go = () => {
      if (!guard.admit(req, res)) return;
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        seen.push(Buffer.concat(chunks).toString('latin1'));
        res.end('ok');
      });
    };
    // The first request's guard runs after the second's body has begun.
    if (count++ === 0) setTimeout(go, 60);
    else go();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const post = (body, extra = '') => Buffer.from(`POST /t HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\n` +
      `Content-Length: ${body.length}\r\n${extra}\r\n${body}`, 'latin1');
    const second = post('clean start, then \xc0\xaf', 'Connection: close\r\n');
    const cut = second.length - 2;
    const res = await send(server.address().port,
      [Buffer.concat([post('first'), second.subarray(0, cut)]), second.subarray(cut)], 150);
    assert.deepEqual(res.statuses, [200, 400]);
    assert.deepEqual(seen, ['first']);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
