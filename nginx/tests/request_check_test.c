/* request_check_test.c - the module's decisions (src/request_check.h)
 * without nginx: the rules' defaults and how directive values read, which
 * rule a Content-Type selects, header labels, the findings' words (the
 * contract's examples), and a body streamed in any chunks giving the finding
 * of the whole body. The tables state the core's answers: the defaults, what
 * each Content-Type means, the request-shape findings. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "request_check.h"
#include "unit_check.h"

static void check_text(const char* got, const char* want, int line) {
  if (strcmp(got, want) != 0) {
    fprintf(stderr, "%s:%d: got \"%s\"\n  want \"%s\"\n", __FILE__, line, got, want);
    failures++;
  }
}
#define CHECK_TEXT(got, want) check_text(got, want, __LINE__)

/* The rules' defaults: the one place they are stated besides the core. */
static void test_defaults(void) {
  static const struct {
    ug_slot slot;
    const char* directive;
    bool on;
    ug_encoding encoding;
    utf8guard_policy policy;
  } cases[] = {
      {UG_SLOT_TARGET, "utf8guard_target", true, UG_ENCODING_PERCENT, UTF8GUARD_PROFILE_URL},
      {UG_SLOT_HEADERS, "utf8guard_headers", true, UG_ENCODING_RAW, UTF8GUARD_PROFILE_FIELD},
      {UG_SLOT_BODY_FORM, "utf8guard_body_form", true, UG_ENCODING_PERCENT,
       UTF8GUARD_PROFILE_URL & ~(utf8guard_policy)UTF8GUARD_CATEGORY_NEWLINE},
      {UG_SLOT_BODY_JSON, "utf8guard_body_json", true, UG_ENCODING_JSON,
       UTF8GUARD_PROFILE_JSON | UTF8GUARD_CATEGORY_NUL | UTF8GUARD_CATEGORY_BIDI |
           UTF8GUARD_CATEGORY_BAD_ESCAPE},
      {UG_SLOT_BODY_TEXT, "utf8guard_body_text", true, UG_ENCODING_RAW, UTF8GUARD_PROFILE_STRICT},
      {UG_SLOT_BODY_OTHER, "utf8guard_body_other", false, UG_ENCODING_RAW, 0},
      {UG_SLOT_BODY_NONE, "utf8guard_body_none", true, UG_ENCODING_RAW, UTF8GUARD_PROFILE_STRICT},
      {UG_SLOT_BODY_FILE, "utf8guard_body_file", false, UG_ENCODING_RAW, 0},
  };
  CHECK(sizeof cases / sizeof cases[0] == UG_SLOT_COUNT);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ug_rule r = ug_rule_default(cases[i].slot);
    if (r.on != cases[i].on || r.encoding != cases[i].encoding ||
        (r.on && r.policy != cases[i].policy) ||
        strcmp(ug_slot_directive(cases[i].slot), cases[i].directive) != 0) {
      fprintf(stderr, "default of %s: on %d encoding %d policy %#x\n", cases[i].directive,
              (int)r.on, (int)r.encoding, (unsigned)r.policy);
      failures++;
    }
  }
  CHECK(ug_slot_directive(UG_SLOT_COUNT) == NULL);
}

static void test_rule_parse(void) {
  ug_rule r = ug_rule_default(UG_SLOT_HEADERS);
  size_t at = 99, len = 99;
  CHECK(ug_rule_parse(UG_SLOT_HEADERS, "off", 3, &r, &at, &len) && !r.on);
  CHECK(ug_rule_parse(UG_SLOT_HEADERS, "field,-newline", 14, &r, &at, &len));
  CHECK(r.on && r.encoding == UG_ENCODING_RAW &&
        r.policy == (UTF8GUARD_PROFILE_FIELD & ~(utf8guard_policy)UTF8GUARD_CATEGORY_NEWLINE));
  CHECK(ug_rule_parse(UG_SLOT_TARGET, "strict", 6, &r, &at, &len));
  CHECK(r.on && r.encoding == UG_ENCODING_PERCENT && r.policy == 0);
  CHECK(ug_rule_parse(UG_SLOT_BODY_OTHER, "nul,bidi", 8, &r, &at, &len));
  CHECK(r.on && r.policy == (UTF8GUARD_CATEGORY_NUL | UTF8GUARD_CATEGORY_BIDI));
  ug_rule before = r;
  CHECK(!ug_rule_parse(UG_SLOT_HEADERS, "fild", 4, &r, &at, &len) && at == 0 && len == 4);
  CHECK(!ug_rule_parse(UG_SLOT_HEADERS, "url,bogus", 9, &r, &at, &len) && at == 4 && len == 5);
  CHECK(!ug_rule_parse(UG_SLOT_HEADERS, "field,,nul", 10, &r, &at, &len) && at == 6 && len == 0);
  CHECK(!ug_rule_parse(UG_SLOT_HEADERS, "Off", 3, &r, &at, &len));
  CHECK(memcmp(&r, &before, sizeof r) == 0);
  CHECK(!ug_rule_parse(UG_SLOT_COUNT, "off", 3, &r, &at, &len));
}

