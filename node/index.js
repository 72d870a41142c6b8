// utf8guard for Node.js: strict UTF-8 validation with positions, policies,
// hints, percent-encoded input, streams, and request middleware. Every answer
// comes from the C library through the addon (src/); this file gives the
// calls their JavaScript form: policies by name, findings as plain objects,
// errors as TypeErrors.
'use strict';

const { Transform } = require('node:stream');
const native = require('./lib/native');
const { policyBits } = require('./lib/policy');
const middleware = require('./lib/middleware');

const FORMS = { raw: 0, percent: 1, json: 2 };

function formOf(form) {
  if (form === undefined) return FORMS.raw;
  const f = FORMS[form];
  if (f === undefined || typeof form !== 'string') {
    const err = new TypeError(`The form must be 'raw', 'percent' or 'json'; got ${String(form)}`);
    err.code = 'ERR_INVALID_ARG_VALUE';
    throw err;
  }
  return f;
}

// An options argument is a policy (text or bits) or {policy, form}.
function optionsOf(options) {
  if (options === undefined || options === null) return { policy: 0, form: FORMS.raw };
  if (typeof options === 'string' || typeof options === 'number') {
    return { policy: policyBits(options), form: FORMS.raw };
  }
  if (typeof options !== 'object') {
    const err = new TypeError('The options must be a policy or an object');
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  return { policy: policyBits(options.policy), form: formOf(options.form) };
}

/** An error that carries a finding, as TextDecoder's fatal mode throws. */
class InvalidTextError extends TypeError {
  constructor(finding) {
    super(`The encoded data was not valid for encoding utf-8: ${finding.message}`);
    this.name = 'TypeError';
    this.code = 'ERR_ENCODING_INVALID_ENCODED_DATA';
    this.finding = finding;
  }
}

function isValid(input, policy) {
  return policy === undefined ? native.isValid(input) : native.isValidPolicy(input, policyBits(policy));
}

// The one-shot calls over (input, policy): the addon's, given the policy's
// bits. Each keeps its name.
function withPolicy(name) {
  const call = native[name];
  const fn = function (input, policy) {
    return call(input, policyBits(policy));
  };
  return Object.defineProperty(fn, 'name', { value: name });
}

const validate = withPolicy('validate');
const sanitize = withPolicy('sanitize');
const isValidPercent = withPolicy('isValidPercent');
const validatePercent = withPolicy('validatePercent');
const isValidJson = withPolicy('isValidJson');
const validateJson = withPolicy('validateJson');
const sanitizeJson = withPolicy('sanitizeJson');

function percentDecode(input) {
  return native.percentDecode(input);
}

// A view of the input's bytes as a Buffer (no copy).
function bufferOf(input) {
  if (Buffer.isBuffer(input)) return input;
  if (ArrayBuffer.isView(input)) return Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer) return Buffer.from(input);
  native.isValid(input); // throws the TypeError of a wrong input
  return input;
}

function decode(input, policy) {
  const finding = validate(input, policy);
  if (finding !== null) throw new InvalidTextError(finding);
  return bufferOf(input).toString('utf8');
}

const KINDS = new Map(native.errorNames.map((name, i) => [name, i]));
const CATEGORIES = new Map(native.categoryNames.map((name, i) => [name, 1 << i]));

function describe(input, finding, options) {
  const form = formOf(options && options.form);
  if (finding === null || typeof finding !== 'object') {
    const err = new TypeError('The finding must be an object');
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  const kind = KINDS.get(finding.kind);
  if (kind === undefined) {
    const err = new TypeError(`Unknown kind ${String(finding.kind)}`);
    err.code = 'ERR_INVALID_ARG_VALUE';
    throw err;
  }
  const category = finding.category == null ? 0 : CATEGORIES.get(finding.category);
  if (category === undefined) {
    const err = new TypeError(`Unknown category ${String(finding.category)}`);
    err.code = 'ERR_INVALID_ARG_VALUE';
    throw err;
  }
  return native.describe(input, form, kind, finding.offset, finding.length, category,
    finding.codePoint == null ? 0 : finding.codePoint,
    finding.decodedOffset == null ? 0 : finding.decodedOffset,
    finding.decodedLength == null ? 0 : finding.decodedLength);
}

function truncate(input, max, options) {
  return native.truncate(input, max, Boolean(options && options.keepIllFormed));
}

function invalidState(message) {
  const err = new Error(message);
  err.code = 'ERR_INVALID_STATE';
  return err;
}

/**
 * Validator checks a stream fed in chunks, in constant memory, split
 * anywhere. The first finding is handed out once the bytes its message shows
 * have arrived (or by finish()), so that it equals the one-shot finding.
 */
class Validator {
  #stream;
  #finding = null;
  #finished = false;

  constructor(options) {
    const { policy, form } = optionsOf(options);
    this.#stream = new native.NativeStream(policy, form, false);
  }

  /** Checks the next chunk; returns the first finding once it is ready. */
  feed(chunk) {
    if (this.#finished) throw invalidState('Validator.feed() after finish(); call reset() first');
    if (this.#finding === null) this.#finding = this.#stream.feed(chunk);
    else native.isValid(chunk); // the same TypeError for a wrong chunk
    return this.#finding;
  }

  /** Ends the input: the first finding ("incomplete" included), or null. */
  finish() {
    if (!this.#finished) {
      this.#finished = true;
      if (this.#finding === null) this.#finding = this.#stream.finish();
    }
    return this.#finding;
  }

  /** Starts a new input under the same policy and form. */
  reset() {
    this.#stream.reset();
    this.#finding = null;
    this.#finished = false;
    return this;
  }

  /** The first finding handed out so far, or null. */
  get finding() { return this.#finding; }
  /** A finding is known and waits for the bytes its message shows. */
  get pending() { return this.#finding === null && this.#stream.pending; }
  /** Bytes fed so far. */
  get position() { return this.#stream.position; }
  get finished() { return this.#finished; }
}

/**
 * CheckStream passes its chunks through unchanged and fails with an
 * InvalidTextError at the first finding; the chunk that holds it and every
 * later one are held back.
 */
class CheckStream extends Transform {
  #validator;
  #holding = false;

  constructor(options = {}) {
    const { policy, form, ...rest } = options;
    super(rest);
    this.#validator = new Validator({ policy, form });
  }

  _transform(chunk, encoding, callback) {
    let finding;
    try {
      finding = this.#validator.feed(chunk);
    } catch (err) {
      callback(err);
      return;
    }
    if (finding !== null) {
      callback(new InvalidTextError(finding));
      return;
    }
    if (this.#holding || this.#validator.pending) {
      this.#holding = true;
      callback();
      return;
    }
    callback(null, chunk);
  }

  _flush(callback) {
    const finding = this.#validator.finish();
    callback(finding === null ? null : new InvalidTextError(finding));
  }
}

function createCheckStream(options) {
  return new CheckStream(options);
}

function parsePolicy(policy) {
  return policyBits(policy);
}

module.exports = {
  isValid,
  validate,
  sanitize,
  decode,
  isValidPercent,
  validatePercent,
  percentDecode,
  isValidJson,
  validateJson,
  sanitizeJson,
  describe,
  truncate,
  parsePolicy,
  Validator,
  CheckStream,
  createCheckStream,
  InvalidTextError,
  activeKernel: native.activeKernel,
  version: native.version,
  categories: Object.freeze([...native.categoryNames]),
  profiles: Object.freeze([...native.profileNames]),
  Guard: middleware.Guard,
  http: middleware.http,
  express: middleware.express,
  fastify: middleware.fastify,
};
