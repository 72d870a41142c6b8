// textdecoder.js IN OUT - what the WHATWG Encoding Standard's UTF-8 decoder,
// as Node's TextDecoder implements it, says about each input of IN.
//
// IN holds inputs as [u32 little-endian length][bytes]. For each, OUT gets
//   [u32 length][the non-fatal decode, encoded back to UTF-8]
//   [u8 status: 0 valid, 1 error, 2 input ends inside a sequence]
//   [u32 offset][u32 length] of the first error (0 0 when valid).
// ignoreBOM keeps a leading EF BB BF as data, as utf8guard does; the default
// decoder drops it (BOM sniffing), which is not a replacement.
//
// The first error comes from a fatal decoder fed one byte at a time: the
// decoder emits a code point as soon as its last byte arrives, so the bytes
// fed since the last output are the sequence in progress. When byte j throws,
// the error is that pending sequence, or byte j alone when none was pending
// (a byte that cannot start a sequence). When the final flush throws, the
// input ended inside a sequence.
'use strict';
const fs = require('fs');

const [inPath, outPath] = process.argv.slice(2);
if (!inPath || !outPath) {
  console.error('usage: node textdecoder.js IN OUT');
  process.exit(2);
}

const replacing = new TextDecoder('utf-8', { ignoreBOM: true });

function firstError(bytes) {
  const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let pending = 0;  // first byte not yet part of an emitted code point
  for (let j = 0; j < bytes.length; j++) {
    let s;
    try {
      s = fatal.decode(bytes.subarray(j, j + 1), { stream: true });
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
      return j === pending ? [1, j, 1] : [1, pending, j - pending];
    }
    if (s.length > 0) pending = j + 1;
  }
  try {
    fatal.decode();
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return [2, pending, bytes.length - pending];
  }
  return [0, 0, 0];
}

const input = fs.readFileSync(inPath);
const chunks = [];
let pos = 0;
while (pos < input.length) {
  const n = input.readUInt32LE(pos);
  const bytes = input.subarray(pos + 4, pos + 4 + n);
  pos += 4 + n;
  const sanitized = Buffer.from(replacing.decode(bytes), 'utf8');
  const [status, offset, length] = firstError(bytes);
  const head = Buffer.alloc(4);
  head.writeUInt32LE(sanitized.length);
  const tail = Buffer.alloc(9);
  tail.writeUInt8(status, 0);
  tail.writeUInt32LE(offset, 1);
  tail.writeUInt32LE(length, 5);
  chunks.push(head, sanitized, tail);
}
fs.writeFileSync(outPath, Buffer.concat(chunks));