/* What a Content-Type means: its kind, charset and boundary, the slot whose
 * rule checks the body (by default, and with text charsets as declared), and
 * where a malformed one stops fitting. */
#define NO_CT ((const char*)0)
static void test_media(void) {
  enum {
    F = UG_SLOT_BODY_FORM,
    J = UG_SLOT_BODY_JSON,
    T = UG_SLOT_BODY_TEXT,
    O = UG_SLOT_BODY_OTHER,
    N = UG_SLOT_BODY_NONE,
    M = UG_SLOT_COUNT
  };
  static const struct {
    const char* type;
    ug_media_kind kind;
    ug_charset charset;
    const char* boundary;
    int slot, slot_declared;
    size_t error_offset;
  } cases[] = {
      /* none */
      {NO_CT, UG_MEDIA_NONE, UG_CHARSET_NONE, "", N, N, 0},
      /* forms, whatever charset they declare */
      {"application/x-www-form-urlencoded", UG_MEDIA_FORM, UG_CHARSET_NONE, "", F, F, 0},
      {"Application/X-WWW-Form-Urlencoded; charset=UTF-8", UG_MEDIA_FORM, UG_CHARSET_UTF8, "", F, F,
       0},
      {"application/x-www-form-urlencoded; charset=latin1", UG_MEDIA_FORM, UG_CHARSET_OTHER, "", F,
       F, 0},
      /* JSON, whatever charset it declares (RFC 8259 8.1) */
      {"application/json", UG_MEDIA_JSON, UG_CHARSET_NONE, "", J, J, 0},
      {" application/json ;charset=\"utf-8\"", UG_MEDIA_JSON, UG_CHARSET_UTF8, "", J, J, 0},
      {"application/json; charset=latin1", UG_MEDIA_JSON, UG_CHARSET_OTHER, "", J, J, 0},
      {"application/json; charset=x", UG_MEDIA_JSON, UG_CHARSET_OTHER, "", J, J, 0},
      {"application/json;", UG_MEDIA_JSON, UG_CHARSET_NONE, "", J, J, 0},
      {"application/json ; ; charset=utf-8 ;", UG_MEDIA_JSON, UG_CHARSET_UTF8, "", J, J, 0},
      {"APPLICATION/JSON", UG_MEDIA_JSON, UG_CHARSET_NONE, "", J, J, 0},
      {"application/problem+json", UG_MEDIA_JSON, UG_CHARSET_NONE, "", J, J, 0},
      {"application/vnd.api+JSON; ext=x", UG_MEDIA_JSON, UG_CHARSET_NONE, "", J, J, 0},
      {"image/svg+json", UG_MEDIA_JSON, UG_CHARSET_NONE, "", J, J, 0},
      {"application/x-ndjson", UG_MEDIA_JSON, UG_CHARSET_NONE, "", J, J, 0},
      {"application/ndjson", UG_MEDIA_JSON, UG_CHARSET_NONE, "", J, J, 0},
      {"application/jsonl", UG_MEDIA_JSON, UG_CHARSET_NONE, "", J, J, 0},
      {"application/x-jsonlines", UG_MEDIA_JSON, UG_CHARSET_NONE, "", J, J, 0},
      {"application/json-seq", UG_MEDIA_JSON, UG_CHARSET_NONE, "", J, J, 0},
      {"text/json; charset=iso-8859-1", UG_MEDIA_JSON, UG_CHARSET_OTHER, "", J, J, 0},
      {"application/+json", UG_MEDIA_OTHER, UG_CHARSET_NONE, "", O, O, 0},
      {"application/jsonx", UG_MEDIA_OTHER, UG_CHARSET_NONE, "", O, O, 0},
      /* a quoted ';' or '=' is inside the value; the charset stays UTF-8 */
      {"application/json; x=\"a;charset=latin1\"", UG_MEDIA_JSON, UG_CHARSET_NONE, "", J, J, 0},
      {"text/plain; x=\"a;charset=latin1\"", UG_MEDIA_TEXT, UG_CHARSET_NONE, "", T, T, 0},
      {"text/plain; x=\"q\\\"; charset=latin1\"", UG_MEDIA_TEXT, UG_CHARSET_NONE, "", T, T, 0},
      /* text: checked as UTF-8 unless the operator lets a declared charset choose */
      {"text/plain", UG_MEDIA_TEXT, UG_CHARSET_NONE, "", T, T, 0},
      {"TEXT/CSV; header=present", UG_MEDIA_TEXT, UG_CHARSET_NONE, "", T, T, 0},
      {"text/plain; charset=us-ascii", UG_MEDIA_TEXT, UG_CHARSET_UTF8, "", T, T, 0},
      {"text/plain; CHARSET=utf_8", UG_MEDIA_TEXT, UG_CHARSET_UTF8, "", T, T, 0},
      {"text/plain; charset=\"UTF8\"", UG_MEDIA_TEXT, UG_CHARSET_UTF8, "", T, T, 0},
      {"text/plain; charset=cp65001", UG_MEDIA_TEXT, UG_CHARSET_UTF8, "", T, T, 0},
      {"text/plain; charset=iso-8859-1", UG_MEDIA_TEXT, UG_CHARSET_OTHER, "", T, O, 0},
      {"text/plain;charset=windows-1252", UG_MEDIA_TEXT, UG_CHARSET_OTHER, "", T, O, 0},
      /* multipart/form-data: read part by part, with its boundary */
      {"multipart/form-data; boundary=x", UG_MEDIA_MULTIPART, UG_CHARSET_NONE, "x", M, M, 0},
      {"Multipart/Form-Data; BOUNDARY=\"----a b\\\"c\"", UG_MEDIA_MULTIPART, UG_CHARSET_NONE,
       "----a b\"c", M, M, 0},
      {"multipart/mixed; boundary=x", UG_MEDIA_OTHER, UG_CHARSET_NONE, "x", O, O, 0},
      /* others */
      {"application/octet-stream", UG_MEDIA_OTHER, UG_CHARSET_NONE, "", O, O, 0},
      {"image/png", UG_MEDIA_OTHER, UG_CHARSET_NONE, "", O, O, 0},
      /* malformed: the "none" rule (the caller refuses or logs them) */
      {"", UG_MEDIA_MALFORMED, UG_CHARSET_NONE, "", N, N, 0},
      {"text/", UG_MEDIA_MALFORMED, UG_CHARSET_NONE, "", N, N, 5},
      {"json", UG_MEDIA_MALFORMED, UG_CHARSET_NONE, "", N, N, 4},
      {"application/json x", UG_MEDIA_MALFORMED, UG_CHARSET_NONE, "", N, N, 17},
      {"application/octet-stream, application/x-www-form-urlencoded", UG_MEDIA_MALFORMED,
       UG_CHARSET_NONE, "", N, N, 24},
      {"application/json; charset", UG_MEDIA_MALFORMED, UG_CHARSET_NONE, "", N, N, 25},
      {"application/json; charset=", UG_MEDIA_MALFORMED, UG_CHARSET_NONE, "", N, N, 26},
      {"application/json; charset=\"utf-8", UG_MEDIA_MALFORMED, UG_CHARSET_NONE, "", N, N, 32},
      {"application/json; charset=utf-8; charset=latin1", UG_MEDIA_MALFORMED, UG_CHARSET_NONE, "",
       N, N, 33},
      {"application/json; a=\"\x01\"", UG_MEDIA_MALFORMED, UG_CHARSET_NONE, "", N, N, 21},
      {"appl\xc3\xa9/json", UG_MEDIA_MALFORMED, UG_CHARSET_NONE, "", N, N, 4},
      {"multipart/form-data", UG_MEDIA_MALFORMED, UG_CHARSET_NONE, "", N, N, 19},
      {"multipart/form-data; boundary=\"\"", UG_MEDIA_MALFORMED, UG_CHARSET_NONE, "", N, N, 32},
      {"multipart/form-data; boundary=a; boundary=b", UG_MEDIA_MALFORMED, UG_CHARSET_NONE, "", N, N,
       33},
      {"multipart/form-data; boundary="
       "12345678901234567890123456789012345678901234567890123456789012345678901",
       UG_MEDIA_MALFORMED, UG_CHARSET_NONE, "", N, N, 101},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char* type = cases[i].type;
    size_t len = type ? strlen(type) : 0;
    ug_media m;
    bool ok = ug_media_parse(type, len, &m);
    int slot = (int)ug_media_slot(&m, false), declared = (int)ug_media_slot(&m, true);
    bool bad = ok != (cases[i].kind != UG_MEDIA_MALFORMED) || m.kind != cases[i].kind ||
               slot != cases[i].slot || declared != cases[i].slot_declared ||
               (int)ug_body_slot(type, len) != cases[i].slot;
    if (ok && (m.charset != cases[i].charset || strcmp(m.boundary, cases[i].boundary) != 0 ||
               m.boundary_len != strlen(cases[i].boundary)))
      bad = true;
    if (!ok && m.error_offset != cases[i].error_offset) bad = true;
    if (bad) {
      fprintf(
          stderr,
          "ug_media_parse(\"%s\"): ok %d kind %d charset %d boundary \"%s\" slots %d/%d at %zu\n",
          type ? type : "(none)", (int)ok, (int)m.kind, (int)m.charset, m.boundary, slot, declared,
          m.error_offset);
      failures++;
    }
  }
}

