// help.cpp - --help and --version. Keep the option list in step with the man
// page: tests/cli compares the two.
#include "help.hpp"

#include <utf8guard/utf8guard.hpp>

namespace utf8guard::cli {

namespace {

// kHelpBeforeCategories is --help up to its list of categories, which the
// library's names make (category_list below).
constexpr std::string_view kHelpBeforeCategories =
    R"(Usage: utf8guard check [--format FORMAT | --json] [--all] [--quiet]
                       [--max-errors N] [-j N] [--profile NAME] [--deny LIST]
                       [--percent | --json-text] [--hints] [--lines]
                       [--skip-binary] [--skip-special]
                       [FILE... | --files0-from LIST]
       utf8guard sanitize [--profile NAME] [--deny LIST] [--json-text] [FILE|-]
       utf8guard --help | -h | help
       utf8guard --version

Strict UTF-8 validation (RFC 3629, Unicode Table 3-7) with exact error
reports, and U+FFFD replacement by the maximal-subpart rule.
With no FILE, or when FILE is -, read standard input. A pipe or terminal is
checked as it arrives, and each finding is out as soon as its bytes are.

Commands:
  check           check that each FILE is well-formed UTF-8; say where not
  sanitize        copy FILE to standard output with each maximal subpart
                  (ill-formed sequence) replaced by U+FFFD; well-formed
                  bytes are never changed
  help            show this help

Options of check (before, between or after the FILEs; -- ends the options):
  --all           report every error of each input, not only the first, and
                  print a summary line to standard error at the end
  --max-errors N  report at most N errors per input (N >= 1; also without
                  --all), then stop reading it (with --all, whose summary
                  counts every error, it is read to its end)
  --format FORMAT text (the default), json, sarif (SARIF 2.1.0, for code
                  scanning), github (workflow commands: annotations) or
                  gitlab (a Code Quality report); see "CI formats" below
  --json          print one JSON object per input, one per line (JSON Lines):
                  --format json
  --quiet         print nothing on standard output; the exit status answers.
                  Reading stops at the first finding; later inputs are only
                  opened (one that cannot be is still status 2)
  --lines         each line is a record: its own end (a raw LF, or CR LF) is
                  not checked against the policy; every other line break is
  --skip-binary   pass over an input with a NUL in its first 8000 bytes
                  (git's rule for a binary file)
  --skip-special  pass over a named input that is not a regular file (a
                  folder, a link to one, a FIFO, a socket, a device)
  -j N, --jobs N  use N threads (0, the default: one per usable CPU): N files
                  at once, or a large file in N sections; the output is the
                  same as with -j 1. By default files are shared out only
                  once what is left is worth starting threads for
  --files0-from LIST
                  check the files named in LIST (- for standard input), each
                  name followed by a NUL byte, as "git ls-files -z" and
                  "find -print0" write them: one process, one summary, one
                  exit status. No FILE operands with it (a usage error). An
                  empty name, a name "-" when LIST is standard input, and a
                  last name not followed by NUL are reported in their place
                  (status 2); the other names are still checked.
  --hints         after each ill-formed sequence, name what probably wrote it
                  and the value it meant: [cesu8_pair U+1F600]
  --percent       the input is percent-encoded (URLs, form data, access logs):
                  check it decoded (%XX is the byte XX), and report where in
                  the encoded input: see "With --percent" below. A file is
                  not cut into sections (-j still shares out files)
Options of check and sanitize:
  --json-text     the input is JSON text (a request body, a .json file):
                  check it with its escapes decoded (\u00e9 is U+00E9), and
                  report where in the text as written: see "With
                  --json-text" below. sanitize writes JSON text: a finding
                  at an escape becomes \ufffd. Not with --percent
  --profile NAME  also refuse (sanitize: replace) the characters of a profile:
                  strict (none, the default), source, field, json, url
  --deny LIST     also refuse the characters of these categories, a comma-
                  separated list, added to the profile's; -NAME allows
                  them again (--profile field --deny=-newline)
Other options:
  -h, --help      show this help and exit
  --version       show the version and the validation kernel, and exit

Text output, one line per error:
  PATH:LINE:COLUMN: KIND at byte OFFSET (HEX BYTES)
  LINE counts LF bytes (from 1); COLUMN counts code points since the last LF
  (from 1; an ill-formed sequence counts as one); OFFSET counts bytes from 0;
  HEX BYTES are the input's bytes from OFFSET, 4 in all (fewer at its end).
  PATH is the FILE as given, - for standard input.

JSON output, one object per input, on one line:
  {"path":"a.txt","valid":false,"bytes":1234,"errors":[{"offset":17,"length":1,
   "kind":"overlong","line":2,"column":5}]}
  A path that is not UTF-8 is shown with U+FFFD in place of its bad bytes.
  One that cannot be read: {"path":"a.txt","error":"No such file or directory"}

CI formats: each finding says what its text line says after PATH:LINE:COLUMN:,
  and an input that cannot be read is a finding of the rule "unreadable".
  sarif   one SARIF 2.1.0 log: a rule (with help) per kind and category, each
          result with startLine, startColumn (columnKind unicodeCodePoints),
          byteOffset, byteLength, the hint, and partialFingerprints
  github  ::error file=a.c,line=2,col=11,title=utf8guard disallowed-bidi::...
  gitlab  [{"description":...,"check_name":...,"fingerprint":...,
           "severity":"major","location":{"path":...,"lines":{"begin":2}}}]

A character a policy denies (well-formed, but not wanted), in text:
  PATH:LINE:COLUMN: disallowed CATEGORY U+XXXX at byte OFFSET (HEX BYTES)
  and in JSON: "kind":"disallowed","category":"bidi","code_point":"U+202E".
--hints appends " [HINT U+XXXX]" (or " [HINT]") to an error's text line, and
  "hint":"overlong_form","hint_value":"U+002F" to its JSON object.

With --percent, the decoded bytes are checked, and an error's OFFSET and
  LENGTH count encoded bytes (%C0 is 3 long), LINE counts raw LF bytes (%0A
  is not a line break) and COLUMN is bytes since the last raw LF (from 1).
  HEX BYTES and hints are decoded bytes. bad_escape is a % without two hex
  digits (a literal % when allowed), double_encoding a %25 followed by two
  hex digits (%255c). The url profile denies both, and raw line breaks:
  printf '/..%%c0%%af../' | utf8guard check --percent --profile url --hints
  -:1:4: overlong at byte 3 (C0 AF 2E 2E) [overlong_form U+002F]

With --json-text, escapes are decoded (\" \\ \/ \b \f \n \r \t, \uXXXX, and a
  high and a low surrogate escape as one character) and the characters held
  to the rules of raw bytes and the policy. OFFSET, LENGTH, LINE and COLUMN
  count the text as written, as with --percent (\n is not a line break). A
  lone surrogate escape is a surrogate error under every policy; bad_escape
  is a backslash that starts no escape (a literal backslash when allowed).
  A finding at an escape shows it as written and its code point:
  printf '{"a":"x\\ud800y"}' | utf8guard check --json-text
  -:1:8: surrogate \ud800 U+D800 at byte 7 (ED A0 80 79)

Error kinds: unexpected_continuation, overlong, surrogate, too_large,
  invalid_byte, truncated, incomplete, and disallowed under a policy.
)";

// kHelpAfterCategories follows the list of categories.
constexpr std::string_view kHelpAfterCategories =
    R"(Profiles: source = nul,control,c1,bidi,bom; field = source + newline,
  noncharacter; json = noncharacter; url = nul,control,newline,c1,bidi,
  bad_escape,double_encoding.
Hints: utf16_bom, modified_utf8_nul, overlong_form, cesu8_pair,
  surrogate_code_point, beyond_unicode, windows1252.
The --all summary, on standard error:
  utf8guard: 3 files, 1234 bytes, 5 errors (overlong 2, truncated 3)
  It counts the inputs read to the end and every error found in them,
  also those --max-errors leaves unprinted.

Exit status:
  check     0 every input is well-formed; 1 some input is not (or holds a
            denied character); 2 a usage error (an unknown profile or
            category too) or an I/O error (missing file, directory, read or
            write error, a --files0-from LIST that cannot be read or holds a
            bad name).
            2 wins over 1, and the other inputs are still checked.
  sanitize  0 done; 2 a usage error (--percent is one: only check decodes
            percent-encoding) or an I/O error (reading or writing).
  When standard output is a pipe whose reader has gone (EPIPE, as in
  "utf8guard sanitize big | head -c1"), utf8guard stops at once, prints
  nothing more and exits with status 2. Any other write error is reported.

Environment:
  UTF8GUARD_KERNEL  force a validation kernel (scalar, sse42, avx2, avx512bw,
                    avx512, neon; "best" picks the fastest); one that is unknown
                    or not usable on this CPU is an error (status 2).
)";

// kGlosses says a few words on the categories whose name says too little.
struct gloss {
  category c;
  std::string_view text;
};
constexpr gloss kGlosses[] = {
    {category::control, "C0 and DEL, less TAB and the line breaks"},
    {category::newline, "LF VT FF CR NEL LS PS"},
    {category::bidi, "Trojan Source"},
    {category::bom, "U+FEFF but at byte 0"},
    {category::replacement, "U+FFFD"},
    {category::double_encoding, "percent-encoded input only"},
};

// category_list is "Categories: " and every category the library names, in
// bit order, each with its gloss, wrapped at kWidth columns.
std::string category_list() {
  constexpr std::size_t kWidth = 78;
  std::string words;
  for (std::size_t k = 0; k < category_count; ++k) {
    const auto c = static_cast<category>(1u << k);
    if (k != 0) words.append(k + 1 == category_count ? " and " : ", ");
    words.append(to_string(c));
    for (const gloss& g : kGlosses) {
      if (g.c == c) words.append(" (").append(g.text).append(")");
    }
  }
  words.push_back('.');
  std::string out = "Categories:";
  std::size_t column = out.size();
  for (std::size_t at = 0; at < words.size();) {
    std::size_t end = words.find(' ', at);
    if (end == std::string::npos) end = words.size();
    const std::size_t len = end - at;
    if (column + 1 + len > kWidth) {
      out.append("\n ");
      column = 1;
    }
    out.push_back(' ');
    out.append(words, at, len);
    column += 1 + len;
    at = end + 1;
  }
  return out + "\n";
}

}  // namespace

std::string_view help_text() {
  static const std::string text =
      std::string(kHelpBeforeCategories) + category_list() + std::string(kHelpAfterCategories);
  return text;
}

std::string version_text() {
  std::string text = "utf8guard ";
  text.append(version());
  text.append("\nkernel: ");
  text.append(active_kernel());
  text.append(" (usable:");
  for (const kernel_info& k : kernels()) {
    if (!k.usable) continue;
    text.push_back(' ');
    text.append(k.name);
  }
  text.append(")\n");
  return text;
}

std::string_view usage_hint() { return "try 'utf8guard --help' for more information"; }

}  // namespace utf8guard::cli
