// Percent-encoded input: agreement with decodeURIComponent where it is
// defined, and the percent-encoded attack vectors' verdicts.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fc = require('fast-check');
const ug = require('..');
const { vectors, percentVectors, percentAll } = require('./support');

const encoder = new TextEncoder();

// Text of escapes (any byte, either case), bad escapes and plain ASCII.
const unit = fc.oneof(
  fc.integer({ min: 0, max: 255 }).map((x) => `%${x.toString(16).padStart(2, '0')}`),
  fc.integer({ min: 0x80, max: 0xff }).map((x) => `%${x.toString(16).toUpperCase()}`),
  fc.constantFrom('%', '%4', '%zz', '%%', '+', '/', '?', '=', '&'),
  fc.string({ maxLength: 3 }).filter((s) => /^[\x20-\x7e]*$/.test(s) && !s.includes('%')),
  fc.string({ unit: 'binary', maxLength: 2 }).map((s) => encodeURIComponent(s)),
);
const encoded = fc.array(unit, { maxLength: 20 }).map((u) => u.join(''));

test('where decodeURIComponent is defined, validatePercent accepts and percentDecode agrees', () => {
  fc.assert(fc.property(encoded, (s) => {
    let decoded;
    try {
      decoded = decodeURIComponent(s);
    } catch {
      // Undefined: a bad escape, or escapes that are not UTF-8. With every
      // '%' a whole escape, only the second, which utf8guard refuses too.
      if (!/%(?![0-9a-fA-F]{2})/.test(s)) assert.equal(ug.isValidPercent(Buffer.from(s)), false, s);
      return;
    }
    const b = Buffer.from(s);
    assert.equal(ug.isValidPercent(b), true, s);
    assert.equal(ug.validatePercent(b), null, s);
    assert.deepEqual(ug.percentDecode(b), Buffer.from(encoder.encode(decoded)), s);
  }), { numRuns: 4000, seed: 60 });
});

test('every row of percent.tsv', () => {
  for (const r of percentVectors()) {
    const f = ug.validatePercent(Buffer.from(r.encoded), r.profile);
    if (r.kind === 'none') {
      assert.equal(f, null, r.id);
      continue;
    }
    assert.equal(f.kind, r.kind, r.id);
    assert.equal(f.category, r.category === 'none' ? null : r.category, r.id);
    assert.deepEqual([f.offset, f.length, f.decodedOffset, f.decodedLength],
      [r.offset, r.length, r.decoded_offset, r.decoded_length], r.id);
    if (r.code_point !== '-') assert.equal(f.codePoint, parseInt(r.code_point.slice(2), 16), r.id);
  }
});

test('every row of vectors.tsv, percent-encoded, gives the raw verdict in decoded offsets', () => {
  for (const v of vectors()) {
    const f = ug.validatePercent(Buffer.from(percentAll(v.bytes)));
    if (v.kind === 'none') {
      assert.equal(f, null, v.id);
      continue;
    }
    assert.deepEqual([f.kind, f.decodedOffset, f.decodedLength, f.offset, f.length],
      [v.kind, v.offset, v.length, 3 * v.offset, 3 * v.length], v.id);
    assert.deepEqual(ug.percentDecode(Buffer.from(percentAll(v.bytes))), v.bytes, v.id);
  }
});

test('percent findings describe the decoded bytes', () => {
  const f = ug.validatePercent(Buffer.from('/scripts/..%c0%af../winnt'));
  assert.equal(f.message, 'overlong at byte 11 (C0 AF 2E 2E) [overlong_form U+002F]');
  assert.equal(ug.describe(Buffer.from('/scripts/..%c0%af../winnt'), f, { form: 'percent' }), f.message);
});
