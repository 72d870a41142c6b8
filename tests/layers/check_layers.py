#!/usr/bin/env python3
"""check_layers.py - the folders of src/ include only what lies below them.

HACKING.md draws the layers as a block that starts with the line
"Layers, top to bottom" and lists one layer a line, its folders separated by
commas. This script reads that block, then every #include "FOLDER/..." of
every file under src/, and fails on an include that points up or sideways
to another folder of the same layer, on a folder of src/ the block leaves
out, and on a layer the block names that src/ does not have. So the diagram
and the includes cannot drift apart.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def layers_from_hacking(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    start = next(i for i, line in enumerate(lines) if "Layers, top to bottom" in line)
    layers = []
    for line in lines[start + 1:]:
        text = line.strip()
        if text.startswith("```"):
            if layers:
                break
            continue
        if not text:
            if layers:
                break
            continue
        layers.append([name.strip() for name in text.split("(")[0].split(",") if name.strip()])
    return layers


def main():
    src = os.path.join(ROOT, "src")
    layers = layers_from_hacking(os.path.join(ROOT, "HACKING.md"))
    rank = {folder: len(layers) - i for i, layer in enumerate(layers) for folder in layer}
    folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    problems = []
    for folder in folders:
        if folder not in rank:
            problems.append("src/%s/ is in no layer of HACKING.md's diagram" % folder)
    for folder in rank:
        if folder not in folders:
            problems.append("HACKING.md's diagram names %s, which src/ does not have" % folder)
    include = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.M)
    for folder in folders:
        for dirpath, _, files in os.walk(os.path.join(src, folder)):
            for name in files:
                path = os.path.join(dirpath, name)
                text = open(path, encoding="utf-8", errors="replace").read()
                for target in include.findall(text):
                    if target == folder or target not in rank or folder not in rank:
                        continue
                    if rank[target] >= rank[folder]:
                        problems.append("%s includes %s/, which is not below %s/" % (
                            os.path.relpath(path, ROOT), target, folder))
    for p in problems:
        print("check_layers: " + p)
    print("check_layers: %d folders in %d layers, %d problem(s)" % (len(folders), len(layers), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