/* The request's shape: Content-Type count and form, Content-Encoding,
 * header names. */
static void test_shape(void) {
  ug_finding f;
  ug_media m;
  ug_media_parse("text/plain", 10, &m);
  CHECK(!ug_check_media("text/plain", 10, &m, 1, &f));
  CHECK(ug_check_media("text/plain", 10, &m, 2, &f));
  CHECK_TEXT(f.text, "header Content-Type: 2 headers (parsers disagree on which one counts)");
  CHECK(f.len == strlen(f.text));
  ug_media_parse("application/json x", 18, &m);
  CHECK(ug_check_media("application/json x", 18, &m, 1, &f));
  CHECK_TEXT(f.text, "header Content-Type: malformed media type at byte 17 (78)");
  ug_media_parse("text/\xc0\xaf", 7, &m);
  CHECK(ug_check_media("text/\xc0\xaf", 7, &m, 1, &f));
  CHECK_TEXT(f.text, "header Content-Type: malformed media type at byte 5 (C0 AF)");
  ug_media_parse("text/", 5, &m);
  CHECK(ug_check_media("text/", 5, &m, 1, &f));
  CHECK_TEXT(f.text, "header Content-Type: malformed media type at byte 5 (end)");

  static const struct {
    const char* value;
    const char* finding; /* NULL: readable */
  } codings[] = {
      {"", NULL},
      {"identity", NULL},
      {" Identity , IDENTITY", NULL},
      {"gzip", "header Content-Encoding: body coding \"gzip\" cannot be checked"},
      {"identity, deflate", "header Content-Encoding: body coding \"deflate\" cannot be checked"},
      {"x-gzip,identity", "header Content-Encoding: body coding \"x-gzip\" cannot be checked"},
      {"br", "header Content-Encoding: body coding \"br\" cannot be checked"},
      {"\xc0\xaf", "header Content-Encoding: body coding cannot be checked at byte 0 (C0 AF)"},
  };
  for (size_t i = 0; i < sizeof codings / sizeof codings[0]; i++) {
    size_t len = strlen(codings[i].value);
    bool found = ug_check_coding(codings[i].value, len, &f);
    CHECK(ug_coding_readable(codings[i].value, len) == (codings[i].finding == NULL));
    if (found != (codings[i].finding != NULL) || (found && strcmp(f.text, codings[i].finding))) {
      fprintf(stderr, "ug_check_coding(\"%s\"): %d \"%s\"\n", codings[i].value, (int)found,
              found ? f.text : "");
      failures++;
    }
  }

  static const struct {
    const char* name;
    size_t len;
    const char* finding; /* NULL: a token */
  } names[] = {
      {"Content-Type", 12, NULL},
      {"x-a!#$%&'*+-.^_`|~9", 19, NULL},
      {"X-\xc0\xaf\xe2\x80\xae", 7,
       "header X-\\xC0\\xAF\\xE2\\x80\\xAE: name is no token at byte 2 (C0 AF E2 80)"},
      {"X Y", 3, "header X\\x20Y: name is no token at byte 1 (20 59)"},
      {"a:b", 3, "header a:b: name is no token at byte 1 (3A 62)"},
      {"n\0", 2, "header n\\x00: name is no token at byte 1 (00)"},
      {"", 0, "header : name is no token at byte 0 (end)"},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    bool found = ug_check_header_name(names[i].name, names[i].len, &f);
    if (found != (names[i].finding != NULL) || (found && strcmp(f.text, names[i].finding))) {
      fprintf(stderr, "ug_check_header_name(%zu bytes): %d \"%s\"\n", names[i].len, (int)found,
              found ? f.text : "");
      failures++;
    }
  }
}

