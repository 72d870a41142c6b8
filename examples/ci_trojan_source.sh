#!/usr/bin/env bash
# ci_trojan_source.sh [REPO] - the CI step that refuses Trojan Source
# (CVE-2021-42574): bidi controls that make code read differently from how it
# compiles, and with them NUL, control characters (ESC), C1 controls and a
# BOM past a file's first byte, in every file git tracks.
#
#   - name: No Trojan Source
#     run: examples/ci_trojan_source.sh
#
# -z and -0 carry any file name (spaces, newlines); -r runs nothing in an
# empty repository (utf8guard would read standard input); -- keeps a file
# named "-x" a file. xargs turns any status 1-125 of utf8guard into 123, so
# the job reads the reason from utf8guard's own lines: "disallowed ..." for a
# character, "utf8guard: FILE: ..." on standard error for an unreadable file.
set -uo pipefail
utf8guard=${UTF8GUARD:-utf8guard}
cd "${1:-.}" || exit 2
git ls-files -z | xargs -0 -r "$utf8guard" check --profile source --
status=$?
case $status in
  0)
    echo "ci_trojan_source: ok: no bidi controls, control characters or stray BOMs"
    exit 0
    ;;
  123)
    echo "ci_trojan_source: FAILED: fix the characters (or files) named above" >&2
    exit 1
    ;;
  *)
    echo "ci_trojan_source: ERROR: the check did not run (status $status)" >&2
    exit 2
    ;;
esac
