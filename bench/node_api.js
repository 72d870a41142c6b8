#!/usr/bin/env node
// node_api.js [--reps N] [--min-ms MS] [--wrk-seconds S] [--wrk-rounds R]
//             [--together] [--no-wrk] [--only PARTS] - times the Node.js
//             package (node/)
// against what Node ships, side by side in one process, and prints medians
// and ratios:
//
//   isValid          vs buffer.isUtf8 (simdutf as shipped in Node), on each
//                    non-ASCII lipsum text repeated to 1 MiB
//   validate         vs new TextDecoder('utf-8', {fatal: true}).decode
//   isValid, 16 B    vs buffer.isUtf8 on 16-byte slices of the same texts:
//                    the cost of one call through Node-API
//   validatePercent  vs decodeURIComponent in try, then TextEncoder, on the
//                    lines of $UTF8GUARD_BENCH_DATA/urls/requests_1MiB.txt
//   Express + guard  vs the same app without it, requests/s by wrk on
//                    loopback (a GET with a percent-encoded path and query,
//                    a POST of a form), after a warm-up run of each, in
//                    rounds whose first side alternates, on two pairs of
//                    server processes started in turn; also requests per
//                    second of the server's own CPU time, which other load
//                    on the machine does not change, and the median of the
//                    rounds' ratios
//   instructions     the same two requests and servers, each server under
//                    valgrind's callgrind: the instructions it runs a
//                    request (those of 6,000 requests less those of 2,000,
//                    over 16 kept-alive connections), which the machine's
//                    load does not change. Minutes long: only with --only.
//
// --only runs some of the parts, by name, comma-separated: large (the 1 MiB
// pairs), short (16 B), percent, offload, express, instructions. --wrk-rounds sets the
// number of rounds, one wrk run of each side a round (default 7); with
// --together the two sides' runs of a round go at once.
//
// Times are process CPU time; each repetition runs both sides of a pair,
// one after the other, for at least MS milliseconds each. The texts come from
// bench/texts.sh (the lipsum texts under $UTF8GUARD_BENCH_DATA, or stand-ins).
// The addon is node/build/utf8guard.node, or the file UTF8GUARD_NODE_ADDON
// names (the CMake build's build/node/utf8guard.node).
'use strict';

