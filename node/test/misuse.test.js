// Misuse: wrong types, detached buffers, a stream used after finish(),
// options that are no rule.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const ug = require('..');

test('Validator: feed after finish is refused until reset', () => {
  const v = new ug.Validator();
  v.feed(Buffer.from('abc'));
  assert.equal(v.finish(), null);
  assert.equal(v.finished, true);
  assert.throws(() => v.feed(Buffer.from('d')), { code: 'ERR_INVALID_STATE' });
  assert.equal(v.finish(), null, 'a second finish repeats the first');
  v.reset();
  assert.equal(v.feed(Buffer.from([0xff])), null, 'the bytes its message shows are still awaited');
  assert.equal(v.pending, true);
  assert.equal(v.finish().kind, 'invalid_byte');
});

test('Validator: wrong chunks and options are TypeErrors, and leave it usable', () => {
  const v = new ug.Validator('field');
  for (const bad of [undefined, 'text', 7, {}, [0x61]]) {
    assert.throws(() => v.feed(bad), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' });
  }
  const ab = new ArrayBuffer(4);
  const view = new Uint8Array(ab);
  structuredClone(ab, { transfer: [ab] });
  assert.throws(() => v.feed(view), { name: 'TypeError', code: 'ERR_INVALID_STATE' });
  assert.throws(() => v.feed(ab), { name: 'TypeError', code: 'ERR_INVALID_STATE' });
  assert.equal(v.feed(Buffer.from('ok')), null);
  assert.equal(v.position, 2);
  assert.throws(() => new ug.Validator({ form: 'base64' }), { code: 'ERR_INVALID_ARG_VALUE' });
  assert.throws(() => new ug.Validator({ policy: 'nope' }), { code: 'ERR_INVALID_ARG_VALUE' });
  assert.throws(() => new ug.Validator(true), { code: 'ERR_INVALID_ARG_TYPE' });
});

test('a detached buffer is refused by every call', () => {
  const ab = new ArrayBuffer(16);
  const views = [new Uint8Array(ab), Buffer.from(ab), new DataView(ab), ab];
  structuredClone(ab, { transfer: [ab] });
  for (const input of views.slice(0, 2).concat([ab])) {
    for (const fn of [ug.isValid, ug.validate, ug.sanitize, ug.decode, ug.isValidPercent, ug.validatePercent, ug.percentDecode]) {
      assert.throws(() => fn(input), { name: 'TypeError' }, fn.name);
    }
  }
});

test('the middleware refuses options that are no rule', () => {
  assert.throws(() => ug.express({ headers: 'field,nonsense' }), { code: 'ERR_INVALID_ARG_VALUE', message: /headers/ });
  assert.throws(() => ug.express({ form: 7 }), { code: 'ERR_INVALID_ARG_TYPE' });
  assert.throws(() => ug.http('not a function'), { code: 'ERR_INVALID_ARG_TYPE' });
  assert.doesNotThrow(() => ug.express({ target: 'off', other: 'strict', text: 'source,-control' }));
});
