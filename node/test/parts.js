// parts.js - the middleware suite, run against each server: every attack
// vector, raw and percent-encoded, in every part of a request; multilingual
// text in every part; bodies split at every byte; detect-only mode.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const ug = require('..');
const { vectors, multilingual, percentAll } = require('./support');
const { start, send, each } = require('./servers');

const CRLF = '\r\n';

function head(method, target, headers) {
  const lines = [`${method} `, target, ` HTTP/1.1${CRLF}Host: test${CRLF}Connection: close${CRLF}`];
  for (const [name, value] of headers) lines.push(`${name}: `, value, CRLF);
  lines.push(CRLF);
  return Buffer.concat(lines.map((x) => (Buffer.isBuffer(x) ? x : Buffer.from(x, 'latin1'))));
}

function jsonBody(b) {
  return Buffer.concat([Buffer.from('{"a":"'), b, Buffer.from('"}')]);
}

function post(type, body, target = '/submit') {
  return Buffer.concat([head('POST', target, [['Content-Type', type], ['Content-Length', String(body.length)]]), body]);
}

// Each part of a request, with the bytes in the form that part carries
// them, and the policy and form the core's defaults give it.
const PARTS = [
  { name: 'path, encoded', request: (b) => head('GET', Buffer.concat([Buffer.from('/p/'), Buffer.from(percentAll(b))]), []), policy: 'url', percent: true },
  { name: 'path, raw', request: (b) => head('GET', Buffer.concat([Buffer.from('/p/'), b]), []), policy: 'url', percent: true, parser: true },
  { name: 'query, encoded', request: (b) => head('GET', Buffer.from(`/q?x=${percentAll(b)}`), []), policy: 'url', percent: true },
  { name: 'query, raw', request: (b) => head('GET', Buffer.concat([Buffer.from('/q?x='), b]), []), policy: 'url', percent: true, parser: true },
  { name: 'header value', request: (b) => head('GET', '/h', [['X-Text', b]]), policy: 'field', percent: false, parser: true },
  { name: 'form body, encoded', request: (b) => post('application/x-www-form-urlencoded', Buffer.from(`a=1&b=${percentAll(b)}`)), policy: 'url,-newline', percent: true },
  { name: 'form body, raw', request: (b) => post('application/x-www-form-urlencoded', Buffer.concat([Buffer.from('a=1&b='), b])), policy: 'url,-newline', percent: true },
  { name: 'json body', request: (b) => post('application/json; charset=utf-8', jsonBody(b)), policy: 'json,nul,bidi,bad_escape', json: true },
  { name: 'text body', request: (b) => post('text/plain', Buffer.concat([Buffer.from('text: '), b])), policy: 'strict', percent: false },
];

// Whether Node's own parser refuses these bytes in this part (no token in a
// target, a control character in a header value): its 400 comes first.
function parserRefuses(part, b) {
  if (!part.parser) return false;
  if (part.name.startsWith('header')) return b.some((x) => (x < 0x20 && x !== 0x09) || x === 0x7f);
  return b.some((x) => x <= 0x20 || x >= 0x7f);
}

function expectRefused(res, part, b, label) {
  assert.equal(res.status, 400, label);
  if (res.type === 'application/problem+json') {
    assert.match(res.body, /^[\x20-\x7e]*$/, `${label}: the answer is printable ASCII`);
    const doc = JSON.parse(res.body);
    assert.match(doc.type, /^urn:utf8guard:problem:(unacceptable-text|unreadable-request)$/, label);
    assert.equal(doc.status, 400, label);
    assert.match(doc.detail, /is not acceptable text: /, label);
    return true;
  }
  assert.ok(parserRefuses(part, b), `${label}: refused by Node's parser, not the guard: ${res.raw.toString('latin1')}`);
  return false;
}

