// middleware.js - request checks for node:http, Express and Fastify, through
// the request rule core the nginx module and the Python package share
// (nginx/src/request_check.c, compiled into the addon): which part gets
// which rule, what a Content-Type selects, the text of a finding.
//
// The head (path and query apart, percent-decoded; each header name and
// value) is checked before the application runs. The body is checked as it
// streams, by content type (forms percent-decoded, JSON as JSON text with its
// escapes decoded, text raw, multipart part by part): the
// guard sits where Node's parser pushes the body's chunks into the request,
// so the application never reads the chunk that holds a finding. A rejected
// request gets 400 with an RFC 9457 problem document (application/
// problem+json) whose text shows the bytes only as hex, and the connection
// closes. In detect-only mode the guard emits 'finding' and calls the
// logger instead, and the request goes on.
'use strict';

const { EventEmitter } = require('node:events');
const { IncomingMessage } = require('node:http');
const native = require('./native');

// The parts a rule is given for, in the core's slot order (ug_slot). A
// multipart/form-data body is read part by part, as the nginx module reads
// it: part headers under "headers", text fields under "form" (raw), files
// under "file".
const SLOTS = ['target', 'headers', 'form', 'json', 'text', 'other', 'none', 'file'];

// Whether a guard has seen a request, and the body watcher of the one whose
// body is streaming: symbol-keyed properties of the request's socket, which
// carries one request at a time (a pipelined request's head is parsed after
// the body before it ends). Not of the request: Express swaps a request's
// prototype, so a property added to one makes V8 migrate it to a map of its
// own, request after request, which costs more than the whole check; a
// socket takes the properties once per connection. (A WeakSet and a WeakMap
// cost more too: every scavenge walks their entries.) The socket holds its
// last request until its next one or its end.
const kAdmitted = Symbol('utf8guard.admitted');
const kWatch = Symbol('utf8guard.watch');

// Where a request's state is kept: its socket, or the request itself if it
// has none.
function holderOf(req) {
  const socket = req.socket;
  return socket === null || socket === undefined ? req : socket;
}

// Node's parser hands each chunk of a body to the request's push(): a
// watched request's chunks go through its watcher first. Installed once.
let pushPatched = false;
function patchPush() {
  if (pushPatched) return;
  pushPatched = true;
  const push = IncomingMessage.prototype.push;
  IncomingMessage.prototype.push = function pushChecked(chunk, encoding) {
    const watch = holderOf(this)[kWatch];
    return watch === undefined || watch.req !== this ? push.call(this, chunk, encoding)
      : watch.push(this, push, chunk, encoding);
  };
}

// The problem document's "type", as the Python package's: text the policy
// refuses, or a request whose shape the guard refuses (Content-Type,
// Content-Encoding, a header name).
const PROBLEM_TYPE = 'urn:utf8guard:problem:unacceptable-text';
const SHAPE_TYPE = 'urn:utf8guard:problem:unreadable-request';

