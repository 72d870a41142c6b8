// native.js - loads the addon: the file UTF8GUARD_NODE_ADDON names (the
// top-level CMake build's tests set it), else build/utf8guard.node, which
// the package's install step (scripts/build.js) writes.
'use strict';

const path = require('node:path');

const file = process.env.UTF8GUARD_NODE_ADDON || path.join(__dirname, '..', 'build', 'utf8guard.node');
// A copy of the addon's exports: Node-API adds them one by one to an object
// V8 then keeps as a dictionary, where each native.fn() of a hot path would
// be a dictionary lookup; a literal's properties are found by the inline
// caches.
module.exports = { ...require(file) };