static void test_header_label(void) {
  char out[256];
  CHECK(ug_header_label("User-Agent", 10, out, sizeof out) == 17);
  CHECK_TEXT(out, "header User-Agent");
  ug_header_label("a\x01\\ \xc3\xa9", 6, out, sizeof out);
  CHECK_TEXT(out, "header a\\x01\\x5C\\x20\\xC3\\xA9");
  char name[60];
  memset(name, 'n', sizeof name);
  size_t n = ug_header_label(name, sizeof name, out, sizeof out);
  CHECK(n == 7 + 48 + 3 && strcmp(out + n - 4, "n...") == 0);
  CHECK(ug_header_label("Host", 4, out, 8) == 11);
  CHECK_TEXT(out, "header ");
}

/* The contract's examples (docs/design.md, the CLI's text lines). */
static void test_findings(void) {
  ug_finding f;
  ug_rule strict = {true, UG_ENCODING_RAW, 0};
  ug_rule field = ug_rule_default(UG_SLOT_HEADERS);
  ug_rule url = ug_rule_default(UG_SLOT_TARGET);
  CHECK(ug_check_part(&strict, "body", "..\xc0\xaf..", 6, &f));
  CHECK_TEXT(f.text, "body: overlong at byte 2 (C0 AF 2E 2E) [overlong_form U+002F]");
  CHECK(f.len == strlen(f.text));
  CHECK(ug_check_part(&strict, "header Cookie",
                      "a\xed\xa0\xbd\xed\xb8\x80"
                      "b",
                      8, &f));
  CHECK_TEXT(f.text, "header Cookie: surrogate at byte 1 (ED A0 BD ED) [cesu8_pair U+1F600]");
  CHECK(ug_check_part(&field, "header X", "abc\xe2\x80\xae x", 8, &f));
  CHECK_TEXT(f.text, "header X: disallowed bidi U+202E at byte 3 (E2 80 AE 20)");
  CHECK(ug_check_part(&url, "query", "a=%2E%2E%C0%AF", 14, &f));
  CHECK_TEXT(f.text, "query: overlong at byte 8 (C0 AF) [overlong_form U+002F]");
  CHECK(ug_check_part(&url, "path", "/x%E2%80%AEy", 12, &f));
  CHECK_TEXT(f.text, "path: disallowed bidi U+202E at byte 2 (E2 80 AE 79)");
  CHECK(ug_check_part(&url, "query", "q=%2541", 7, &f));
  CHECK_TEXT(f.text, "query: disallowed double_encoding U+0025 at byte 2 (25 34 31)");
  CHECK(!ug_check_part(&url, "path", "/caf%C3%A9/\xe6\x9c\x88", 14, &f));
  CHECK(!ug_check_part(&field, "header A", "\xef\xbb\xbfok", 5, &f)); /* BOM at byte 0 */
  /* JSON bodies in the JSON form: escapes meet the rule as what they decode to. */
  static const struct {
    const char* body;
    const char* finding; /* NULL: clean */
  } json[] = {
      {"{\"a\":\"\\ud800\"}",
       "body: surrogate \\ud800 U+D800 at byte 6 (ED A0 80 22) [surrogate_code_point U+D800]"},
      {"{\"a\":\"\\u202e\"}", "body: disallowed bidi \\u202e U+202E at byte 6 (E2 80 AE 22)"},
      {"{\"a\":\"\\u0000\"}", "body: disallowed nul \\u0000 U+0000 at byte 6 (00 22 7D)"},
      {"{\"a\":\"\\uffff\"}",
       "body: disallowed noncharacter \\uffff U+FFFF at byte 6 (EF BF BF 22)"},
      {"{\"a\":\"\\x41\"}", "body: disallowed bad_escape U+005C at byte 6 (5C 78 34 31)"},
      {"{\"a\":\"\\ud83d\\ude00 \\n\\t\\u00e9 caf\xc3\xa9\"}", NULL},
  };
  ug_rule json_rule = ug_rule_default(UG_SLOT_BODY_JSON);
  for (size_t i = 0; i < sizeof json / sizeof json[0]; i++) {
    bool found = ug_check_part(&json_rule, "body", json[i].body, strlen(json[i].body), &f);
    if (found != (json[i].finding != NULL) || (found && strcmp(f.text, json[i].finding) != 0)) {
      fprintf(stderr, "JSON %s: %d \"%s\"\n", json[i].body, (int)found, found ? f.text : "");
      failures++;
    }
  }
  ug_rule off = {false, UG_ENCODING_RAW, 0};
  CHECK(!ug_check_part(&off, "path", "\xff", 1, &f));
}