function problem(finding) {
  const where = finding.header !== undefined ? `header ${finding.header}`
    : finding.kind === 'multipart' ? finding.label : finding.part;
  const f = { kind: finding.kind };
  if (finding.offset !== null) {
    f.offset = finding.offset;
    f.length = finding.length;
  }
  if (finding.category !== null) {
    f.category = finding.category;
    f.code_point = `U+${finding.codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  if (finding.hint !== null) {
    f.hint = finding.hint;
    if (finding.hintValue !== null) {
      f.hint_value = `U+${finding.hintValue.toString(16).toUpperCase().padStart(4, '0')}`;
    }
  }
  if (finding.decodedOffset !== undefined) {
    f.decoded_offset = finding.decodedOffset;
    f.decoded_length = finding.decodedLength;
  }
  f.message = finding.message;
  const doc = {
    type: finding.kind === 'request_shape' ? SHAPE_TYPE : PROBLEM_TYPE,
    title: 'Unacceptable text in request',
    status: 400,
    detail: `the request's ${where} is not acceptable text: ${finding.message}`,
    part: finding.part,
    finding: f,
  };
  if (finding.header !== undefined) doc.header = finding.header;
  // ASCII only, whatever a field holds: anything else as \uXXXX.
  return JSON.stringify(doc).replace(/[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Guard holds the rules of one middleware and what to do with a finding.
 * Options: target, headers, form, json, text, other, none: 'off' or a
 * policy's text ("field,-newline"), each defaulting to the core's rule;
 * textCharset: 'utf-8' (default: text bodies are UTF-8 whatever they
 * declare) or 'declared' (a text body declaring another charset takes the
 * "other" rule); contentEncoding: 'refuse' (default: a coded body cannot be
 * checked) or 'pass' (let it on unchecked); detectOnly; logger (a function
 * or an object with warn()).
 */
class Guard extends EventEmitter {
  #pool = [];

  constructor(options = {}) {
    super();
    const specs = SLOTS.map((name) => {
      const v = options[name];
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'string') {
        const err = new TypeError(`The ${name} rule must be 'off' or a policy's text`);
        err.code = 'ERR_INVALID_ARG_TYPE';
        throw err;
      }
      return v;
    });
    const textCharset = options.textCharset === undefined ? 'utf-8' : options.textCharset;
    const contentEncoding = options.contentEncoding === undefined ? 'refuse' : options.contentEncoding;
    if (textCharset !== 'utf-8' && textCharset !== 'declared') {
      const err = new TypeError("The textCharset option must be 'utf-8' or 'declared'");
      err.code = 'ERR_INVALID_ARG_VALUE';
      throw err;
    }
    if (contentEncoding !== 'refuse' && contentEncoding !== 'pass') {
      const err = new TypeError("The contentEncoding option must be 'refuse' or 'pass'");
      err.code = 'ERR_INVALID_ARG_VALUE';
      throw err;
    }
    const rules = native.makeRules(specs, textCharset === 'declared', contentEncoding === 'pass');
    if (typeof rules === 'object' && rules !== null && 'slot' in rules) {
      const text = specs[rules.slot];
      const err = new TypeError(`The ${SLOTS[rules.slot]} rule ${JSON.stringify(text)} is neither 'off' ` +
        `nor a policy: ${JSON.stringify(text.slice(rules.offset, rules.offset + rules.length))} at ${rules.offset}`);
      err.code = 'ERR_INVALID_ARG_VALUE';
      throw err;
    }
    this.rules = rules;
    this.detectOnly = Boolean(options.detectOnly);
    const logger = options.logger;
    this.log = typeof logger === 'function' ? logger
      : logger && typeof logger.warn === 'function' ? (text) => logger.warn(text) : null;
  }

  // A body's check: a NativeStream from the pool, set to the rule's number
  // (policy bits, the form << 16, 1 << 20), or to a multipart
  // body's boundary (a string).
  #acquire(rule) {
    if (typeof rule === 'string') {
      const m = this.#pool.pop() || new native.NativeStream(0, 0, true);
      m.restartMultipart(this.rules, rule);
      return m;
    }
    const policy = rule & 0xffff;
    const form = (rule >> 16) & 0xf;
    const s = this.#pool.pop();
    if (s === undefined) return new native.NativeStream(policy, form, true);
    s.restart(policy, form);
    return s;
  }

  // Reports a finding: true when the request must be refused.
  refuse(finding, req) {
    this.emit('finding', finding, req);
    if (this.detectOnly) {
      if (this.log) this.log(`utf8guard: request ${finding.text}`);
      return false;
    }
    return true;
  }

  /**
   * Checks the head and sets the body's check up. Returns false when the
   * request was refused (the 400 is sent), true when it may go on.
   */
  admit(req, res) {
    const holder = holderOf(req);
    if (holder[kAdmitted] === req) return true;
    holder[kAdmitted] = req;
    let answer = native.checkRequest(this.rules, req.url, false, ...req.rawHeaders);
    while (typeof answer === 'object') {
      // A finding: in the head (then the body's rule is asked again, past
      // the head), or of the request's shape (it carries the body's rule).
      const finding = answer;
      const shape = finding.kind === 'request_shape';
      answer = shape ? finding.bodyRule : null;
      delete finding.bodyRule;
      if (this.refuse(finding, req)) {
        reject(req, res, finding, false);
        return false;
      }
      if (!shape) answer = native.checkRequest(this.rules, req.url, true, ...req.rawHeaders);
    }
    // A body that had all arrived before the guard was called gets no
    // watcher: none of its chunks is still to come, and a watcher would take
    // the socket's place of the next request's, whose body may be streaming
    // (a pipelined request is parsed as soon as the one before is whole).
    if (answer !== 0 && answer !== undefined && !req.complete) {
      this.#watchBody(req, res, this.#acquire(answer));
    }
    return true;
  }

  // Checks each chunk Node's parser pushes into the request before it is
  // queued; a finding stops the body there.
  #watchBody(req, res, stream) {
    patchPush();
    // The watcher leaves the socket at the body's end.
    holderOf(req)[kWatch] = new BodyWatch(this, this.#pool, req, res, stream);
  }
}

// One request's body check, one object per request. Its stream goes back to
// the guard's pool at the body's end or its finding; the stream of a request
// the client left is collected with it.
class BodyWatch {
  constructor(guard, pool, req, res, check) {
    this.guard = guard;
    this.pool = pool;
    this.req = req;
    this.res = res;
    this.check = check;
    this.stopped = false;
  }

  // The request's push(), through the check.
  push(self, push, chunk, encoding) {
    if (this.stopped) return false;
    const check = this.check;
    if (check === null) return push.call(self, chunk, encoding);
    if (chunk === null) {
      holderOf(self)[kWatch] = undefined;
      const finding = check.finish();
      this.done();
      if (finding !== null && this.found(finding)) return false;
      return push.call(self, chunk, encoding);
    }
    // feedBody: null (clean), true (held back: a finding is known, its
    // bytes are on their way) or the finding.
    const got = check.feedBody(chunk);
    if (got === true) {
      if (!this.guard.detectOnly) return true;
    } else if (got !== null && this.found(got)) {
      return false;
    }
    return push.call(self, chunk, encoding);
  }

  done() {
    if (this.check !== null && this.pool.length < 64) this.pool.push(this.check);
    this.check = null;
  }

  found(finding) {
    finding.part = 'body';
    if (!this.guard.refuse(finding, this.req)) return false;
    this.stopped = true;
    this.done();
    reject(this.req, this.res, finding, true);
    return true;
  }
}

// Sends the 400 and closes the connection once it is written. A body's
// finding arrives while the application may still be waiting for the rest:
// it never gets it, and the connection's end tells it so.
function reject(req, res, finding, inBody) {
  res.on('error', () => {}); // the application may still write after this answer
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  const body = problem(finding);
  res.shouldKeepAlive = false;
  res.writeHead(400, {
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  res.end(body, () => {
    if (inBody || !req.complete) req.socket.destroy();
  });
}

/** http(listener, options): a node:http request listener that checks first. */
function http(listener, options) {
  if (typeof listener !== 'function') {
    const err = new TypeError('The listener must be a function');
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  const guard = options instanceof Guard ? options : new Guard(options);
  const wrapped = function utf8guardListener(req, res) {
    if (guard.admit(req, res)) return listener.call(this, req, res);
    return undefined;
  };
  wrapped.guard = guard;
  return wrapped;
}

/** express(options): Express middleware; use it first (app.use). */
function express(options) {
  const guard = options instanceof Guard ? options : new Guard(options);
  const mw = function utf8guard(req, res, next) {
    if (guard.admit(req, res)) next();
  };
  mw.guard = guard;
  return mw;
}

/** fastify: a Fastify plugin (fastify.register(fastify, options)). */
function fastify(instance, options, done) {
  const { prefix, logLevel, ...rest } = options || {};
  void prefix;
  void logLevel;
  const guard = rest.guard instanceof Guard ? rest.guard : new Guard(rest);
  instance.decorate('utf8guard', guard);
  instance.addHook('onRequest', (request, reply, next) => {
    if (guard.admit(request.raw, reply.raw)) next();
    else reply.hijack();
  });
  done();
}
/**
 * fastify.frameworkErrors(options or guard): Fastify's frameworkErrors
 * option. Fastify's router refuses a path whose escapes are not UTF-8
 * (FST_ERR_BAD_URL) before any hook runs; with this the guard answers it, as
 * it answers every other part.
 */
fastify.frameworkErrors = function frameworkErrors(options) {
  const guard = options instanceof Guard ? options : new Guard(options);
  return function utf8guardFrameworkErrors(error, request, reply) {
    if (error && error.code === 'FST_ERR_BAD_URL' && !guard.admit(request.raw, reply.raw)) return;
    reply.send(error);
  };
};

// Apply to the whole instance, as fastify-plugin does.
fastify[Symbol.for('skip-override')] = true;
fastify[Symbol.for('fastify.display-name')] = 'utf8guard';

module.exports = { Guard, http, express, fastify, problem };
