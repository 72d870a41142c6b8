// native.js - loads the addon: the file UTF8GUARD_NODE_ADDON names (the
// top-level CMake build's tests set it), else build/utf8guard.node, which
// the package's install step (scripts/build.js) writes.
'use strict';

const path = require('node:path');

const file = process.env.UTF8GUARD_NODE_ADDON || path.join(__dirname, '..', 'build', 'utf8guard.node');
module.exports = require(file);
