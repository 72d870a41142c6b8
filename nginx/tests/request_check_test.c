/* request_check_test.c - the module's decisions (src/request_check.h)
 * without nginx: the rules' defaults and how directive values read, which
 * rule a Content-Type selects, header labels, the findings' words (the
 * contract's examples), and a body streamed in any chunks giving the finding
 * of the whole body. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "request_check.h"

static int failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
      failures++;                                                              \
    }                                                                          \
  } while (0)

static void check_text(const char* got, const char* want, int line) {
  if (strcmp(got, want) != 0) {
    fprintf(stderr, "%s:%d: got \"%s\"\n  want \"%s\"\n", __FILE__, line, got, want);
    failures++;
  }
}
#define CHECK_TEXT(got, want) check_text(got, want, __LINE__)

static void test_defaults(void) {
  ug_rule r = ug_rule_default(UG_SLOT_TARGET);
  CHECK(r.on && r.percent && r.policy == UTF8GUARD_PROFILE_URL);
  r = ug_rule_default(UG_SLOT_HEADERS);
  CHECK(r.on && !r.percent && r.policy == UTF8GUARD_PROFILE_FIELD);
  r = ug_rule_default(UG_SLOT_BODY_FORM);
  CHECK(r.on && r.percent &&
        r.policy == (UTF8GUARD_PROFILE_URL & ~(utf8guard_policy)UTF8GUARD_CATEGORY_NEWLINE));
  r = ug_rule_default(UG_SLOT_BODY_JSON);
  CHECK(r.on && !r.percent && r.policy == UTF8GUARD_PROFILE_JSON);
  r = ug_rule_default(UG_SLOT_BODY_TEXT);
  CHECK(r.on && !r.percent && r.policy == UTF8GUARD_PROFILE_STRICT);
  r = ug_rule_default(UG_SLOT_BODY_OTHER);
  CHECK(!r.on);
  CHECK(strcmp(ug_slot_directive(UG_SLOT_BODY_JSON), "utf8guard_body_json") == 0);
  CHECK(ug_slot_directive(UG_SLOT_COUNT) == NULL);
}

static void test_rule_parse(void) {
  ug_rule r = ug_rule_default(UG_SLOT_HEADERS);
  size_t at = 99, len = 99;
  CHECK(ug_rule_parse(UG_SLOT_HEADERS, "off", 3, &r, &at, &len) && !r.on);
  CHECK(ug_rule_parse(UG_SLOT_HEADERS, "field,-newline", 14, &r, &at, &len));
  CHECK(r.on && !r.percent &&
        r.policy == (UTF8GUARD_PROFILE_FIELD & ~(utf8guard_policy)UTF8GUARD_CATEGORY_NEWLINE));
  CHECK(ug_rule_parse(UG_SLOT_TARGET, "strict", 6, &r, &at, &len));
  CHECK(r.on && r.percent && r.policy == 0);
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

static void test_body_slot(void) {
  static const struct {
    const char* type;
    ug_slot slot;
  } cases[] = {
      {"application/x-www-form-urlencoded", UG_SLOT_BODY_FORM},
      {"Application/X-WWW-Form-Urlencoded; charset=UTF-8", UG_SLOT_BODY_FORM},
      {"application/json", UG_SLOT_BODY_JSON},
      {" application/json ;charset=\"utf-8\"", UG_SLOT_BODY_JSON},
      {"application/problem+json", UG_SLOT_BODY_JSON},
      {"application/+json", UG_SLOT_BODY_OTHER},
      {"application/jsonx", UG_SLOT_BODY_OTHER},
      {"text/plain", UG_SLOT_BODY_TEXT},
      {"TEXT/CSV; header=present", UG_SLOT_BODY_TEXT},
      {"text/plain; charset=us-ascii", UG_SLOT_BODY_TEXT},
      {"text/plain; charset=iso-8859-1", UG_SLOT_BODY_OTHER},
      {"application/json; charset=windows-1252", UG_SLOT_BODY_OTHER},
      {"text/", UG_SLOT_BODY_OTHER},
      {"multipart/form-data; boundary=x", UG_SLOT_BODY_OTHER},
      {"application/octet-stream", UG_SLOT_BODY_OTHER},
      {"", UG_SLOT_BODY_OTHER},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ug_slot got = ug_body_slot(cases[i].type, strlen(cases[i].type));
    if (got != cases[i].slot) {
      fprintf(stderr, "ug_body_slot(\"%s\") = %d, want %d\n", cases[i].type, (int)got,
              (int)cases[i].slot);
      failures++;
    }
  }
  CHECK(ug_body_slot(NULL, 0) == UG_SLOT_BODY_OTHER);
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
  ug_rule strict = {true, false, 0};
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
  ug_rule off = {false, false, 0};
  CHECK(!ug_check_part(&off, "path", "\xff", 1, &f));
}

/* ---- Streams: any chunking gives the whole body's finding ---- */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

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
                                     "\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d"};
static const size_t piece_len[] = {1, 5, 1, 2, 1, 1, 1, 2, 2, 3, 3, 3,  3, 4, 4, 2, 6, 4,
                                   1, 1, 2, 1, 2, 3, 3, 5, 6, 9, 6, 12, 3, 1, 1, 1, 6, 8};

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
            ncuts + 1, (int)rule->percent, ready, ready == 1 ? got.text : "", found,
            found ? want.text : "");
    failures++;
  }
}

static void test_streams(void) {
  ug_rule rules[4] = {ug_rule_default(UG_SLOT_BODY_FORM),
                      ug_rule_default(UG_SLOT_BODY_JSON),
                      ug_rule_default(UG_SLOT_HEADERS),
                      {true, false, 0}};
  size_t cuts[200];
  char data[200];
  for (int round = 0; round < 3000; round++) {
    size_t prefix = round % 3 == 0 ? (size_t)(rng() % 100) : 0;
    size_t len = random_input(data, sizeof data, prefix);
    const ug_rule* rule = &rules[round % 4];
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
}

int main(void) {
  test_defaults();
  test_rule_parse();
  test_body_slot();
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