/* ---- Streams: any chunking gives the whole body's finding ---- */

static const char* const pieces[] = {"a",
                                     "text ",
                                     "\n",
                                     "\r\n",
                                     "\t",
                                     "\x00",
                                     "\x1b",
                                     "\xc2\x85",
                                     "\xc2\xa0",
                                     "\xe2\x80\xae",
                                     "\xe2\x80\xa8",
                                     "\xef\xbb\xbf",
                                     "\xef\xbf\xbe",
                                     "\xf0\x9f\x98\x80",
                                     "\xf4\x8f\xbf\xbf",
                                     "\xc0\xaf",
                                     "\xed\xa0\xbd\xed\xb8\x80",
                                     "\xf4\x90\x80\x80",
                                     "\xe9",
                                     "\x80",
                                     "\xe2\x80",
                                     "%",
                                     "%4",
                                     "%4G",
                                     "%25",
                                     "%2541",
                                     "%C0%AF",
                                     "%E2%80%AE",
                                     "%e2%80",
                                     "%F0%9F%98%80",
                                     "%0A",
                                     "+",
                                     "=",
                                     "&",
                                     "%C3%A9",
                                     "\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d",
                                     "\\ud800",
                                     "\\ud83d\\ude00",
                                     "\\u202E",
                                     "\\u0000",
                                     "\\n",
                                     "\\\\",
                                     "\\x",
                                     "\\u12"};
