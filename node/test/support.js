// support.js - what the tests share: the repository's data files (attack
// vectors, multilingual text) and small byte helpers.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

function fromHex(hex) {
  return hex === '' ? Buffer.alloc(0) : Buffer.from(hex.split(' ').map((h) => parseInt(h, 16)));
}

function readTsv(file) {
  const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'));
  const head = lines[0].split('\t');
  return lines.slice(1).map((l) => {
    const cells = l.split('\t');
    return Object.fromEntries(head.map((h, i) => [h, cells[i]]));
  });
}

/** security/vectors/vectors.tsv: {id, bytes, kind, offset, length, sanitized}. */
function vectors() {
  return readTsv('security/vectors/vectors.tsv').map((r) => ({
    id: r.id,
    bytes: fromHex(r.hex),
    kind: r.kind,
    offset: Number(r.offset),
    length: Number(r.length),
    sanitized: fromHex(r.sanitized_hex),
  }));
}

/** security/vectors/percent.tsv rows, numbers as numbers. */
function percentVectors() {
  return readTsv('security/vectors/percent.tsv').map((r) => ({
    ...r,
    offset: Number(r.offset),
    length: Number(r.length),
    decoded_offset: Number(r.decoded_offset),
    decoded_length: Number(r.decoded_length),
  }));
}

/** The lines of nginx/tests/multilingual.txt: nine scripts of lipsum text. */
function multilingual() {
  return fs.readFileSync(path.join(ROOT, 'nginx/tests/multilingual.txt'), 'utf8').split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** Percent-encodes every byte of b. */
function percentAll(b) {
  return [...b].map((x) => `%${x.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** A small seeded generator (xorshift32), for loops that must repeat. */
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s;
  };
}

module.exports = { ROOT, fromHex, vectors, percentVectors, multilingual, percentAll, rng };
