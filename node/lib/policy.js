// policy.js - a policy from JavaScript: undefined or null (strict: nothing
// denied), category bits, or text in the library's words: profile and
// category names separated by commas, '-' removing one ("field,-newline").
// Texts are parsed by the library once and remembered.
'use strict';

const native = require('./native');

const MASK = (1 << native.categoryNames.length) - 1;
const parsed = new Map();
// The last text asked, the common case of a loop over one policy.
let lastText = null;
let lastBits = 0;

function invalid(message, code) {
  const err = new TypeError(message);
  err.code = code;
  return err;
}

function policyBits(policy) {
  if (policy === undefined || policy === null) return 0;
  if (typeof policy === 'number') {
    if (!Number.isInteger(policy) || policy < 0 || (policy & ~MASK) !== 0) {
      throw invalid(`The policy ${policy} is not a set of category bits`, 'ERR_INVALID_ARG_VALUE');
    }
    return policy;
  }
  if (typeof policy !== 'string') {
    throw invalid('The policy must be a string or category bits', 'ERR_INVALID_ARG_TYPE');
  }
  if (policy === lastText) return lastBits;
  let bits = parsed.get(policy);
  if (bits !== undefined) {
    lastText = policy;
    lastBits = bits;
    return bits;
  }
  bits = native.parsePolicy(policy);
  if (typeof bits !== 'number') {
    const [offset, length] = bits;
    const item = JSON.stringify(policy.slice(offset, offset + length));
    throw invalid(`The policy ${JSON.stringify(policy)} has no profile or category named ${item} ` +
      `(at ${offset}); names: ${native.profileNames.join(', ')}, ${native.categoryNames.join(', ')}`,
    'ERR_INVALID_ARG_VALUE');
  }
  if (parsed.size < 256) parsed.set(policy, bits);
  lastText = policy;
  lastBits = bits;
  return bits;
}

module.exports = { policyBits };
