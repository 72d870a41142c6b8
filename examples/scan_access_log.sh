#!/usr/bin/env bash
# scan_access_log.sh LOG - finds URL attacks in a web server's access log
# (try samples/access.log): ill-formed UTF-8 behind escapes
# (the IIS overlong slash %c0%af, Tomcat's overlong dot %c0%ae), double
# encoding (%255c), NUL (%00), encoded line breaks (%0d%0a) and bidi
# overrides (%e2%80%ae). The findings of a log line are followed by the line,
# numbered, with a caret under each, so that the request and its client are
# in front of you:
#
#   samples/access.log:3:61: overlong at byte 349 (C0 AF 2E 2E) [overlong_form U+002F]
#   samples/access.log:3:64: unexpected_continuation at byte 352 (AF 2E 2E 2F)
#          3 | 192.0.2.77 - - [27/Nov/2026:10:00:04 +0000] "GET /scripts/..%c0%af../winnt/...
#            |                                                             ^  ^
#
# It runs `utf8guard check --percent --profile url --lines --all --hints LOG`.
# The url profile refuses raw line breaks as well, since a URL component must
# not hold one; --lines makes each log line a record whose own end (its LF,
# or CR LF) is no finding, while an encoded %0A or %0D inside a line, or a raw
# CR elsewhere, is one. The numbers count raw LFs and encoded bytes, so LINE
# is the log's line and COLUMN the byte in it where the escape starts.
# On a live log: tail -f access.log | utf8guard check --percent --profile url --lines --all -
#
# Exit status: 0 no findings, 1 findings, 2 the scan could not run.
set -uo pipefail
utf8guard=${UTF8GUARD:-utf8guard}
if [ $# -ne 1 ]; then
  echo "usage: scan_access_log.sh LOG" >&2
  exit 2
fi
log=$1
errors=$(mktemp) || exit 2
trap 'rm -f "$errors"' EXIT
# The findings come in line order, so awk reads the log and the findings side
# by side (the findings on standard input): memory stays constant however
# large the log. LC_ALL=C: lengths and columns are bytes.
"$utf8guard" check --percent --profile url --lines --all --hints -- "$log" 2>"$errors" |
  LC_ALL=C awk -v prefix="$log:" '
  # next_finding reads the next finding: its text f, line at and column col.
  function next_finding(  rest, pos) {
    while ((getline f < "/dev/stdin") > 0) {
      if (substr(f, 1, length(prefix)) != prefix) continue
      rest = substr(f, length(prefix) + 1)
      split(rest, pos, ":")
      at = pos[1] + 0; col = pos[2] + 0
      return 1
    }
    return 0
  }
  BEGIN { have = next_finding() }
  {
    marks = ""
    for (; have && at == FNR; have = next_finding()) {
      print f
      marks = marks sprintf("%" (col - length(marks)) "s", "^")
      shown++
    }
    if (marks != "") {
      line = $0
      sub(/\r$/, "", line)
      printf "%8d | %s\n%8s | %s\n", FNR, line, "", marks
    }
  }
  END { exit shown == 0 ? 0 : 1 }' "$log"
statuses=("${PIPESTATUS[@]}")
# The findings are above; pass on the other messages (the summary aside).
grep -Ev '^utf8guard: [0-9]+ files?, ' "$errors" >&2
if [ "${statuses[0]}" -ne 0 ] && [ "${statuses[0]}" -ne 1 ]; then
  echo "scan_access_log: ERROR: the check did not run (status ${statuses[0]})" >&2
  exit 2
fi
case ${statuses[1]} in
  0)
    echo "scan_access_log: no findings in $log" >&2
    exit 0
    ;;
  1)
    echo "scan_access_log: findings in $log: each is shown above the log line it points to" >&2
    exit 1
    ;;
  *)
    echo "scan_access_log: ERROR: could not read $log" >&2
    exit 2
    ;;
esac