const { execFileSync, fork, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { isUtf8 } = require('node:buffer');

const root = path.resolve(__dirname, '..');
const ug = require(path.join(root, 'node'));

function parseArgs(argv) {
  const opts = { reps: 11, minMs: 20, wrkSeconds: 2, wrkRounds: 7, wrk: true, together: false, serve: null, only: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--reps') opts.reps = Number(argv[++i]);
    else if (a === '--min-ms') opts.minMs = Number(argv[++i]);
    else if (a === '--wrk-seconds') opts.wrkSeconds = Number(argv[++i]);
    else if (a === '--wrk-rounds') opts.wrkRounds = Number(argv[++i]);
    else if (a === '--no-wrk') opts.wrk = false;
    else if (a === '--together') opts.together = true;
    else if (a === '--only') opts.only = new Set(argv[++i].split(','));
    else if (a === '--serve') opts.serve = argv[++i];
    else throw new Error(`unknown option ${a}; usage: node_api.js [--reps N] [--min-ms MS] [--wrk-seconds S] [--wrk-rounds R] [--together] [--no-wrk] [--only PARTS]`);
  }
  return opts;
}

function cpuNs(since) {
  const u = process.cpuUsage(since);
  return (u.user + u.system) * 1000;
}

let sink = 0;

// Runs fn(iterations) until it takes minMs, then that many iterations per
// repetition; returns the ns of one iteration per repetition.
function calibrate(fn, minMs) {
  let n = 1;
  for (;;) {
    const t = process.cpuUsage();
    sink += fn(n);
    const ns = cpuNs(t);
    if (ns >= minMs * 1e6) return n;
    n = ns < 1e5 ? n * 10 : Math.ceil((n * minMs * 1e6 * 1.2) / ns);
  }
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// Times two loops (each fn(n) runs n iterations and returns a checksum),
// interleaved; returns the median ns per iteration of each.
function pair(a, b, opts) {
  const na = calibrate(a, opts.minMs);
  const nb = calibrate(b, opts.minMs);
  const ta = [];
  const tb = [];
  for (let r = 0; r < opts.reps; r++) {
    let t = process.cpuUsage();
    sink += a(na);
    ta.push(cpuNs(t) / na);
    t = process.cpuUsage();
    sink += b(nb);
    tb.push(cpuNs(t) / nb);
  }
  return [median(ta), median(tb)];
}

function texts() {
  const out = execFileSync(path.join(root, 'bench', 'texts.sh'), ['--non-ascii'], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

// The text repeated to at most 1 MiB, whole copies only (so still UTF-8).
function mebibyte(file) {
  const one = fs.readFileSync(file);
  const copies = Math.max(1, Math.floor((1 << 20) / one.length));
  return Buffer.concat(Array(copies).fill(one));
}

function name(file) {
  return path.basename(file).replace(/(\.utf8)?\.txt$/, '');
}

const rows = [];
function report(pairName, input, ours, theirs, unit, better) {
  const ratio = better === 'higher' ? ours / theirs : theirs / ours;
  rows.push({ pair: pairName, input, ours, theirs, ratio });
  console.log(`${pairName.padEnd(34)} ${input.padEnd(18)} ${ours.toFixed(2).padStart(10)} ${theirs.toFixed(2).padStart(10)} ${unit.padEnd(8)} ${ratio.toFixed(2).padStart(6)}x`);
}

function header() {
  console.log(`Node ${process.version}, simdutf ${process.versions.simdutf || '?'}, utf8guard ${ug.version} (kernel ${ug.activeKernel()}), ${os.cpus()[0].model}`);
  console.log('medians of process CPU time; ratio: how many times faster utf8guard is (for req/s: ours / theirs)');
  console.log(`${'pair'.padEnd(34)} ${'input'.padEnd(18)} ${'utf8guard'.padStart(10)} ${'Node'.padStart(10)} unit     ratio`);
}

function large(opts) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (const file of texts()) {
    const buf = mebibyte(file);
    const gb = (ns) => buf.length / ns;
    let [ours, theirs] = pair(
      (n) => { let k = 0; for (let i = 0; i < n; i++) k += ug.isValid(buf) ? 1 : 0; return k; },
      (n) => { let k = 0; for (let i = 0; i < n; i++) k += isUtf8(buf) ? 1 : 0; return k; }, opts);
    report('isValid vs buffer.isUtf8 (simdutf)', name(file), gb(ours), gb(theirs), 'GB/s', 'higher');
    [ours, theirs] = pair(
      (n) => { let k = 0; for (let i = 0; i < n; i++) k += ug.validate(buf) === null ? 1 : 0; return k; },
      (n) => { let k = 0; for (let i = 0; i < n; i++) k += decoder.decode(buf).length; return k; }, opts);
    report('validate vs TextDecoder fatal', name(file), gb(ours), gb(theirs), 'GB/s', 'higher');
  }
}

function short(opts) {
  // 16-byte slices of every text, cut at character boundaries.
  const slices = [];
  for (const file of texts()) {
    const b = fs.readFileSync(file);
    for (let at = 0; at + 32 < b.length && slices.length < 4096 * 8; at += 97) {
      let from = at;
      while ((b[from] & 0xc0) === 0x80) from++;
      const n = ug.truncate(b.subarray(from, from + 16), 16);
      slices.push(Buffer.from(b.subarray(from, from + n)));
    }
  }
  const [ours, theirs] = pair(
    (n) => { let k = 0; for (let r = 0; r < n; r++) for (let i = 0; i < slices.length; i++) k += ug.isValid(slices[i]) ? 1 : 0; return k; },
    (n) => { let k = 0; for (let r = 0; r < n; r++) for (let i = 0; i < slices.length; i++) k += isUtf8(slices[i]) ? 1 : 0; return k; }, opts);
  const per = (ns) => ns / slices.length;
  // For the call overhead the ratio is their time over ours (< 1: slower).
  report('isValid vs buffer.isUtf8, 16 B', `${slices.length} slices`, per(ours), per(theirs), 'ns/call', 'lower');
  const [pol] = pair(
    (n) => { let k = 0; for (let r = 0; r < n; r++) for (let i = 0; i < slices.length; i++) k += ug.isValid(slices[i], 'field') ? 1 : 0; return k; },
    (n) => { let k = 0; for (let r = 0; r < n; r++) for (let i = 0; i < slices.length; i++) k += isUtf8(slices[i]) ? 1 : 0; return k; }, opts);
  report('isValid(b, "field") vs isUtf8, 16 B', `${slices.length} slices`, per(pol), per(theirs), 'ns/call', 'lower');
}

function percent(opts) {
  const data = process.env.UTF8GUARD_BENCH_DATA;
  const file = data && path.join(data, 'urls', 'requests_1MiB.txt');
  if (!file || !fs.existsSync(file)) {
    console.log('validatePercent: no $UTF8GUARD_BENCH_DATA/urls/requests_1MiB.txt; skipped');
    return;
  }
  // The request target of each line "METHOD TARGET HTTP/1.1".
  const targets = fs.readFileSync(file, 'latin1').split('\n').filter(Boolean).map((l) => l.split(' ')[1]);
  const buffers = targets.map((t) => Buffer.from(t, 'latin1'));
  const bytes = buffers.reduce((s, b) => s + b.length, 0);
  const encoder = new TextEncoder();
  const [ours, theirs] = pair(
    (n) => { let k = 0; for (let r = 0; r < n; r++) for (let i = 0; i < buffers.length; i++) k += ug.validatePercent(buffers[i]) === null ? 1 : 0; return k; },
    (n) => {
      let k = 0;
      for (let r = 0; r < n; r++) {
        for (let i = 0; i < targets.length; i++) {
          try {
            k += encoder.encode(decodeURIComponent(targets[i])).length;
          } catch {
            k += 1;
          }
        }
      }
      return k;
    }, opts);
  report('validatePercent vs decodeURIComponent', `${targets.length} targets`, bytes / ours, bytes / theirs, 'GB/s', 'higher');
}

// --- Express on loopback, with and without the guard ---

function serve(mode) {
  const express = require(path.join(root, 'node', 'node_modules', 'express'));
  const app = express();
  if (mode === 'guard') app.use(ug.express());
  app.use((req, res) => {
    let n = 0;
    req.on('data', (c) => { n += c.length; });
    req.on('end', () => res.end(`ok ${n}`));
  });
  const server = app.listen(0, '127.0.0.1', () => process.send(server.address().port));
  // Asked for its CPU time, the server answers with it.
  process.on('message', () => process.send(process.cpuUsage()));
  process.on('disconnect', () => process.exit(0));
}

function serverCpu(child) {
  return new Promise((resolve) => {
    child.once('message', (u) => resolve((u.user + u.system) * 1000));
    child.send('cpu');
  });
}

// One wrk run: [requests/s of wall time, requests per second of the
// server's CPU time], the second the figure to trust on a shared machine.
async function wrkRun(server, seconds, script) {
  const args = ['-t1', '-c16', `-d${seconds}s`, '-s', script, `http://127.0.0.1:${server.port}/`];
  const before = await serverCpu(server.child);
  const r = await new Promise((resolve) => {
    const child = require('node:child_process').execFile('wrk', args, { encoding: 'utf8' },
      (err, stdout, stderr) => resolve({ stdout, stderr }));
    void child;
  });
  const cpu = (await serverCpu(server.child)) - before;
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(r.stdout || '');
  const count = /(\d+) requests in/.exec(r.stdout || '');
  if (!rate || !count) throw new Error(`wrk: ${r.stderr || r.stdout}`);
  if (/Non-2xx/.test(r.stdout)) throw new Error(`wrk: answers other than 2xx: ${r.stdout}`);
  return [Number(rate[1]), Number(count[1]) / (cpu / 1e9)];
}

// The two requests of the server parts: a GET with a percent-encoded path
// and query, and a POST of a 1 KiB form, from a line of multilingual text.
function requests() {
  const line = fs.readFileSync(path.join(root, 'nginx', 'tests', 'multilingual.txt'), 'utf8').split('\n')
    .filter((l) => l && !l.startsWith('#'))[1].slice(0, 40);
  const enc = encodeURIComponent(line);
  return {
    'GET /path?query': { method: 'GET', path: `/docs/${enc}?q=${enc}&page=2`,
      headers: { 'Accept-Language': 'fr-CH, fr;q=0.9', 'User-Agent': 'bench/1.0' }, body: null },
    'POST form ~1 KiB': { method: 'POST', path: '/submit',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `a=1&text=${enc.repeat(Math.floor(1000 / enc.length))}` },
  };
}

async function express(opts) {
  if (spawnSync('wrk', ['--version']).error) {
    console.log('Express: no wrk; skipped');
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'utf8guard-wrk-'));
  const scripts = Object.fromEntries(Object.entries(requests()).map(([what, r]) => [what,
    [`wrk.method = "${r.method}"`, `wrk.path = "${r.path}"`,
      ...Object.entries(r.headers).map(([k, v]) => `wrk.headers["${k}"] = "${v}"`),
      ...(r.body ? [`wrk.body = "${r.body}"`] : [])].join('\n') + '\n']));
  const start = async (order) => {
    const servers = {};
    for (const mode of order) {
      const child = fork(__filename, ['--serve', mode], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      const port = await new Promise((resolve) => child.once('message', resolve));
      servers[mode] = { child, port };
    }
    return servers;
  };
  let servers = {};
  try {
    for (const [what, body] of Object.entries(scripts)) {
      const script = path.join(dir, 'req.lua');
      fs.writeFileSync(script, body);
      const got = { plain: [], guard: [] };
      // Two pairs of server processes, started in opposite orders, half of
      // the rounds each: two processes running the same app differ by up to
      // 6 % (plain against plain), whichever starts first.
      for (let pair = 0; pair < 2; pair++) {
        servers = await start(pair === 0 ? ['plain', 'guard'] : ['guard', 'plain']);
        // Warm-up, not counted: V8 compiles the request path during the
        // first seconds of load, and a server still warming up reads up to
        // 10 % slower than the same server a few seconds later.
        for (const mode of ['plain', 'guard']) await wrkRun(servers[mode], opts.wrkSeconds, script);
        const rounds = pair === 0 ? Math.ceil(opts.wrkRounds / 2) : Math.floor(opts.wrkRounds / 2);
        for (let r = 0; r < rounds; r++) {
          // The side that goes first alternates, so that neither always runs
          // after the other's load.
          const order = r % 2 === 0 ? ['plain', 'guard'] : ['guard', 'plain'];
          if (opts.together) {
            // Both at once: a slow second of the machine slows both alike,
            // and each server's CPU time a request is the figure to read.
            const both = await Promise.all(order.map((mode) => wrkRun(servers[mode], opts.wrkSeconds, script)));
            order.forEach((mode, j) => got[mode].push(both[j]));
          } else {
            for (const mode of order) got[mode].push(await wrkRun(servers[mode], opts.wrkSeconds, script));
          }
        }
        for (const s of Object.values(servers)) s.child.disconnect();
        servers = {};
      }
      const wall = (mode) => median(got[mode].map((x) => x[0]));
      const cpu = (mode) => median(got[mode].map((x) => x[1]));
      // The median of the rounds' ratios: each round's two runs are
      // neighbours in time, so a slow minute of the machine slows both.
      const rounds = (i) => median(got.guard.map((x, r) => x[i] / got.plain[r][i]));
      report('Express + guard vs Express', what, wall('guard'), wall('plain'), 'req/s', 'higher');
      report('Express + guard vs Express', `${what}, CPU`, cpu('guard'), cpu('plain'), 'req/CPU-s', 'higher');
      console.log(`${''.padEnd(34)} ${what}: median of the ${opts.wrkRounds} rounds' ratios ` +
        `${rounds(0).toFixed(2)}x req/s, ${rounds(1).toFixed(2)}x req/CPU-s`);
    }
  } finally {
    for (const s of Object.values(servers)) s.child.disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// --- Instructions a request under callgrind ---

// Sends `count` copies of request r over 16 kept-alive connections; each
// must be answered 200.
function load(port, r, count) {
  const http = require('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const headers = { ...r.headers, Host: '127.0.0.1' };
  if (r.body !== null) headers['Content-Length'] = Buffer.byteLength(r.body);
  let sent = 0;
  let answered = 0;
  return new Promise((resolve, reject) => {
    const one = () => {
      if (sent === count) return;
      sent += 1;
      const req = http.request({ host: '127.0.0.1', port, method: r.method, path: r.path, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`answer ${res.statusCode} to ${r.method} ${r.path}`));
          else if (++answered === count) { agent.destroy(); resolve(); } else one();
        });
      });
      req.on('error', reject);
      req.end(r.body === null ? undefined : r.body);
    };
    for (let i = 0; i < 16; i++) one();
  });
}

// The instructions a server of `mode` runs, started under callgrind, for
// `count` requests r, from its start to its exit.
async function collected(mode, r, count) {
  const { spawn } = require('node:child_process');
  const child = spawn('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null',
    process.execPath, __filename, '--serve', mode], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const port = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', () => reject(new Error(`callgrind: ${err}`)));
  });
  await load(port, r, count);
  child.disconnect();
  await exited;
  const m = /Collected : (\d+)/.exec(err);
  if (!m) throw new Error(`callgrind: ${err}`);
  return Number(m[1]);
}

