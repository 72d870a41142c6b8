// Streams: a Validator fed in chunks split anywhere answers what the
// one-shot call answers (the finding's message included), in raw and
// percent form; CheckStream passes clean text through and stops at the
// first finding.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Readable, Writable } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const fc = require('fast-check');
const ug = require('..');
const { vectors, multilingual, percentAll } = require('./support');

function streamed(chunks, options) {
  const v = new ug.Validator(options);
  let early = null;
  for (const c of chunks) {
    const f = v.feed(c);
    if (early === null && f !== null) early = f;
  }
  const f = v.finish();
  if (early !== null) assert.deepEqual(f, early, 'finish repeats the handed-out finding');
  return f;
}

function oneShot(b, options) {
  const { policy, form } = options;
  return form === 'percent' ? ug.validatePercent(b, policy) : ug.validate(b, policy);
}

// Every cut into two chunks, every cut into three around the finding, and
// 1-byte chunks.
function checkSplits(b, options, label) {
  const want = oneShot(b, options);
  for (let i = 0; i <= b.length; i++) {
    assert.deepEqual(streamed([b.subarray(0, i), b.subarray(i)], options), want, `${label} cut ${i}`);
  }
  const at = want === null ? 0 : want.offset;
  for (let i = Math.max(0, at - 4); i <= Math.min(b.length, at + 8); i++) {
    for (let j = i; j <= Math.min(b.length, at + 12); j++) {
      assert.deepEqual(streamed([b.subarray(0, i), b.subarray(i, j), b.subarray(j)], options), want,
        `${label} cuts ${i} ${j}`);
    }
  }
  assert.deepEqual(streamed([...b].map((x) => Buffer.from([x])), options), want, `${label} bytes`);
}

const inputs = () => [
  ...vectors().map((v) => [v.id, Buffer.concat([Buffer.from('prefix text '), v.bytes, Buffer.from(' and after it')])]),
  ...multilingual().map((line, i) => [`multilingual ${i}`, Buffer.from(line.slice(0, 60))]),
];

test('a raw stream split anywhere equals one-shot, under strict and field', () => {
  for (const [id, b] of inputs()) {
    checkSplits(b, { policy: undefined, form: 'raw' }, id);
    checkSplits(b, { policy: 'field', form: 'raw' }, `${id} field`);
  }
});

test('a percent-encoded stream split anywhere equals one-shot', () => {
  for (const [id, b] of inputs()) {
    const encoded = Buffer.from(`/path?q=${percentAll(b.subarray(0, 40))}&r=1`);
    checkSplits(encoded, { policy: 'url', form: 'percent' }, id);
  }
});

test('random inputs and chunkings agree with one-shot', () => {
  const bytes = fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a));
  fc.assert(fc.property(bytes, fc.array(fc.nat(200), { maxLength: 6 }), fc.constantFrom('strict', 'field', 'source'),
    (b, cuts, policy) => {
      const at = [...new Set(cuts.map((c) => c % (b.length + 1)))].sort((x, y) => x - y);
      const chunks = [];
      let from = 0;
      for (const c of at) {
        chunks.push(b.subarray(from, c));
        from = c;
      }
      chunks.push(b.subarray(from));
      assert.deepEqual(streamed(chunks, { policy }), ug.validate(b, policy));
    }), { numRuns: 2000, seed: 7 });
});

test('Validator state: pending, position, reset', () => {
  const v = new ug.Validator({ policy: 'strict' });
  assert.equal(v.feed(Buffer.from('ab')), null);
  assert.equal(v.feed(Buffer.from([0xc0])), null);
  assert.equal(v.pending, true);
  assert.equal(v.position, 3);
  const f = v.feed(Buffer.from('cdefghij'));
  assert.equal(f.kind, 'overlong');
  assert.equal(f.offset, 2);
  assert.equal(v.pending, false);
  assert.deepEqual(v.finish(), f);
  v.reset();
  assert.equal(v.feed(Buffer.from('é')), null);
  assert.equal(v.finish(), null);
});

async function through(chunks, options) {
  const out = [];
  const sink = new Writable({ write(c, e, cb) { out.push(Buffer.from(c)); cb(); } });
  let error = null;
  try {
    await pipeline(Readable.from(chunks), ug.createCheckStream(options), sink);
  } catch (err) {
    error = err;
  }
  return { out: Buffer.concat(out), error };
}

test('CheckStream passes clean text through unchanged', async () => {
  const text = Buffer.from(multilingual().join('\n'));
  const chunks = [];
  for (let i = 0; i < text.length; i += 97) chunks.push(text.subarray(i, i + 97));
  const { out, error } = await through(chunks);
  assert.equal(error, null);
  assert.deepEqual(out, text);
});

test('CheckStream fails at the first finding and holds that chunk back', async () => {
  const chunks = [Buffer.from('clean '), Buffer.from('more '), Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x62]), Buffer.from('tail')];
  const { out, error } = await through(chunks);
  assert.ok(error instanceof TypeError);
  assert.equal(error.code, 'ERR_ENCODING_INVALID_ENCODED_DATA');
  assert.equal(error.finding.kind, 'surrogate');
  assert.equal(error.finding.offset, 12);
  assert.deepEqual(out, Buffer.from('clean more '));
  const bidi = await through([Buffer.from('name: \u202E')], { policy: 'field' });
  assert.equal(bidi.error.finding.category, 'bidi');
  const cut = await through([Buffer.from('ab'), Buffer.from([0xe2, 0x82])]);
  assert.equal(cut.error.finding.kind, 'incomplete');
});
