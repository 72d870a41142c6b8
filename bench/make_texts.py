#!/usr/bin/env python3
"""make_texts.py DIR - write generated stand-ins for the lipsum texts into DIR.

The benchmarks time utf8guard on the lipsum texts of lemire/unicode_lipsum
(lipsum/*.utf8.txt) when $UTF8GUARD_BENCH_DATA/lipsum holds them. Without them,
bench/texts.sh calls this script, so that every benchmark still runs on text
of the same kinds: one file per script, NAME-Generated.txt, with about the
lipsum file's size, share of ASCII characters and sequence lengths (letters
drawn from the script's block, spaces and punctuation between words, a
newline about every 80 characters). The bytes depend only on this file
(random.Random with a fixed seed), so two runs time the same input. They are
not the lipsum texts: figures from them are not comparable with figures from
the lipsum files, and report.py names the inputs "-Generated".
"""

import os
import random
import sys

# name: (size in bytes, share of ASCII characters, letter ranges (first, last))
SCRIPTS = {
    "Arabic": (81685, 0.215, [(0x0621, 0x064A)]),
    "Chinese": (69840, 0.012, [(0x4E00, 0x9FA5)]),
    "Emoji": (65542, 0.0, [(0x1F300, 0x1F5FF), (0x1F600, 0x1F64F)]),
    "Hebrew": (66495, 0.218, [(0x05D0, 0x05EA)]),
    "Hindi": (87997, 0.157, [(0x0905, 0x0939), (0x093E, 0x094C)]),
    "Japanese": (67808, 0.049, [(0x3041, 0x3096), (0x30A1, 0x30FA), (0x4E00, 0x9FA5)]),
    "Korean": (66600, 0.270, [(0xAC00, 0xD7A3)]),
    "Latin": (86940, 1.0, [(0x61, 0x7A)]),
    "Russian": (104770, 0.193, [(0x0430, 0x044F)]),
}


def text(name, size, ascii_share, ranges, rng):
    """Words of script letters separated by ASCII, until size bytes."""
    out = []
    n = 0
    column = 0
    word = 0
    while n < size:
        if ascii_share < 1.0 and rng.random() >= ascii_share:
            first, last = rng.choice(ranges)
            ch = chr(rng.randint(first, last))
            word += 1
        elif ascii_share == 1.0 and (word < 2 or rng.random() < 0.83):
            ch = chr(rng.randint(0x61, 0x7A))  # Latin: lowercase words
            word += 1
        else:
            r = rng.random()
            ch = "." if word and r < 0.08 else "," if word and r < 0.13 else " "
            word = 0
            if column >= 80 and ch == " ":
                ch, column = "\n", -1
        b = ch.encode("utf-8")
        if n + len(b) > size:
            break
        out.append(ch)
        n += len(b)
        column += 1
    return "".join(out)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_texts.py DIR")
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    for name, (size, share, ranges) in SCRIPTS.items():
        rng = random.Random(f"utf8guard-bench-{name}")
        data = text(name, size, share, ranges, rng).encode("utf-8")
        path = os.path.join(folder, f"{name}-Generated.txt")
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)


if __name__ == "__main__":
    main()
