// The JSON form: escapes decoded, a lone surrogate escape refused, against
// what JSON.stringify writes and JSON.parse reads; streams split anywhere.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fc = require('fast-check');
const ug = require('..');

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (s) => !LONE.test(s);
const toWellFormed = (s) => s.replace(new RegExp(LONE, 'g'), '\uFFFD');

// Strings rich in surrogates, paired and not, and in characters JSON escapes.
const unit = fc.oneof(
  fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uD83D', '\uDE00', '"', '\\', '\n', '\u0000', '\u202E'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const text = fc.string({ unit, maxLength: 16 });
const RUNS = { numRuns: 3000, seed: 3 };

test('isValidJson(JSON.stringify(s)) is whether s is well-formed', () => {
  fc.assert(fc.property(text, (s) => {
    const json = Buffer.from(JSON.stringify({ s }));
    assert.equal(ug.isValidJson(json), wellFormed(s), JSON.stringify(s));
    assert.equal(ug.validateJson(json) === null, wellFormed(s));
  }), RUNS);
});

test('JSON.parse(sanitizeJson(JSON.stringify(s))) is s made well-formed', () => {
  fc.assert(fc.property(text, (s) => {
    const out = ug.sanitizeJson(Buffer.from(JSON.stringify([s])));
    assert.deepEqual(JSON.parse(out.toString()), [toWellFormed(s)]);
    assert.equal(ug.isValidJson(out), true);
  }), RUNS);
});

test('escaped characters are held to the policy', () => {
  const f = ug.validateJson(Buffer.from('{"user":"a\\u202eb"}'), 'field');
  assert.deepEqual([f.kind, f.category, f.codePoint, f.offset, f.length, f.decodedOffset],
    ['disallowed', 'bidi', 0x202e, 10, 6, 10]);
  assert.equal(f.message, ug.describe(Buffer.from('{"user":"a\\u202eb"}'), f, { form: 'json' }));
  assert.equal(ug.validateJson(Buffer.from('"\\ud83d\\ude00"')), null);
  assert.equal(ug.validateJson(Buffer.from('"\\ud83d\\u0041"')).kind, 'surrogate');
  assert.equal(ug.validateJson(Buffer.from('"\\x"'), 'url').category, 'bad_escape');
  assert.equal(ug.validateJson(Buffer.from([0x22, 0xc0, 0xaf, 0x22])).kind, 'overlong');
});

function streamed(b, cuts, policy) {
  const v = new ug.Validator({ policy, form: 'json' });
  let from = 0;
  for (const c of [...cuts, b.length]) {
    v.feed(b.subarray(from, c));
    from = c;
  }
  return v.finish();
}

test('a JSON stream split anywhere equals one-shot', () => {
  const inputs = [
    '{"a":"x\\ud800y","b":"\\u202e"}',
    '{"pad":"' + 'p'.repeat(60) + '","bad":"\\udc00\\ud83d\\ude00 and more text after it"}',
    '["ok \\ud83d\\ude00", "\\ud83d', '"\\u00e9\\u0000"',
  ].map((s) => Buffer.from(s));
  inputs.push(Buffer.concat([Buffer.from('{"t":"'), Buffer.from([0xe2, 0x82]), Buffer.from('"}')]));
  for (const b of inputs) {
    for (const policy of ['strict', 'field']) {
      const want = ug.validateJson(b, policy);
      for (let i = 0; i <= b.length; i++) {
        assert.deepEqual(streamed(b, [i], policy), want, `${b} cut ${i}`);
        for (let j = i; j <= Math.min(b.length, i + 13); j++) {
          assert.deepEqual(streamed(b, [i, j], policy), want, `${b} cuts ${i} ${j}`);
        }
      }
    }
  }
  fc.assert(fc.property(text, fc.array(fc.nat(64), { maxLength: 5 }), (s, cuts) => {
    const b = Buffer.from(JSON.stringify({ s }));
    const at = [...new Set(cuts.map((c) => c % (b.length + 1)))].sort((x, y) => x - y);
    assert.deepEqual(streamed(b, at, 'field'), ug.validateJson(b, 'field'));
  }), { numRuns: 1000, seed: 5 });
});