function suite(kind) {
  let server;
  test.before(async () => { server = await start(kind); });
  test.after(() => server.close());

  test(`${kind}: every attack vector in every part`, async () => {
    const cases = [];
    for (const v of vectors()) for (const part of PARTS) cases.push([v, part]);
    let guarded = 0;
    await each(cases, 8, async ([v, part]) => {
      const label = `${v.id} in ${part.name}`;
      const bytes = v.bytes;
      const res = await send(server.port, [part.request(bytes)]);
      // Ill-formed rows are refused everywhere; well-formed ones where the
      // part's policy denies what they hold.
      const clean = part.percent ? ug.isValidPercent(Buffer.from(percentAll(bytes)), part.policy)
        : part.json ? ug.isValidJson(jsonBody(bytes), part.policy) : ug.isValid(bytes, part.policy);
      const refused = v.kind !== 'none' || !clean || parserRefuses(part, bytes);
      if (refused) {
        if (expectRefused(res, part, bytes, label)) guarded++;
      } else {
        assert.equal(res.status, 200, `${label}: ${res.body}`);
      }
    });
    assert.ok(guarded > cases.length / 2, `the guard itself refused ${guarded} of ${cases.length}`);
  });

  test(`${kind}: multilingual text in every part is never refused`, async () => {
    const cases = [];
    for (const line of multilingual()) {
      const b = Buffer.from(line).subarray(0, 240);
      const text = Buffer.from(b.toString('utf8').replace(/\uFFFD$/, ''));
      for (const part of PARTS) if (!part.parser || !part.name.startsWith('path') && !part.name.startsWith('query')) cases.push([text, part]);
    }
    await each(cases, 8, async ([text, part]) => {
      const res = await send(server.port, [part.request(text)]);
      assert.equal(res.status, 200, `${part.name}: ${res.body}`);
    });
  });

  test(`${kind}: a body split at every byte gives the unsplit answer`, async () => {
    const bodies = [
      [200, post('text/plain', Buffer.from(`ok ${multilingual()[1].slice(0, 20)} end`))],
      [400, post('text/plain', Buffer.from([0x61, 0x62, 0x20, 0xe2, 0x82, 0x20, 0x63, 0x64]))],
      [400, post('application/x-www-form-urlencoded', Buffer.from('a=1&b=%2e%2e%c0%af%2e&c=2'))],
      [400, post('application/json', Buffer.from('{"name":"\uFDD0 noncharacter"}'))],
      [400, post('application/x-www-form-urlencoded', Buffer.from('a=%E2%80%AEb'))],
      [400, post('application/json', Buffer.from('{"name":"\\ud800 lone"}'))],
      [200, post('application/json', Buffer.from('{"name":"\\ud83d\\ude00 pair"}'))],
    ];
    for (const [status, request] of bodies) {
      const whole = await send(server.port, [request]);
      assert.equal(whole.status, status, request.toString('latin1'));
      const bodyAt = request.indexOf('\r\n\r\n') + 4;
      const splits = [];
      for (let i = bodyAt; i < request.length; i++) splits.push(i);
      await each(splits, 4, async (i) => {
        const res = await send(server.port, [request.subarray(0, i), request.subarray(i)], 3);
        assert.equal(res.status, whole.status, `split at ${i - bodyAt}`);
        assert.equal(res.body, whole.body, `split at ${i - bodyAt}`);
      });
    }
  });

  test(`${kind}: a finding behind many headers, and a body's type behind them`, async () => {
    // The addon reads the raw headers from its call's arguments: more than
    // fit its stack array go to the heap, and none may be skipped.
    for (const count of [30, 31, 32, 33, 100]) {
      const filler = Array.from({ length: count }, (_, i) => [`X-Filler-${i}`, `value ${i}`]);
      const bad = await send(server.port, [head('GET', '/h', [...filler, ['X-Text', Buffer.from([0xc0, 0xaf])]])]);
      assert.equal(bad.status, 400, `${count} headers before the bad one`);
      assert.equal(JSON.parse(bad.body).header.toLowerCase(), 'x-text', `${count} headers`);
      const body = Buffer.from('{"a":"\\ud800"}');
      const json = await send(server.port, [Buffer.concat([head('POST', '/submit', [...filler,
        ['Content-Type', 'application/json'], ['Content-Length', String(body.length)]]), body])]);
      assert.equal(json.status, 400, `${count} headers before the Content-Type`);
      const ok = await send(server.port, [head('GET', '/h', [...filler, ['X-Text', Buffer.from('caf\u00e9')]])]);
      assert.equal(ok.status, 200, `${count} clean headers`);
    }
  });

  test(`${kind}: each request on a kept-alive connection is checked, pipelined or not`, async () => {
    // The guard keeps its state on the socket: the third request of one
    // connection must meet the checks the first met.
    const keepAlive = (b) => Buffer.from(b.toString('latin1').replace(`Connection: close${CRLF}`, `Connection: keep-alive${CRLF}`), 'latin1');
    const bad = Buffer.from([0x61, 0xc0, 0xaf, 0x62]); // an overlong '/'
    const good = Buffer.from('caf\u00e9');
    for (const part of PARTS) {
      if (part.parser && !part.name.startsWith('header')) continue;
      for (const gap of [0, 5]) {
        const before = server.seen.length;
        const pieces = [keepAlive(part.request(good)), keepAlive(part.request(good)), keepAlive(part.request(bad))];
        const res = await send(server.port, gap === 0 ? [Buffer.concat(pieces)] : pieces, gap);
        const label = `${part.name}, ${gap === 0 ? 'pipelined' : 'one after another'}`;
        assert.deepEqual(res.statuses, [200, 200, 400], label);
        assert.equal(server.seen.length - before, 2, `${label}: the application saw the two clean requests only`);
      }
    }
  });

  test(`${kind}: the application never reads a refused body whole`, async () => {
    const before = server.seen.length;
    const body = Buffer.concat([Buffer.from('x'.repeat(1000)), Buffer.from([0xc0, 0xaf]), Buffer.from('y'.repeat(1000))]);
    const request = post('text/plain', body);
    const res = await send(server.port, [request.subarray(0, request.length - 1500), request.subarray(request.length - 1500)], 5);
    assert.equal(res.status, 400);
    assert.equal(JSON.parse(res.body).finding.offset, 1000);
    for (const got of server.seen.slice(before)) assert.ok(got.length < body.length);
  });
}