static const size_t piece_len[] = {1, 5, 1, 2, 1, 1, 1, 2,  2, 3, 3, 3, 3, 4, 4,
                                   2, 6, 4, 1, 1, 2, 1, 2,  3, 3, 5, 6, 9, 6, 12,
                                   3, 1, 1, 1, 6, 8, 6, 12, 6, 6, 2, 2, 2, 4};

static size_t random_input(char* out, size_t cap, size_t clean_prefix) {
  size_t n = 0;
  while (n < clean_prefix && n < cap) out[n++] = 'x';
  size_t count = 1 + rng() % 12;
  for (size_t i = 0; i < count; i++) {
    size_t k = rng() % (sizeof pieces / sizeof pieces[0]);
    if (n + piece_len[k] > cap) break;
    memcpy(out + n, pieces[k], piece_len[k]);
    n += piece_len[k];
  }
  return n;
}

/* Feeds data in the chunks cuts[] ends, then finishes. */
static int streamed(const ug_rule* rule, const char* data, size_t len, const size_t* cuts,
                    size_t ncuts, ug_finding* f) {
  ug_stream s;
  ug_stream_init(&s, rule);
  size_t at = 0;
  int ready = 0;
  for (size_t i = 0; i <= ncuts; i++) {
    size_t end = i < ncuts ? cuts[i] : len;
    if (ug_stream_feed(&s, data + at, end - at, f)) {
      if (ready) return -1; /* handed out twice */
      ready = 1;
    }
    at = end;
  }
  if (ug_stream_finish(&s, f)) {
    if (ready) return -1;
    ready = 1;
  }
  ug_finding again;
  if (ug_stream_finish(&s, &again) || ug_stream_feed(&s, "\xff", 1, &again)) return -1;
  return ready;
}

