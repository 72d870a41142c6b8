// The one-shot API against Node's own decoder (TextDecoder), the attack
// vectors' verdicts and the library's contract: isValid, validate, sanitize,
// decode, describe, policies, input types.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fc = require('fast-check');
const ug = require('..');
const { vectors } = require('./support');

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

function accepts(b) {
  try {
    fatal.decode(b);
    return true;
  } catch {
    return false;
  }
}

// Bytes with UTF-8's structure: whole characters, cut ones, and any byte.
const piece = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 4 }).map((s) => Buffer.from(s)),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).chain((s) => {
    const b = Buffer.from(s);
    return fc.integer({ min: 0, max: b.length }).map((n) => b.subarray(0, n));
  }),
  fc.constantFrom(...[0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff]
    .map((x) => Buffer.from([x]))),
  fc.uint8Array({ maxLength: 3 }).map((a) => Buffer.from(a)),
);
const bytes = fc.array(piece, { maxLength: 24 }).map((parts) => Buffer.concat(parts));
const RUNS = { numRuns: 3000, seed: 20261202 };

test('isValid(b) is what TextDecoder fatal accepts', () => {
  fc.assert(fc.property(bytes, (b) => ug.isValid(b) === accepts(b)), RUNS);
});

test('isValid agrees with TextDecoder on every 1- and 2-byte input and 3-byte leads', () => {
  const b = Buffer.alloc(3);
  for (let x = 0; x < 256; x++) {
    b[0] = x;
    assert.equal(ug.isValid(b.subarray(0, 1)), accepts(b.subarray(0, 1)));
    for (let y = 0; y < 256; y++) {
      b[1] = y;
      assert.equal(ug.isValid(b.subarray(0, 2)), accepts(b.subarray(0, 2)), `${x} ${y}`);
      if (x >= 0xe0) {
        b[2] = 0x80;
        assert.equal(ug.isValid(b), accepts(b), `${x} ${y} 80`);
      }
    }
  }
});

test('validate is null exactly when isValid, and its finding is where TextDecoder stops', () => {
  fc.assert(fc.property(bytes, (b) => {
    const f = ug.validate(b);
    if (accepts(b)) return f === null;
    // The prefix before the finding decodes; the finding's bytes do not.
    return f !== null && accepts(b.subarray(0, f.offset)) && !accepts(b.subarray(0, f.offset + f.length)) ||
      (f.kind === 'incomplete' && f.offset + f.length === b.length);
  }), RUNS);
});

test('sanitize(b) equals Buffer.from(TextDecoder with ignoreBOM)', () => {
  fc.assert(fc.property(bytes, (b) => ug.sanitize(b).equals(Buffer.from(lenient.decode(b)))), RUNS);
});

test('decode(b) equals TextDecoder fatal, and throws a TypeError with the finding', () => {
  fc.assert(fc.property(bytes, (b) => {
    let want;
    try {
      want = fatal.decode(b);
    } catch {
      assert.throws(() => ug.decode(b), (err) => err instanceof TypeError &&
        err.code === 'ERR_ENCODING_INVALID_ENCODED_DATA' && err.finding.kind !== undefined &&
        err.message.endsWith(err.finding.message));
      return true;
    }
    return ug.decode(b) === want;
  }), RUNS);
});

test('every attack vector: kind, offset, length and sanitized bytes', () => {
  for (const v of vectors()) {
    const f = ug.validate(v.bytes);
    if (v.kind === 'none') {
      assert.equal(f, null, v.id);
      assert.equal(ug.isValid(v.bytes), true, v.id);
    } else {
      assert.deepEqual([f.kind, f.offset, f.length], [v.kind, v.offset, v.length], v.id);
      assert.equal(ug.isValid(v.bytes), false, v.id);
    }
    assert.deepEqual(ug.sanitize(v.bytes), v.sanitized, v.id);
    assert.equal(accepts(v.bytes), v.kind === 'none', v.id);
  }
});

test('a finding is a plain object with the documented fields', () => {
  const f = ug.validate(Buffer.from([0x61, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]));
  assert.deepEqual(f, {
    kind: 'surrogate', offset: 1, length: 1, category: null, codePoint: null,
    hint: 'cesu8_pair', hintValue: 0x1f600,
    message: 'surrogate at byte 1 (ED A0 BD ED) [cesu8_pair U+1F600]',
  });
  assert.equal(Object.getPrototypeOf(f), Object.prototype);
  const d = ug.validate(Buffer.from('user\u202Ename'), 'field');
  assert.deepEqual(d, {
    kind: 'disallowed', offset: 4, length: 3, category: 'bidi', codePoint: 0x202e,
    hint: null, hintValue: null, message: 'disallowed bidi U+202E at byte 4 (E2 80 AE 6E)',
  });
  assert.equal(ug.describe(Buffer.from('user\u202Ename'), d), d.message);
});