function contentTypes(kind) {
  test(`${kind}: the Content-Type and Content-Encoding as the core reads them`, async () => {
    const bad = Buffer.from([0x61, 0xc0, 0xaf]);
    const raw = (headers, body) => Buffer.concat([head('POST', '/ct', [...headers, ['Content-Length', String(body.length)]]), body]);
    const server = await start(kind);
    const declared = await start(kind, { textCharset: 'declared', contentEncoding: 'pass' });
    try {
      const cases = [
        // [server, headers, refused, what the finding names]
        [server, [['Content-Type', 'text/plain; charset=latin1']], 'body'],
        [declared, [['Content-Type', 'text/plain; charset=latin1']], null],
        [server, [['Content-Type', 'application/problem+json']], 'body'],
        [server, [], 'body'],
        [server, [['Content-Type', 'application/octet-stream']], null],
        [server, [['Content-Type', 'multipart/form-data; boundary=x']], 'multipart'],
        [server, [['Content-Type', 'text/plain; charset="utf-8"; charset=utf-8']], 'header Content-Type'],
        [server, [['Content-Type', 'text plain']], 'header Content-Type'],
        [server, [['Content-Type', 'text/plain'], ['Content-Encoding', 'gzip']], 'header Content-Encoding'],
        [declared, [['Content-Type', 'text/plain'], ['Content-Encoding', 'gzip']], null],
        [server, [['Content-Type', 'text/plain'], ['Content-Encoding', 'identity']], 'body'],
        // Parsers disagree on which of two wins: the guard refuses both.
        [server, [['Content-Type', 'application/octet-stream'],
          ['Content-Type', 'application/x-www-form-urlencoded']], 'header Content-Type'],
      ];
      for (const [s, headers, refused] of cases) {
        const res = await send(s.port, [raw(headers, bad)]);
        const label = JSON.stringify(headers);
        if (refused === null) {
          assert.equal(res.status, 200, label);
          continue;
        }
        assert.equal(res.status, 400, label);
        assert.equal(res.type, 'application/problem+json', label);
        const doc = JSON.parse(res.body);
        assert.ok(doc.detail.startsWith(`the request's ${refused} is not acceptable text: `), `${label}: ${doc.detail}`);
      }
      // The same bytes chunked, one byte a chunk, with no Content-Length.
      const chunked = Buffer.concat([
        head('POST', '/ct', [['Content-Type', 'text/plain'], ['Transfer-Encoding', 'chunked']]),
        ...[...bad].map((b) => Buffer.concat([Buffer.from('1\r\n'), Buffer.from([b]), Buffer.from('\r\n')])),
        Buffer.from('0\r\n\r\n')]);
      const res = await send(server.port, [chunked]);
      assert.equal(res.status, 400, 'chunked');
      assert.ok(JSON.parse(res.body).detail.startsWith("the request's body is not acceptable text: "), res.body);
    } finally {
      await server.close();
      await declared.close();
    }
  });
}

