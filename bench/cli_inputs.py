#!/usr/bin/env python3
"""cli_inputs.py - the inputs of bench/cli_speed.sh, all valid UTF-8, made
from the text files it is given (bench/texts.sh lists them: the lipsum texts,
or their generated stand-ins).

  cli_inputs.py big DEST MIB TEXT...
      one file of exactly MIB MiB less the bytes of a character the cut
      would split, repeating the TEXTs one after another
  cli_inputs.py tree DEST COUNT MIN MAX TEXT...
      COUNT files of MIN..MAX bytes (uniformly drawn, cut back to a character
      boundary) in folders of 200, each cut from the TEXTs in turn at a
      random place, as a repository's sources are many small files;
      DEST/files0 lists them, relative to DEST, each name ended by NUL
"""

import os
import random
import sys


def read(paths):
    units = []
    for path in paths:
        with open(path, "rb") as f:
            units.append(f.read())
    return units


def char_end(raw, end):
    """The largest cut <= end that does not split a character of raw."""
    while 0 < end < len(raw) and raw[end] & 0xC0 == 0x80:
        end -= 1
    return end


def big(dest, mib, texts):
    unit = b"".join(read(texts))
    size = mib << 20
    raw = (unit * (size // len(unit) + 1))[:size + 4]
    with open(dest, "wb") as f:
        f.write(raw[:char_end(raw, size)])


def tree(dest, count, low, high, texts):
    units = read(texts)
    rng = random.Random(41)
    names = []
    for i in range(count):
        unit = units[i % len(units)]
        size = rng.randint(low, high)
        start = char_end(unit, rng.randrange(len(unit)))
        piece = unit[start:] + unit * (size // len(unit) + 1)
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
        big(argv[1], int(argv[2]), argv[3:])
    elif len(argv) >= 6 and argv[0] == "tree":
        tree(argv[1], int(argv[2]), int(argv[3]), int(argv[4]), argv[5:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