static size_t streams_with_findings;

static void check_stream(const ug_rule* rule, const char* data, size_t len, const size_t* cuts,
                         size_t ncuts) {
  ug_finding want, got;
  int found = ug_check_part(rule, "body", data, len, &want);
  int ready = streamed(rule, data, len, cuts, ncuts, &got);
  streams_with_findings += found;
  if (ready != found || (found && strcmp(got.text, want.text) != 0)) {
    fprintf(stderr,
            "stream of %zu bytes in %zu chunks (percent %d): got %d \"%s\", want %d \"%s\"\n", len,
            ncuts + 1, (int)rule->encoding, ready, ready == 1 ? got.text : "", found,
            found ? want.text : "");
    failures++;
  }
}

static void test_streams(void) {
  ug_rule json_every = {true, UG_ENCODING_JSON, (1u << UTF8GUARD_CATEGORY_COUNT) - 1};
  ug_rule rules[5] = {ug_rule_default(UG_SLOT_BODY_FORM),
                      ug_rule_default(UG_SLOT_BODY_JSON),
                      ug_rule_default(UG_SLOT_HEADERS),
                      {true, UG_ENCODING_RAW, 0},
                      json_every};
  size_t cuts[200];
  char data[200];
  for (int round = 0; round < 3000; round++) {
    size_t prefix = round % 3 == 0 ? (size_t)(rng() % 100) : 0;
    size_t len = random_input(data, sizeof data, prefix);
    const ug_rule* rule = &rules[round % 5];
    /* One cut anywhere, 1-byte chunks, and random chunks. */
    for (size_t c = 0; c <= len; c++) {
      cuts[0] = c;
      check_stream(rule, data, len, cuts, 1);
    }
    for (size_t c = 0; c < len; c++) cuts[c] = c + 1;
    check_stream(rule, data, len, cuts, len ? len - 1 : 0);
    size_t n = 0, at = 0;
    while (at < len && n < 199) {
      at += 1 + rng() % 9;
      if (at >= len) break;
      cuts[n++] = at;
    }
    check_stream(rule, data, len, cuts, n);
  }
  CHECK(streams_with_findings > 10000); /* the pieces make most inputs bad */
  CHECK(sizeof pieces / sizeof pieces[0] == sizeof piece_len / sizeof piece_len[0]);
}

/* --defaults: each rule's default, one a line, for the nginx tests (which
 * read them here rather than state them again): DIRECTIVE ENCODING on|off
 * CATEGORIES (comma-separated names, "-" for none). */
static int print_defaults(void) {
  static const char* const encodings[] = {"raw", "percent", "json"};
  for (int slot = 0; slot < UG_SLOT_COUNT; slot++) {
    ug_rule r = ug_rule_default((ug_slot)slot);
    printf("%s %s %s ", ug_slot_directive((ug_slot)slot), encodings[r.encoding],
           r.on ? "on" : "off");
    const char* sep = "";
    for (unsigned bit = 0; bit < UTF8GUARD_CATEGORY_COUNT; bit++) {
      if (r.on && (r.policy & (1u << bit))) {
        printf("%s%s", sep, utf8guard_category_name((utf8guard_category)(1u << bit)));
        sep = ",";
      }
    }
    printf("%s\n", *sep ? "" : "-");
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "--defaults") == 0) return print_defaults();
  test_defaults();
  test_rule_parse();
  test_media();
  test_shape();
  test_header_label();
  test_findings();
  test_streams();
  if (failures) {
    fprintf(stderr, "request_check_test: %d failures\n", failures);
    return 1;
  }
  puts("request_check_test: ok");
  return 0;
}