test('policies by name, by text and by bits', () => {
  const b = Buffer.from('a\nb');
  assert.equal(ug.isValid(b), true);
  assert.equal(ug.isValid(b, 'field'), false);
  assert.equal(ug.isValid(b, 'field,-newline'), true);
  assert.equal(ug.isValid(b, 'newline'), false);
  assert.equal(ug.isValid(b, ug.parsePolicy('newline')), false);
  assert.equal(ug.validate(b, 'field').category, 'newline');
  assert.equal(ug.parsePolicy('strict'), 0);
  assert.deepEqual(ug.sanitize(b, 'newline'), Buffer.from('a\uFFFDb'));
  assert.throws(() => ug.isValid(b, 'field,bogus'), { name: 'TypeError', code: 'ERR_INVALID_ARG_VALUE', message: /"bogus"/ });
  assert.throws(() => ug.isValid(b, 1 << 20), { code: 'ERR_INVALID_ARG_VALUE' });
  assert.throws(() => ug.isValid(b, {}), { code: 'ERR_INVALID_ARG_TYPE' });
  assert.deepEqual(ug.profiles, ['strict', 'source', 'field', 'json', 'url']);
  assert.ok(ug.categories.includes('bidi'));
});

test('every input type views the same bytes, with no copy', () => {
  const bytes = Buffer.from([0x20, 0x20, 0x61, 0xc3, 0xa9, 0xe2, 0x82, 0x20]);
  const ab = new ArrayBuffer(8);
  new Uint8Array(ab).set(bytes);
  const inputs = [
    Buffer.from(ab, 2), new Uint8Array(ab, 2), new DataView(ab, 2), ab.slice(2),
    new Uint8ClampedArray(ab, 2), new Int8Array(ab, 2), new Uint16Array(ab, 2, 3),
  ];
  for (const input of inputs) {
    assert.deepEqual(ug.validate(input), ug.validate(bytes.subarray(2)), input.constructor.name);
  }
  // The addon reads the memory in place: a change shows at once.
  const view = new Uint8Array(ab, 2);
  assert.equal(ug.isValid(view), false);
  view[3] = 0x61;
  view[4] = 0x62;
  assert.equal(ug.isValid(view), true);
  assert.equal(ug.decode(new DataView(ab, 2)), 'aéab ');
});

test('wrong types and detached buffers are TypeErrors', () => {
  for (const bad of [undefined, null, 'text', 42, {}, [1, 2], new SharedArrayBuffer(4)]) {
    assert.throws(() => ug.isValid(bad), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }, String(bad));
    assert.throws(() => ug.validate(bad), TypeError);
    assert.throws(() => ug.sanitize(bad), TypeError);
    assert.throws(() => ug.decode(bad), TypeError);
    assert.throws(() => ug.validatePercent(bad), TypeError);
  }
  const ab = new ArrayBuffer(8);
  const view = new Uint8Array(ab);
  structuredClone(ab, { transfer: [ab] });
  assert.equal(ab.byteLength, 0);
  for (const input of [ab, view, new DataView(new ArrayBuffer(0))]) {
    if (input.byteLength === 0 && !(input instanceof DataView)) {
      assert.throws(() => ug.isValid(input), { name: 'TypeError', code: 'ERR_INVALID_STATE' });
    }
  }
  assert.equal(ug.isValid(new DataView(new ArrayBuffer(0))), true);
  assert.equal(ug.isValid(Buffer.alloc(0)), true);
});

test('describe and truncate', () => {
  const b = Buffer.from([0x61, 0x62, 0xc0, 0xaf, 0x63]);
  const f = ug.validate(b);
  assert.equal(ug.describe(b, f), 'overlong at byte 2 (C0 AF 63) [overlong_form U+002F]');
  assert.throws(() => ug.describe(b, { kind: 'bogus' }), TypeError);
  assert.equal(ug.truncate(Buffer.from('aé'), 2), 1);
  assert.equal(ug.truncate(Buffer.from('aé'), 3), 3);
  assert.equal(typeof ug.activeKernel(), 'string');
  assert.match(ug.version, /^\d+\.\d+\.\d+/);
});
