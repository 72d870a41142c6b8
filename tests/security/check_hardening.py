#!/usr/bin/env python3
"""check_hardening.py --cli PATH | --skip REASON

Reads the built utf8guard CLI with readelf and checks what cmake/Hardening.cmake
promises (SECURITY.md, "Hardening"):

  PIE             ELF type DYN, so ASLR moves the code as well as the stack and heap
  BIND_NOW        FLAGS has BIND_NOW or FLAGS_1 has NOW: every symbol is resolved at
                  load time, so the GOT can be read-only for the whole run
  GNU_RELRO       a PT_GNU_RELRO segment: the GOT and other relocated data are
                  made read-only after relocation (with BIND_NOW: "full RELRO")
  noexecstack     PT_GNU_STACK without the execute bit
  stack protector __stack_chk_fail is referenced: -fstack-protector-strong put a
                  canary in at least one function (the CLI's read loops keep
                  buffers and address-taken locals on the stack)

It also reports, without failing, whether fortified __*_chk calls and the
control-flow property note (x86 IBT/SHSTK, AArch64 BTI/PAC) are present: the
first depends on what the code calls, the second on every linked object (crt
files, libstdc++) carrying the note, which the toolchain decides.

Exit 0 when every check passes, 1 otherwise, 77 (ctest "skipped") with --skip.
"""
import argparse
import re
import shutil
import subprocess
import sys


def readelf(args, path):
    tool = shutil.which("readelf")
    if tool is None:
        print("FAIL: readelf not found (binutils is a build dependency)")
        sys.exit(1)
    return subprocess.run([tool, "-W", *args, path], check=True, capture_output=True,
                          text=True).stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli")
    ap.add_argument("--skip")
    ap.add_argument("--run-with", help="ignored: readelf reads any architecture")
    opts = ap.parse_args()
    if opts.skip:
        print(f"SKIPPED: {opts.skip}")
        return 77

    path = opts.cli
    header = readelf(["-h"], path)
    dynamic = readelf(["-d"], path)
    segments = readelf(["-l"], path)
    dynsyms = readelf(["--dyn-syms"], path)
    symbols = readelf(["-s"], path)

    checks = []
    elf_type = re.search(r"^\s*Type:\s+(\S+)", header, re.M)
    checks.append(("PIE (ELF type DYN)", elf_type is not None and elf_type.group(1) == "DYN",
                   elf_type.group(0).strip() if elf_type else "no Type line"))

    flags = re.search(r"\(FLAGS\)\s+(.*)", dynamic)
    flags_1 = re.search(r"\(FLAGS_1\)\s+(.*)", dynamic)
    bind_now = bool(re.search(r"\(BIND_NOW\)", dynamic)) or \
        (flags is not None and "BIND_NOW" in flags.group(1).split()) or \
        (flags_1 is not None and "NOW" in flags_1.group(1).split())
    checks.append(("BIND_NOW (-z now)", bind_now,
                   "; ".join(m.group(0).strip() for m in (flags, flags_1) if m) or "no FLAGS"))

    checks.append(("GNU_RELRO segment (-z relro)", re.search(r"^\s*GNU_RELRO\s", segments, re.M)
                   is not None, "PT_GNU_RELRO"))

    stack = re.search(r"^\s*GNU_STACK\s.*\s(R?W?E?)\s+0x[0-9a-f]+\s*$", segments, re.M)
    checks.append(("non-executable stack", stack is not None and "E" not in stack.group(1),
                   stack.group(0).split()[-2] if stack else "no GNU_STACK"))

    chk = "__stack_chk_fail" in dynsyms or "__stack_chk_fail" in symbols
    checks.append(("stack protector (__stack_chk_fail referenced)", chk, "symbol table"))

    failed = 0
    for name, ok, detail in checks:
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")
        failed += not ok

    fortified = sorted(set(re.findall(r"\b(__\w+_chk)\b", dynsyms)) - {"__stack_chk_fail"})
    print(f"info fortified calls: {', '.join(fortified) if fortified else 'none referenced'}")
    try:
        notes = readelf(["-n"], path)
        prop = re.search(r"(x86|AArch64) feature: (.*)", notes)
        print("info control-flow property note: " +
              (f"{prop.group(1)} {prop.group(2)}" if prop else "absent"))
    except subprocess.CalledProcessError:
        pass

    print(f"{path}: {len(checks) - failed} of {len(checks)} hardening checks pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
