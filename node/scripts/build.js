#!/usr/bin/env node
// build.js - the package's install step: builds the addon with CMake into
// build/utf8guard.node (lib/native.js loads it from there). The library's
// sources are the parent folder of this package; the Node-API headers come
// from the node-api-headers package, so nothing is fetched from outside the
// npm registry. `npm install ./node` links this folder and installs none of
// its dependencies, so when the headers are not found they are installed
// here first, from package-lock.json.
'use strict';

const { execFileSync } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const build = path.join(root, 'build');
const jobs = String(os.availableParallelism ? os.availableParallelism() : os.cpus().length);

function headers() {
  try {
    return require(require.resolve('node-api-headers', { paths: [root] })).include_dir;
  } catch {
    return null;
  }
}

function run(command, args) {
  console.log(`utf8guard: ${command} ${args.join(' ')}`);
  execFileSync(command, args, { stdio: 'inherit', cwd: root });
}

let include = headers();
if (include === null) {
  // npm_execpath is the npm that runs this script.
  const npm = process.env.npm_execpath;
  const args = ['install', '--omit=dev', '--ignore-scripts', '--no-save', '--no-audit', '--no-fund'];
  if (npm) run(process.execPath, [npm, ...args]);
  else run('npm', args);
  include = headers();
  if (include === null) throw new Error('utf8guard: the node-api-headers package is missing');
}

const extra = (process.env.UTF8GUARD_CMAKE_ARGS || '').split(' ').filter(Boolean);
run('cmake', ['-S', root, '-B', build, '-DCMAKE_BUILD_TYPE=Release', `-DUTF8GUARD_NODE_API_INCLUDE=${include}`, ...extra]);
run('cmake', ['--build', build, '--target', 'utf8guard_node', '-j', jobs]);
