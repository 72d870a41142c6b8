// servers.js - the servers of the middleware tests, each on loopback on a
// port of its own, with an application that reads the whole body and
// answers 200; and a raw-socket client that sends bytes exactly as given.
'use strict';

const http = require('node:http');
const net = require('node:net');
const ug = require('..');

// The application: reads the body, records what reached it, answers "ok".
function app(seen) {
  return (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('error', () => {});
    req.on('end', () => {
      seen.push(Buffer.concat(chunks));
      res.setHeader('Content-Type', 'text/plain');
      res.end('ok');
    });
  };
}

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

/** Starts one kind of server ('http', 'express', 'fastify') behind the guard. */
async function start(kind, options = {}) {
  const seen = [];
  const findings = [];
  const guard = new ug.Guard(options);
  guard.on('finding', (f) => findings.push(f));
  if (kind === 'http') {
    const server = http.createServer(ug.http(app(seen), guard));
    const port = await listen(server);
    return { port, seen, findings, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
  }
  if (kind === 'express') {
    const express = require('express');
    const a = express();
    a.use(ug.express(guard));
    a.use(app(seen));
    const server = http.createServer(a);
    const port = await listen(server);
    return { port, seen, findings, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
  }
  if (kind === 'fastify') {
    const fastify = require('fastify')({ logger: false, frameworkErrors: ug.fastify.frameworkErrors(guard) });
    // Every body as it came: the application sees the bytes, not a parse.
    fastify.removeAllContentTypeParsers();
    fastify.addContentTypeParser('*', (req, payload, done) => done(null));
    await fastify.register(ug.fastify, { guard });
    fastify.all('/*', (request, reply) => {
      app(seen)(request.raw, reply.raw);
      reply.hijack();
    });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    return { port: fastify.server.address().port, seen, findings, close: () => fastify.close() };
  }
  throw new Error(`unknown server ${kind}`);
}

/**
 * Sends pieces (Buffers) over one connection, waiting `gap` ms between
 * them, and resolves with {status, statuses, type, body} once the server
 * closes it.
 */
function send(port, pieces, gap = 0) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const got = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const text = Buffer.concat(got).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const head = end < 0 ? text : text.slice(0, end);
      const status = Number((/^HTTP\/1\.1 (\d+)/.exec(head) || [])[1] || 0);
      const type = (/\r\ncontent-type: ([^\r]*)/i.exec(head) || [])[1] || null;
      // Every answer's status, in order, for several requests on one connection.
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
      resolve({ status, statuses, type, body: end < 0 ? '' : text.slice(end + 4), raw: Buffer.concat(got) });
    };
    socket.on('data', (d) => got.push(d));
    socket.on('close', finish);
    socket.on('error', () => {});
    socket.on('connect', async () => {
      for (let i = 0; i < pieces.length; i++) {
        if (socket.destroyed) break;
        socket.write(pieces[i]);
        if (gap > 0 && i + 1 < pieces.length) await new Promise((r) => setTimeout(r, gap));
      }
      if (!socket.destroyed) socket.end();
    });
  });
}

/** Runs fn over items with at most `width` at once. */
async function each(items, width, fn) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
}

module.exports = { start, send, each };
