#!/usr/bin/env node
// node_isutf8.js [--json] [--reps N] [--min-ms MS] FILE... - times Node's
// require('buffer').isUtf8 (simdutf inside: Node 20 ships simdutf 6.4.2) on
// each file: the yardstick for simdutf, which Debian does not package.
//
// Each repetition calls isUtf8 on the file's bytes in a loop for at least
// MS milliseconds; the result is the median over N repetitions, in GB/s
// (10^9 bytes/s) of process CPU time, like utf8guard_bench's default. The
// name of each file is its base name without .utf8.txt, .txt or .bin, the
// same rule as utf8guard_bench, so bench/report.py can put them side by side.
'use strict';

const fs = require('fs');
const path = require('path');
const { isUtf8 } = require('buffer');

function parseArgs(argv) {
  const opts = { json: false, reps: 15, minMs: 20, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') opts.json = true;
    else if (a === '--reps') opts.reps = Number(argv[++i]);
    else if (a === '--min-ms') opts.minMs = Number(argv[++i]);
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else opts.files.push(a);
  }
  if (!(opts.reps >= 1) || !(opts.minMs > 0) || opts.files.length === 0) {
    throw new Error('usage: node_isutf8.js [--json] [--reps N] [--min-ms MS] FILE...');
  }
  return opts;
}

function inputName(file) {
  const base = path.basename(file);
  for (const ext of ['.utf8.txt', '.txt', '.bin']) {
    if (base.length > ext.length && base.endsWith(ext)) return base.slice(0, -ext.length);
  }
  return base;
}

// cpuNs returns the process's user + system CPU time in nanoseconds.
function cpuNs(since) {
  const u = process.cpuUsage(since);
  return (u.user + u.system) * 1000;
}

let sink = 0; // every answer is summed into it, so no call is dead code

function timeLoop(buf, iterations) {
  const start = process.cpuUsage();
  let ok = 0;
  for (let i = 0; i < iterations; i++) ok += isUtf8(buf) ? 1 : 0;
  const ns = cpuNs(start);
  sink += ok;
  return ns;
}

function measure(buf, reps, minMs) {
  // Grow the iteration count until one loop takes minMs, then repeat it.
  let iterations = 1;
  for (;;) {
    const ns = timeLoop(buf, iterations);
    if (ns >= minMs * 1e6) break;
    iterations = ns < 1e5 ? iterations * 10 : Math.ceil((iterations * minMs * 1e6 * 1.2) / ns);
  }
  const rates = [];
  for (let r = 0; r < reps; r++) {
    const ns = timeLoop(buf, iterations);
    rates.push((buf.length * iterations) / ns);
  }
  rates.sort((a, b) => a - b);
  const mid = rates.length >> 1;
  const median = rates.length % 2 ? rates[mid] : (rates[mid - 1] + rates[mid]) / 2;
  return { gbps: median, min: rates[0], max: rates[rates.length - 1], iterations };
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const results = [];
  for (const file of opts.files) {
    const buf = fs.readFileSync(file);
    const m = measure(buf, opts.reps, opts.minMs);
    results.push({ name: inputName(file), bytes: buf.length, valid: isUtf8(buf), ...m });
  }
  if (opts.json) {
    const out = {
      node: process.version,
      simdutf: process.versions.simdutf || 'unknown',
      repetitions: opts.reps,
      min_ms: opts.minMs,
      date: new Date().toISOString(),
      results,
      sink,
    };
    process.stdout.write(JSON.stringify(out, null, 1) + '\n');
    return;
  }
  console.log(`Node ${process.version}, simdutf ${process.versions.simdutf || '?'}: ` +
              `Buffer.isUtf8, median of ${opts.reps} (GB/s, process CPU time)`);
  for (const r of results) {
    console.log(`${r.name.padEnd(28)} ${r.gbps.toFixed(2).padStart(8)}  ` +
                `(min ${r.min.toFixed(2)}, max ${r.max.toFixed(2)})${r.valid ? '' : '  not UTF-8'}`);
  }
}

main();