async function instructions() {
  if (spawnSync('valgrind', ['--version']).error) {
    console.log('instructions: no valgrind; skipped');
    return;
  }
  const [few, many] = [2000, 6000];
  for (const [what, r] of Object.entries(requests())) {
    const per = {};
    for (const mode of ['plain', 'guard']) {
      // The two counts at once: each is its own process, and callgrind
      // counts instructions, not time.
      const [a, b] = await Promise.all([collected(mode, r, few), collected(mode, r, many)]);
      per[mode] = (b - a) / (many - few);
    }
    report('Express + guard vs Express', `${what}, instructions`, per.guard / 1000, per.plain / 1000,
      'k instr/req', 'lower');
  }
}

// What handing 1 MiB to the libuv thread pool would cost: one round trip
// (crypto.randomFill of 1 byte, the cheapest pooled call) against isValid and
// validate of 1 MiB on the main thread, in wall time.
async function offload(opts) {
  const crypto = require('node:crypto');
  const buf = mebibyte(texts()[0]);
  const one = Buffer.alloc(1);
  const times = { trip: [], isValid: [], validate: [] };
  for (let r = 0; r < opts.reps; r++) {
    let t = process.hrtime.bigint();
    for (let i = 0; i < 200; i++) await new Promise((resolve) => crypto.randomFill(one, resolve));
    times.trip.push(Number(process.hrtime.bigint() - t) / 200);
    t = process.hrtime.bigint();
    for (let i = 0; i < 200; i++) sink += ug.isValid(buf) ? 1 : 0;
    times.isValid.push(Number(process.hrtime.bigint() - t) / 200);
    t = process.hrtime.bigint();
    for (let i = 0; i < 200; i++) sink += ug.validate(buf) === null ? 1 : 0;
    times.validate.push(Number(process.hrtime.bigint() - t) / 200);
  }
  const us = (xs) => (median(xs) / 1000).toFixed(1);
  console.log(`offloading 1 MiB: a thread-pool round trip takes ${us(times.trip)} us (wall); ` +
    `isValid ${us(times.isValid)} us, validate ${us(times.validate)} us on the main thread`);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.serve) {
    serve(opts.serve);
    return;
  }
  header();
  const run = (part) => opts.only === null || opts.only.has(part);
  if (run('large')) large(opts);
  if (run('short')) short(opts);
  if (run('percent')) percent(opts);
  if (run('offload')) await offload(opts);
  if (opts.wrk && run('express')) await express(opts);
  if (opts.only !== null && opts.only.has('instructions')) await instructions();
  if (sink === 0.5) console.log(sink);
}

main();
