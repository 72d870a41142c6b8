#!/usr/bin/env python3
"""cli_inputs.py - the inputs of bench/cli_speed.sh, all valid UTF-8.

  cli_inputs.py big DEST ascii|multilingual MIB [DATA]
      one file of exactly MIB MiB less the bytes of a character the cut
      would split, repeating the Latin lipsum (ascii) or the nine lipsum
      texts one after another (multilingual)
  cli_inputs.py tree DEST COUNT MIN MAX [DATA]
      COUNT files of MIN..MAX bytes (uniformly drawn, cut back to a character
      boundary) in folders of 200, each cut from the nine lipsum texts in
      turn at a random place, as a repository's sources are many small files;
      DEST/files0 lists them, relative to DEST, each name ended by NUL

DATA is a folder holding lipsum/*.txt. Without it (or when it has none) the
texts are generated here: words of the same nine scripts, the same every run.
"""

import os
import random
import sys

# Letters of the nine scripts of the lipsum texts, as code point ranges.
SCRIPTS = {
    "Latin": [(0x61, 0x7A)],
    "Arabic": [(0x627, 0x64A)],
    "Chinese": [(0x4E00, 0x9FA5)],
    "Emoji": [(0x1F600, 0x1F64F), (0x1F300, 0x1F5FF)],
    "Hebrew": [(0x5D0, 0x5EA)],
    "Hindi": [(0x905, 0x939), (0x93E, 0x94C)],
    "Japanese": [(0x3041, 0x3093), (0x30A1, 0x30F3)],
    "Korean": [(0xAC00, 0xD7A3)],
    "Russian": [(0x430, 0x44F)],
}


def generated(name, size=80_000):
    """About size bytes of words of one script, with punctuation and LFs."""
    rng = random.Random(name)
    ranges = SCRIPTS[name]
    out, n = [], 0
    while n < size:
        lo, hi = rng.choice(ranges)
        word = "".join(chr(rng.randint(lo, hi)) for _ in range(rng.randint(1, 9)))
        word += rng.choice([" "] * 8 + [", ", ". ", ".\n"])
        out.append(word)
        n += len(word.encode())
    return "".join(out).encode()


def texts(data, names):
    found = []
    for name in names:
        path = os.path.join(data, "lipsum", name + "-Lipsum.utf8.txt") if data else ""
        if path and os.path.isfile(path):
            with open(path, "rb") as f:
                found.append(f.read())
        else:
            found.append(generated(name))
    return found


def char_end(raw, end):
    """The largest cut <= end that does not split a character of raw."""
    while end > 0 and end < len(raw) and raw[end] & 0xC0 == 0x80:
        end -= 1
    return end


def big(dest, which, mib, data):
    names = ["Latin"] if which == "ascii" else sorted(SCRIPTS)
    unit = b"".join(texts(data, names))
    size = mib << 20
    raw = (unit * (size // len(unit) + 1))[:size + 4]
    with open(dest, "wb") as f:
        f.write(raw[:char_end(raw, size)])


def tree(dest, count, low, high, data):
    units = texts(data, sorted(SCRIPTS))
    rng = random.Random(41)
    names = []
    for i in range(count):
        unit = units[i % len(units)]
        size = rng.randint(low, high)
        start = char_end(unit, rng.randrange(len(unit)))
        piece = (unit[start:] + unit * (size // len(unit) + 1))
        piece = piece[:char_end(piece, size)]
        name = "d%03d/f%05d.txt" % (i // 200, i)
        names.append(name)
        os.makedirs(os.path.join(dest, os.path.dirname(name)), exist_ok=True)
        with open(os.path.join(dest, name), "wb") as f:
            f.write(piece)
    with open(os.path.join(dest, "files0"), "wb") as f:
        f.write(b"".join(os.fsencode(n) + b"\0" for n in names))


def main(argv):
    if len(argv) >= 4 and argv[0] == "big":
        big(argv[1], argv[2], int(argv[3]), argv[4] if len(argv) > 4 else "")
    elif len(argv) >= 5 and argv[0] == "tree":
        tree(argv[1], int(argv[2]), int(argv[3]), int(argv[4]), argv[5] if len(argv) > 5 else "")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
