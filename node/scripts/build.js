#!/usr/bin/env node
// build.js - the package's install step: builds the addon with CMake into
// build/utf8guard.node (index.js loads it from there). The library's sources
// are the parent folder of this package; the Node-API headers come from the
// node-api-headers package, so nothing is fetched from outside npm.
'use strict';

const { execFileSync } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const build = path.join(root, 'build');
const jobs = String(Math.max(1, os.availableParallelism ? os.availableParallelism() : os.cpus().length));

function run(args) {
  console.log(`utf8guard: cmake ${args.join(' ')}`);
  execFileSync('cmake', args, { stdio: 'inherit', cwd: root });
}

run(['-S', root, '-B', build, '-DCMAKE_BUILD_TYPE=Release', ...(process.env.UTF8GUARD_CMAKE_ARGS || '').split(' ').filter(Boolean)]);
run(['--build', build, '--target', 'utf8guard_node', '-j', jobs]);