function multipart(kind) {
  test(`${kind}: multipart/form-data read part by part`, async () => {
    const server = await start(kind);
    const form = (parts, end = '--b--\r\n') => Buffer.concat([...parts.map(([headers, body]) =>
      Buffer.concat([Buffer.from(`--b\r\n${headers}\r\n\r\n`, 'latin1'), body, Buffer.from('\r\n')])), Buffer.from(end)]);
    const field = (name, body) => [`Content-Disposition: form-data; name="${name}"`, body];
    const file = (name, body) => [`Content-Disposition: form-data; name="f"; filename="${name}"\r\nContent-Type: application/octet-stream`, body];
    const bad = Buffer.from([0x61, 0xc0, 0xaf, 0x62]);
    const text = Buffer.from(multilingual()[3].slice(0, 50));
    try {
      const cases = [
        [form([field('a', text), file('x.bin', bad)]), null],
        [form([field('a', text), field('b', bad)]), 'multipart part 2 field'],
        [form([file('..%c0%af..', text)]), 'multipart part 1 header Content-Disposition filename'],
        [form([field('a', text)], ''), 'multipart'],
      ];
      for (const [body, refused] of cases) {
        const request = post('multipart/form-data; boundary=b', body);
        const whole = await send(server.port, [request]);
        const label = body.toString('latin1');
        if (refused === null) {
          assert.equal(whole.status, 200, label);
        } else {
          assert.equal(whole.status, 400, label);
          const doc = JSON.parse(whole.body);
          assert.ok(doc.detail.startsWith(`the request's ${refused}`), doc.detail);
          assert.equal(doc.finding.kind, 'multipart');
        }
        // Split anywhere, the same answer.
        const bodyAt = request.indexOf('\r\n\r\n') + 4;
        for (let i = bodyAt; i < request.length; i += 7) {
          const res = await send(server.port, [request.subarray(0, i), request.subarray(i)], 2);
          assert.equal(res.status, whole.status, `${label} split at ${i - bodyAt}`);
          assert.equal(res.body, whole.body, `${label} split at ${i - bodyAt}`);
        }
      }
    } finally {
      await server.close();
    }
  });
}

function detectOnly(kind) {
  test(`${kind}: detect-only lets the request on, emits 'finding' and logs`, async () => {
    const logged = [];
    const server = await start(kind, { detectOnly: true, logger: { warn: (t) => logged.push(t) } });
    try {
      const res = await send(server.port, [head('GET', '/a%E2%80%AEb', [['X-Name', Buffer.from([0xed, 0xa0, 0x80])]])]);
      assert.equal(res.status, 200);
      const body = await send(server.port, [post('text/plain', Buffer.from([0x61, 0xff, 0x62]))]);
      assert.equal(body.status, 200);
      assert.deepEqual(server.findings.map((f) => [f.part, f.kind]), [['path', 'disallowed'], ['body', 'invalid_byte']]);
      assert.deepEqual(logged, [
        'utf8guard: request path: disallowed bidi U+202E at byte 2 (E2 80 AE 62)',
        'utf8guard: request body: invalid_byte at byte 1 (FF 62) [windows1252 U+00FF]',
      ]);
    } finally {
      await server.close();
    }
  });
}

module.exports = { suite, contentTypes, multipart, detectOnly, PARTS };
