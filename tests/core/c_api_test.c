/* c_api_test.c - every function of utf8guard.h, called from C99 and checked.
 *
 * Built with -std=c99 -Wall -Wextra -Werror -pedantic: the header must be
 * plain C99, and every call here is what a C user writes. The validation,
 * streaming and sanitize checks run once per usable kernel. The ctest step
 * c_api_covers_header fails when utf8guard.h declares a function this file
 * does not call (check_c_api_coverage.cmake). */
#include <utf8guard/utf8guard.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"

/* ---- Names, kernels, version: independent of the kernel --------------------- */

static void test_names(void) {
  CHECK(strcmp(utf8guard_error_name(UTF8GUARD_ERROR_NONE), "none") == 0);
  CHECK(strcmp(utf8guard_error_name(UTF8GUARD_ERROR_UNEXPECTED_CONTINUATION),
               "unexpected_continuation") == 0);
  CHECK(strcmp(utf8guard_error_name(UTF8GUARD_ERROR_OVERLONG), "overlong") == 0);
  CHECK(strcmp(utf8guard_error_name(UTF8GUARD_ERROR_SURROGATE), "surrogate") == 0);
  CHECK(strcmp(utf8guard_error_name(UTF8GUARD_ERROR_TOO_LARGE), "too_large") == 0);
  CHECK(strcmp(utf8guard_error_name(UTF8GUARD_ERROR_INVALID_BYTE), "invalid_byte") == 0);
  CHECK(strcmp(utf8guard_error_name(UTF8GUARD_ERROR_TRUNCATED), "truncated") == 0);
  CHECK(strcmp(utf8guard_error_name(UTF8GUARD_ERROR_INCOMPLETE), "incomplete") == 0);
  CHECK(strcmp(utf8guard_error_name(UTF8GUARD_ERROR_INVALID_ARGUMENT), "invalid_argument") == 0);
  CHECK(strcmp(utf8guard_error_name((utf8guard_error)99), "unknown") == 0);

  CHECK(strcmp(utf8guard_status_name(UTF8GUARD_STATUS_OK), "ok") == 0);
  CHECK(strcmp(utf8guard_status_name(UTF8GUARD_STATUS_BUFFER_TOO_SMALL), "buffer_too_small") == 0);
  CHECK(strcmp(utf8guard_status_name(UTF8GUARD_STATUS_OVERFLOW), "overflow") == 0);
  CHECK(strcmp(utf8guard_status_name(UTF8GUARD_STATUS_ILL_FORMED), "ill_formed") == 0);
  CHECK(strcmp(utf8guard_status_name(UTF8GUARD_STATUS_SINK_FAILED), "sink_failed") == 0);
  CHECK(strcmp(utf8guard_status_name(UTF8GUARD_STATUS_INVALID_ARGUMENT), "invalid_argument") == 0);
  CHECK(strcmp(utf8guard_status_name((utf8guard_status)99), "unknown") == 0);

  CHECK(strcmp(utf8guard_version(), UTF8GUARD_VERSION_STRING) == 0);
}

static void test_kernel_list(void) {
  size_t count = utf8guard_kernel_count();
  size_t i;
  bool usable = false;
  const char* before;
  CHECK(count >= 1);
  CHECK(strcmp(utf8guard_kernel_name(0, &usable), "scalar") == 0);
  CHECK(usable);
  CHECK(utf8guard_kernel_name(count, &usable) == NULL);
  for (i = 0; i < count; ++i) CHECK(utf8guard_kernel_name(i, NULL) != NULL);

  before = utf8guard_active_kernel();
  CHECK(!utf8guard_set_kernel("no-such-kernel"));
  CHECK(!utf8guard_set_kernel(""));
  CHECK(!utf8guard_set_kernel(NULL));
  CHECK(strcmp(utf8guard_active_kernel(), before) == 0);

  /* No UTF8GUARD_KERNEL in the environment: nothing to explain. */
  if (getenv("UTF8GUARD_KERNEL") == NULL) CHECK(utf8guard_kernel_env_error() == NULL);
}

/* ---- Validation on the active kernel ---------------------------------------- */

static void test_validate(void) {
  static const char overlong[] = "..\xC0\xAF..";
  CHECK(utf8guard_is_valid("caf\xC3\xA9", 5));
  CHECK(!utf8guard_is_valid(overlong, 6));
  CHECK(utf8guard_is_valid(NULL, 0));
  CHECK(same(utf8guard_validate(NULL, 0), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(same(utf8guard_validate("\xEF\xBB\xBFok", 5), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(same(utf8guard_validate(overlong, 6), UTF8GUARD_ERROR_OVERLONG, 2, 1));
  CHECK(same(utf8guard_validate("a\x80", 2), UTF8GUARD_ERROR_UNEXPECTED_CONTINUATION, 1, 1));
  CHECK(same(utf8guard_validate("\xED\xA0\x80", 3), UTF8GUARD_ERROR_SURROGATE, 0, 1));
  CHECK(same(utf8guard_validate("\xF4\x90\x80\x80", 4), UTF8GUARD_ERROR_TOO_LARGE, 0, 1));
  CHECK(same(utf8guard_validate("\xFF", 1), UTF8GUARD_ERROR_INVALID_BYTE, 0, 1));
  CHECK(same(utf8guard_validate("\xF0\x9F\x98z", 4), UTF8GUARD_ERROR_TRUNCATED, 0, 3));
  CHECK(same(utf8guard_validate("ab\xE2\x82", 4), UTF8GUARD_ERROR_INCOMPLETE, 2, 2));
}

static void test_validator(void) {
  utf8guard_validator v;
  utf8guard_validator_init(&v);
  CHECK(same(utf8guard_validator_feed(&v, NULL, 0), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(same(utf8guard_validator_feed(&v, "ab\xED", 3), UTF8GUARD_ERROR_NONE, 0, 0));
  /* The byte that makes the prefix impossible reports the error at once. */
  CHECK(same(utf8guard_validator_feed(&v, "\xA0", 1), UTF8GUARD_ERROR_SURROGATE, 2, 1));
  CHECK(same(utf8guard_validator_feed(&v, "fine", 4), UTF8GUARD_ERROR_SURROGATE, 2, 1));
  CHECK(same(utf8guard_validator_finish(&v), UTF8GUARD_ERROR_SURROGATE, 2, 1));

  utf8guard_validator_init(&v);
  CHECK(same(utf8guard_validator_feed(&v, "caf", 3), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(same(utf8guard_validator_feed(&v, "\xC3", 1), UTF8GUARD_ERROR_NONE, 0, 0));
  /* "incomplete" waits for the end of the input. */
  CHECK(same(utf8guard_validator_finish(&v), UTF8GUARD_ERROR_INCOMPLETE, 3, 1));

  utf8guard_validator_init(&v);
  CHECK(same(utf8guard_validator_feed(&v, "caf\xC3", 4), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(same(utf8guard_validator_feed(&v, "\xA9!", 2), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(same(utf8guard_validator_finish(&v), UTF8GUARD_ERROR_NONE, 0, 0));
}

static void test_sanitize(void) {
  static const char in[] = "a\xC0\"b\xE2\x82";
  static const char want[] = "a\xEF\xBF\xBD\"b\xEF\xBF\xBD";
  char out[32];
  size_t bound = 0, written = 0, replacements = 0;

  CHECK(utf8guard_sanitize_bound(6, &bound) == UTF8GUARD_STATUS_OK && bound == 18);
  CHECK(utf8guard_sanitize_bound(0, &bound) == UTF8GUARD_STATUS_OK && bound == 0);
  CHECK(utf8guard_sanitize_bound(SIZE_MAX / 3, &bound) == UTF8GUARD_STATUS_OK &&
        bound == SIZE_MAX / 3 * 3);
  CHECK(utf8guard_sanitize_bound(SIZE_MAX / 3 + 1, &bound) == UTF8GUARD_STATUS_OVERFLOW);

  CHECK(utf8guard_sanitize(in, 6, out, sizeof out, &written, &replacements) == UTF8GUARD_STATUS_OK);
  CHECK(written == 9 && memcmp(out, want, 9) == 0 && replacements == 2);
  /* Too small: the exact size needed and the replacements are still told. */
  written = replacements = 0;
  CHECK(utf8guard_sanitize(in, 6, out, 8, &written, &replacements) ==
        UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
  CHECK(written == 9 && replacements == 2);
  CHECK(utf8guard_sanitize(in, 6, NULL, 0, &written, NULL) == UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
  CHECK(written == 9);
  CHECK(utf8guard_sanitize(in, 6, out, 9, NULL, NULL) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_sanitize(NULL, 0, NULL, 0, &written, &replacements) == UTF8GUARD_STATUS_OK);
  CHECK(written == 0 && replacements == 0);
}

static void test_sanitizer(void) {
  utf8guard_sanitizer s;
  struct buffer b = {{0}, 0, 0};
  utf8guard_sanitizer_init(&s);
  CHECK(utf8guard_sanitizer_feed(&s, NULL, 0, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_sanitizer_feed(&s, "x\xF0\x9F", 3, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(buffer_is(&b, "x", 1)); /* the cut emoji is held back */
  CHECK(utf8guard_sanitizer_feed(&s, "\x98\x80\xC0", 3, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_sanitizer_feed(&s, "\xE2", 1, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(buffer_is(&b, "x\xF0\x9F\x98\x80\xEF\xBF\xBD\xEF\xBF\xBD", 11));
  CHECK(utf8guard_sanitizer_replacements(&s) == 2);

  utf8guard_sanitizer_init(&s);
  CHECK(utf8guard_sanitizer_replacements(&s) == 0);
  CHECK(utf8guard_sanitizer_feed(&s, "abc", 3, refuse, NULL) == UTF8GUARD_STATUS_SINK_FAILED);
}

static void test_scanner(void) {
  utf8guard_error_scanner s;
  struct error_list l;
  memset(&l, 0, sizeof l);
  utf8guard_error_scanner_init(&s);
  CHECK(utf8guard_error_scanner_feed(&s, NULL, 0, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_error_scanner_feed(&s, "\x80q\xED", 3, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_error_scanner_feed(&s, "\xA0", 1, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_error_scanner_feed(&s, "\xF0\x90", 2, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_error_scanner_finish(&s, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(l.count == 4);
  CHECK(l.count == 4 && same(l.items[0], UTF8GUARD_ERROR_UNEXPECTED_CONTINUATION, 0, 1));
  CHECK(l.count == 4 && same(l.items[1], UTF8GUARD_ERROR_SURROGATE, 2, 1));
  CHECK(l.count == 4 && same(l.items[2], UTF8GUARD_ERROR_UNEXPECTED_CONTINUATION, 3, 1));
  CHECK(l.count == 4 && same(l.items[3], UTF8GUARD_ERROR_INCOMPLETE, 4, 2));
  CHECK(utf8guard_error_scanner_errors(&s) == 4);

  utf8guard_error_scanner_init(&s);
  CHECK(utf8guard_error_scanner_errors(&s) == 0);
  l.calls = 0;
  CHECK(utf8guard_error_scanner_feed(&s, "\xFF\xFF", 2, stop, &l) == UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(l.calls == 1);
}

/* ---- Code points (no kernel involved) ----------------------------------------- */

static void test_codec(void) {
  uint32_t cp = 0x1234;
  uint32_t cps[4];
  char out[16];
  size_t count = 99, written = 99, bad = 99;
  utf8guard_result err;
  static const uint32_t values[] = {0x24, 0xE9, 0x20AC, 0x1F600};
  static const uint32_t with_surrogate[] = {0x41, 0xD800, 0x42};

  CHECK(same(utf8guard_decode_one("\xF0\x9F\x98\x80", 4, &cp), UTF8GUARD_ERROR_NONE, 0, 4));
  CHECK(cp == 0x1F600);
  cp = 0x1234;
  CHECK(same(utf8guard_decode_one("\xC0\x80", 2, &cp), UTF8GUARD_ERROR_OVERLONG, 0, 1));
  CHECK(cp == 0x1234); /* unchanged on error */
  CHECK(same(utf8guard_decode_one(NULL, 0, &cp), UTF8GUARD_ERROR_INCOMPLETE, 0, 0));

  CHECK(utf8guard_decode("$\xC3\xA9\xE2\x82\xAC", 6, cps, 4, &count, &err) == UTF8GUARD_STATUS_OK);
  CHECK(count == 3 && cps[0] == 0x24 && cps[1] == 0xE9 && cps[2] == 0x20AC);
  CHECK(same(err, UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(utf8guard_decode("ab\xFF", 3, cps, 4, &count, &err) == UTF8GUARD_STATUS_ILL_FORMED);
  CHECK(count == 2 && same(err, UTF8GUARD_ERROR_INVALID_BYTE, 2, 1));
  CHECK(utf8guard_decode("abc", 3, cps, 2, &count, NULL) == UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
  CHECK(count == 3);
  CHECK(utf8guard_decode("ab\xC3\xA9\xFF", 5, cps, 2, &count, &err) ==
        UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
  CHECK(count == 3 && same(err, UTF8GUARD_ERROR_INVALID_BYTE, 4, 1));
  CHECK(utf8guard_decode(NULL, 0, NULL, 0, &count, &err) == UTF8GUARD_STATUS_OK && count == 0);

  CHECK(utf8guard_encode_one(0x10FFFF, out) == 4 && memcmp(out, "\xF4\x8F\xBF\xBF", 4) == 0);
  CHECK(utf8guard_encode_one(0x7F, out) == 1 && out[0] == 0x7F);
  CHECK(utf8guard_encode_one(0xDFFF, out) == 0);
  CHECK(utf8guard_encode_one(0x110000, out) == 0);

  CHECK(utf8guard_encode(values, 4, out, sizeof out, &written, &bad) == UTF8GUARD_STATUS_OK);
  CHECK(written == 10 && memcmp(out, "$\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", 10) == 0);
  CHECK(utf8guard_encode(values, 4, out, 9, &written, NULL) == UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
  CHECK(written == 10);
  CHECK(utf8guard_encode(with_surrogate, 3, out, sizeof out, &written, &bad) ==
        UTF8GUARD_STATUS_ILL_FORMED);
  CHECK(bad == 1);
  CHECK(utf8guard_encode(NULL, 0, NULL, 0, &written, &bad) == UTF8GUARD_STATUS_OK && written == 0);
}

/* ---- Policies and hints ----------------------------------------------------- */

/* violation checks a disallowed result. */
static int violation(utf8guard_result r, size_t offset, size_t length, utf8guard_category c,
                     uint32_t cp) {
  return same(r, UTF8GUARD_ERROR_DISALLOWED, offset, length) && r.category == c &&
         r.code_point == cp;
}

static void test_policy_names(void) {
  utf8guard_policy p = 12345u;
  size_t k;
  CHECK(strcmp(utf8guard_error_name(UTF8GUARD_ERROR_DISALLOWED), "disallowed") == 0);
  CHECK(strcmp(utf8guard_category_name(UTF8GUARD_CATEGORY_BIDI), "bidi") == 0);
  CHECK(strcmp(utf8guard_category_name(UTF8GUARD_CATEGORY_DOUBLE_ENCODING), "double_encoding") ==
        0);
  CHECK(strcmp(utf8guard_category_name(UTF8GUARD_CATEGORY_NONE), "none") == 0);
  CHECK(strcmp(utf8guard_category_name((utf8guard_category)3), "unknown") == 0);
  for (k = 0; k < UTF8GUARD_CATEGORY_COUNT; ++k) {
    const utf8guard_category c = (utf8guard_category)(1u << k);
    const char* name = utf8guard_category_name(c);
    CHECK(utf8guard_category_from_name(name, strlen(name)) == c);
  }
  CHECK(utf8guard_category_from_name("private_use", 11) == UTF8GUARD_CATEGORY_PRIVATE_USE);
  CHECK(utf8guard_category_from_name("private", 7) == UTF8GUARD_CATEGORY_NONE);
  CHECK(utf8guard_category_from_name(NULL, 0) == UTF8GUARD_CATEGORY_NONE);
  CHECK(strcmp(utf8guard_profile_name(0), "strict") == 0);
  CHECK(strcmp(utf8guard_profile_name(2), "field") == 0);
  CHECK(utf8guard_profile_name(5) == NULL);
  CHECK(utf8guard_profile_from_name("field", 5, &p) && p == UTF8GUARD_PROFILE_FIELD);
  CHECK(utf8guard_profile_from_name("source", 6, &p) && p == UTF8GUARD_PROFILE_SOURCE);
  CHECK(!utf8guard_profile_from_name("fields", 6, &p) && p == UTF8GUARD_PROFILE_SOURCE);
  CHECK(!utf8guard_profile_from_name(NULL, 0, &p));
}

static void test_policy(void) {
  static const char trojan[] = "if (a)\xE2\x80\xAE { }";
  static const char header[] = "value\r\nX-Injected: 1";
  utf8guard_validator v;
  utf8guard_error_scanner sc;
  utf8guard_sanitizer sz;
  struct error_list l = {{{UTF8GUARD_ERROR_NONE, 0, 0, UTF8GUARD_CATEGORY_NONE, 0}}, 0, 0};
  struct buffer b = {{0}, 0, 0};
  char out[64];
  size_t written = 0, replaced = 0;

  CHECK(utf8guard_is_valid_policy(trojan, strlen(trojan), UTF8GUARD_PROFILE_STRICT));
  CHECK(!utf8guard_is_valid_policy(trojan, strlen(trojan), UTF8GUARD_PROFILE_SOURCE));
  CHECK(utf8guard_is_valid_policy(NULL, 0, UTF8GUARD_PROFILE_FIELD));
  CHECK(violation(utf8guard_validate_policy(trojan, strlen(trojan), UTF8GUARD_PROFILE_SOURCE), 6, 3,
                  UTF8GUARD_CATEGORY_BIDI, 0x202E));
  CHECK(violation(utf8guard_validate_policy(header, strlen(header), UTF8GUARD_PROFILE_FIELD), 5, 1,
                  UTF8GUARD_CATEGORY_NEWLINE, 0x0D));
  CHECK(same(utf8guard_validate_policy(header, strlen(header), UTF8GUARD_PROFILE_SOURCE),
             UTF8GUARD_ERROR_NONE, 0, 0));

  /* A stream: the violation comes with the feed that completes it. */
  utf8guard_validator_init_policy(&v, UTF8GUARD_PROFILE_SOURCE);
  CHECK(same(utf8guard_validator_feed(&v, trojan, 7), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(violation(utf8guard_validator_feed(&v, trojan + 7, 5), 6, 3, UTF8GUARD_CATEGORY_BIDI,
                  0x202E));
  CHECK(violation(utf8guard_validator_finish(&v), 6, 3, UTF8GUARD_CATEGORY_BIDI, 0x202E));

  utf8guard_error_scanner_init_policy(&sc, UTF8GUARD_PROFILE_FIELD);
  CHECK(utf8guard_error_scanner_feed(&sc, header, 6, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_error_scanner_feed(&sc, header + 6, strlen(header) - 6, collect, &l) ==
        UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_error_scanner_finish(&sc, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(l.count == 2 && violation(l.items[0], 5, 1, UTF8GUARD_CATEGORY_NEWLINE, 0x0D) &&
        violation(l.items[1], 6, 1, UTF8GUARD_CATEGORY_NEWLINE, 0x0A));
  CHECK(utf8guard_error_scanner_errors(&sc) == 2);

  /* Sanitizing: each denied character becomes one U+FFFD. */
  CHECK(utf8guard_sanitize_policy(header, strlen(header), out, sizeof out, &written, &replaced,
                                  UTF8GUARD_PROFILE_FIELD) == UTF8GUARD_STATUS_OK);
  CHECK(replaced == 2 && written == strlen(header) + 4 &&
        memcmp(out, "value\xEF\xBF\xBD\xEF\xBF\xBDX-Injected: 1", written) == 0);
  CHECK(utf8guard_sanitize_policy(header, strlen(header), out, 4, &written, &replaced,
                                  UTF8GUARD_PROFILE_FIELD) == UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
  CHECK(written == strlen(header) + 4 && replaced == 2);
  utf8guard_sanitizer_init_policy(&sz, UTF8GUARD_PROFILE_SOURCE);
  CHECK(utf8guard_sanitizer_feed(&sz, trojan, 8, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_sanitizer_feed(&sz, trojan + 8, strlen(trojan) - 8, append, &b) ==
        UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_sanitizer_finish(&sz, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(buffer_is(&b, "if (a)\xEF\xBF\xBD { }", 13));
  CHECK(utf8guard_sanitizer_replacements(&sz) == 1);
}

static void test_hints(void) {
  static const char cesu[] =
      "a\xED\xA0\xBD\xED\xB8\x80"
      "b";
  utf8guard_hint h = utf8guard_explain(cesu, 8, 1);
  CHECK(h.kind == UTF8GUARD_HINT_CESU8_PAIR && h.has_value && h.value == 0x1F600);
  h = utf8guard_explain("..\xC0\xAF..", 6, 2);
  CHECK(h.kind == UTF8GUARD_HINT_OVERLONG_FORM && h.has_value && h.value == 0x2F);
  h = utf8guard_explain(
      "\xFF\xFE"
      "a",
      3, 0);
  CHECK(h.kind == UTF8GUARD_HINT_UTF16_BOM && !h.has_value);
  h = utf8guard_explain("ok", 2, 5);
  CHECK(h.kind == UTF8GUARD_HINT_NONE);
  CHECK(strcmp(utf8guard_hint_name(UTF8GUARD_HINT_CESU8_PAIR), "cesu8_pair") == 0);
  CHECK(strcmp(utf8guard_hint_name(UTF8GUARD_HINT_WINDOWS1252), "windows1252") == 0);
  CHECK(strcmp(utf8guard_hint_name((utf8guard_hint_kind)99), "unknown") == 0);
}

/* ---- Percent-encoded input -------------------------------------------------- */

struct percent_list {
  utf8guard_encoded_result items[16];
  size_t count;
};

static bool collect_percent(void* ctx, utf8guard_encoded_result e) {
  struct percent_list* l = (struct percent_list*)ctx;
  if (l->count == sizeof l->items / sizeof l->items[0]) return false;
  l->items[l->count++] = e;
  return true;
}

/* percent_is checks a percent result: kind, encoded and decoded place. */
static int percent_is(utf8guard_encoded_result r, utf8guard_error kind, size_t offset,
                      size_t length, size_t decoded_offset, size_t decoded_length) {
  return same(r.error, kind, offset, length) && r.decoded_offset == decoded_offset &&
         r.decoded_length == decoded_length;
}

/* percent_denied checks a percent result of kind DISALLOWED. */
static int percent_denied(utf8guard_encoded_result r, size_t offset, size_t length,
                          size_t decoded_offset, size_t decoded_length, utf8guard_category c,
                          uint32_t cp) {
  return percent_is(r, UTF8GUARD_ERROR_DISALLOWED, offset, length, decoded_offset,
                    decoded_length) &&
         r.error.category == c && r.error.code_point == cp;
}

static void test_percent(void) {
  static const char iis[] = "/scripts/..%c0%af../winnt";
  static const char trojan[] = "a%E2%80%AEb";
  utf8guard_percent_stream s;
  struct percent_list l;
  char out[32];
  size_t written = 99;
  l.count = 0;

  CHECK(utf8guard_percent_is_valid("caf%C3%A9", 9, UTF8GUARD_PROFILE_URL));
  CHECK(utf8guard_percent_is_valid("caf%c3%a9+%zz", 13, UTF8GUARD_PROFILE_STRICT));
  CHECK(!utf8guard_percent_is_valid("caf%c3%a9+%zz", 13, UTF8GUARD_PROFILE_URL));
  CHECK(!utf8guard_percent_is_valid(iis, strlen(iis), UTF8GUARD_PROFILE_STRICT));
  CHECK(utf8guard_percent_is_valid(NULL, 0, UTF8GUARD_PROFILE_URL));
  /* Offsets count encoded bytes; the decoded ones are beside them. */
  CHECK(percent_is(utf8guard_percent_validate(iis, strlen(iis), UTF8GUARD_PROFILE_STRICT),
                   UTF8GUARD_ERROR_OVERLONG, 11, 3, 11, 1));
  CHECK(percent_denied(utf8guard_percent_validate(trojan, strlen(trojan), UTF8GUARD_PROFILE_URL), 1,
                       9, 1, 3, UTF8GUARD_CATEGORY_BIDI, 0x202E));
  CHECK(percent_denied(utf8guard_percent_validate("%255c", 5, UTF8GUARD_PROFILE_URL), 0, 3, 0, 1,
                       UTF8GUARD_CATEGORY_DOUBLE_ENCODING, 0x25));
  CHECK(percent_denied(utf8guard_percent_validate("a%zz", 4, UTF8GUARD_PROFILE_URL), 1, 1, 1, 1,
                       UTF8GUARD_CATEGORY_BAD_ESCAPE, 0x25));
  CHECK(percent_is(utf8guard_percent_validate("a%zz", 4, UTF8GUARD_PROFILE_STRICT),
                   UTF8GUARD_ERROR_NONE, 0, 0, 0, 0));

  CHECK(utf8guard_percent_decode("..%c0%af..", 10, out, 10, &written) == UTF8GUARD_STATUS_OK);
  CHECK(written == 6 && memcmp(out, "..\xC0\xAF..", 6) == 0);
  CHECK(utf8guard_percent_decode("%%41%", 5, out, 5, &written) == UTF8GUARD_STATUS_OK);
  CHECK(written == 3 && memcmp(out, "%A%", 3) == 0);
  CHECK(utf8guard_percent_decode(NULL, 0, NULL, 0, &written) == UTF8GUARD_STATUS_OK &&
        written == 0);

  /* An escape cut between feeds; the violation comes with the byte that
   * completes the character. */
  utf8guard_percent_validator_init(&s, UTF8GUARD_PROFILE_URL);
  CHECK(percent_is(utf8guard_percent_validator_feed(&s, trojan, 3), UTF8GUARD_ERROR_NONE, 0, 0, 0,
                   0));
  CHECK(percent_is(utf8guard_percent_validator_feed(&s, trojan + 3, 6), UTF8GUARD_ERROR_NONE, 0, 0,
                   0, 0));
  CHECK(percent_denied(utf8guard_percent_validator_feed(&s, trojan + 9, 2), 1, 9, 1, 3,
                       UTF8GUARD_CATEGORY_BIDI, 0x202E));
  CHECK(percent_denied(utf8guard_percent_validator_finish(&s), 1, 9, 1, 3, UTF8GUARD_CATEGORY_BIDI,
                       0x202E));
  utf8guard_percent_validator_init(&s, UTF8GUARD_PROFILE_STRICT);
  CHECK(percent_is(utf8guard_percent_validator_feed(&s, "ok%E2%8", 7), UTF8GUARD_ERROR_NONE, 0, 0,
                   0, 0));
  /* At the end, %E2 alone is incomplete, and "%8" is a '%' and an '8'. */
  CHECK(percent_is(utf8guard_percent_validator_finish(&s), UTF8GUARD_ERROR_TRUNCATED, 2, 3, 2, 1));

  /* Every error, in order: a double encoding, then a '%' left at the end. */
  utf8guard_percent_scanner_init(&s, UTF8GUARD_PROFILE_URL);
  CHECK(utf8guard_percent_scanner_feed(&s, "%25", 3, collect_percent, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_percent_scanner_feed(&s, "5c%", 3, collect_percent, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_percent_scanner_finish(&s, collect_percent, &l) == UTF8GUARD_STATUS_OK);
  CHECK(l.count == 2);
  CHECK(l.count == 2 &&
        percent_denied(l.items[0], 0, 3, 0, 1, UTF8GUARD_CATEGORY_DOUBLE_ENCODING, 0x25));
  CHECK(l.count == 2 &&
        percent_denied(l.items[1], 5, 1, 3, 1, UTF8GUARD_CATEGORY_BAD_ESCAPE, 0x25));
  CHECK(utf8guard_percent_scanner_errors(&s) == 2);
}

/* The older names of the percent form: the same answers as the new ones. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
static void test_percent_aliases(void) {
  static const char target[] = "/a%2F%C0%AF";
  char a[UTF8GUARD_DESCRIBE_MAX], b[UTF8GUARD_DESCRIBE_MAX];
  const utf8guard_encoded_result r = utf8guard_validate_percent_encoded(target, 11, 0);
  CHECK(percent_is(r, UTF8GUARD_ERROR_OVERLONG, 5, 3, 3, 1));
  CHECK(!utf8guard_is_valid_percent_encoded(target, 11, 0));
  CHECK(utf8guard_is_valid_percent_encoded("%41", 3, UTF8GUARD_PROFILE_URL));
  CHECK(utf8guard_describe_percent(target, 11, 0, r, 0, a, sizeof a) ==
        utf8guard_percent_describe(target, 11, 0, r, 0, b, sizeof b));
  CHECK(strcmp(a, b) == 0);
  CHECK(utf8guard_explain_percent(target, 11, 0, r).kind ==
        utf8guard_percent_explain(target, 11, 0, r).kind);
}
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* JSON text: the four bodies a raw check passes, a pair, the streams. */
static void test_json(void) {
  static const char lone[] = "{\"a\":\"x\\ud800y\"}";
  static const char bidi[] = "{\"a\":\"x\\u202ey\"}";
  static const char nul[] = "{\"a\":\"x\\u0000y\"}";
  static const char nonchar[] = "{\"a\":\"x\\uffffy\"}";
  static const char pair[] = "{\"a\":\"\\ud83d\\ude00\"}";
  utf8guard_json_stream s;
  struct percent_list l;
  size_t i;
  CHECK(percent_is(utf8guard_json_validate(lone, strlen(lone), UTF8GUARD_PROFILE_STRICT),
                   UTF8GUARD_ERROR_SURROGATE, 7, 6, 7, 3));
  CHECK(percent_denied(utf8guard_json_validate(bidi, strlen(bidi), UTF8GUARD_PROFILE_FIELD), 7, 6,
                       7, 3, UTF8GUARD_CATEGORY_BIDI, 0x202E));
  CHECK(percent_denied(utf8guard_json_validate(nul, strlen(nul), UTF8GUARD_PROFILE_FIELD), 7, 6, 7,
                       1, UTF8GUARD_CATEGORY_NUL, 0));
  CHECK(percent_denied(utf8guard_json_validate(nonchar, strlen(nonchar), UTF8GUARD_PROFILE_JSON), 7,
                       6, 7, 3, UTF8GUARD_CATEGORY_NONCHARACTER, 0xFFFF));
  CHECK(!utf8guard_json_is_valid(lone, strlen(lone), UTF8GUARD_PROFILE_STRICT));
  CHECK(utf8guard_json_is_valid(bidi, strlen(bidi), UTF8GUARD_PROFILE_STRICT));
  CHECK(utf8guard_json_is_valid(pair, strlen(pair), UTF8GUARD_PROFILE_FIELD));
  CHECK(utf8guard_json_is_valid(NULL, 0, UTF8GUARD_PROFILE_FIELD));
  /* The validator, one byte per feed: the lone surrogate is decided by the y. */
  utf8guard_json_validator_init(&s, UTF8GUARD_PROFILE_STRICT);
  for (i = 0; i < strlen(lone); ++i) {
    const utf8guard_encoded_result r = utf8guard_json_validator_feed(&s, lone + i, 1);
    CHECK(r.error.kind == (i < 13 ? UTF8GUARD_ERROR_NONE : UTF8GUARD_ERROR_SURROGATE));
  }
  CHECK(percent_is(utf8guard_json_validator_finish(&s), UTF8GUARD_ERROR_SURROGATE, 7, 6, 7, 3));
  /* The scanner: every finding, in order. */
  l.count = 0;
  utf8guard_json_scanner_init(&s, UTF8GUARD_PROFILE_FIELD);
  CHECK(utf8guard_json_scanner_feed(&s, "\\udc00\\u202", 11, collect_percent, &l) ==
        UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_json_scanner_feed(&s, "e\\n", 3, collect_percent, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_json_scanner_finish(&s, collect_percent, &l) == UTF8GUARD_STATUS_OK);
  CHECK(l.count == 3 && utf8guard_json_scanner_errors(&s) == 3);
  if (l.count == 3) {
    CHECK(percent_is(l.items[0], UTF8GUARD_ERROR_SURROGATE, 0, 6, 0, 3));
    CHECK(percent_denied(l.items[1], 6, 6, 3, 3, UTF8GUARD_CATEGORY_BIDI, 0x202E));
    CHECK(percent_denied(l.items[2], 12, 2, 6, 1, UTF8GUARD_CATEGORY_NEWLINE, 0x0A));
  }
}

/* describe, truncate and policy_parse: the answers written by hand from
 * docs/design.md ("Messages", "Truncation", "Policies as text"). */
static void test_messages(void) {
  static const char attack[] = "a/\xC0\xAF..";
  static const char cesu[] = "a\xED\xA0\xBD\xED\xB8\x80z";
  char out[UTF8GUARD_DESCRIBE_MAX];
  char small[8];
  utf8guard_result r = utf8guard_validate(attack, 6);
  size_t n = utf8guard_describe(attack, 6, 0, r, 0, out, sizeof out);
  CHECK(n == strlen("overlong at byte 2 (C0 AF 2E 2E)") &&
        strcmp(out, "overlong at byte 2 (C0 AF 2E 2E)") == 0);
  n = utf8guard_describe(attack, 6, 0, r, UTF8GUARD_DESCRIBE_HINT, out, sizeof out);
  CHECK(strcmp(out, "overlong at byte 2 (C0 AF 2E 2E) [overlong_form U+002F]") == 0);
  /* snprintf: the length is told whatever the capacity; the text is cut and ended. */
  CHECK(utf8guard_describe(attack, 6, 0, r, 0, small, sizeof small) == 32);
  CHECK(strcmp(small, "overlon") == 0);
  CHECK(utf8guard_describe(attack, 6, 0, r, 0, NULL, 0) == 32);
  /* A window: the input's bytes from offset 1 on. */
  CHECK(utf8guard_describe(attack + 1, 5, 1, r, 0, out, sizeof out) == 32 &&
        strcmp(out, "overlong at byte 2 (C0 AF 2E 2E)") == 0);
  r = utf8guard_validate(cesu, 8);
  CHECK(utf8guard_describe(cesu, 8, 0, r, UTF8GUARD_DESCRIBE_HINT, out, sizeof out) > 0);
  CHECK(strcmp(out, "surrogate at byte 1 (ED A0 BD ED) [cesu8_pair U+1F600]") == 0);
  r = utf8guard_validate_policy("if\xE2\x80\xAE", 5, UTF8GUARD_PROFILE_SOURCE);
  CHECK(utf8guard_describe("if\xE2\x80\xAE", 5, 0, r, UTF8GUARD_DESCRIBE_HINT, out, sizeof out) >
        0);
  CHECK(strcmp(out, "disallowed bidi U+202E at byte 2 (E2 80 AE)") == 0);
  r = utf8guard_validate("ok", 2);
  CHECK(utf8guard_describe("ok", 2, 0, r, 0, out, sizeof out) == 4 && strcmp(out, "none") == 0);
}

static void test_percent_messages(void) {
  static const char target[] = "/a%2F%C0%AF";
  char out[UTF8GUARD_DESCRIBE_MAX];
  utf8guard_encoded_result r = utf8guard_percent_validate(target, 11, UTF8GUARD_PROFILE_URL);
  utf8guard_hint h;
  CHECK(r.error.kind == UTF8GUARD_ERROR_OVERLONG && r.error.offset == 5);
  CHECK(utf8guard_percent_describe(target, 11, 0, r, UTF8GUARD_DESCRIBE_HINT, out, sizeof out) > 0);
  CHECK(strcmp(out, "overlong at byte 5 (C0 AF) [overlong_form U+002F]") == 0);
  h = utf8guard_percent_explain(target, 11, 0, r);
  CHECK(h.kind == UTF8GUARD_HINT_OVERLONG_FORM && h.has_value && h.value == 0x2F);
  /* The same from a window that starts at encoded offset 2. */
  CHECK(utf8guard_percent_describe(target + 2, 9, 2, r, UTF8GUARD_DESCRIBE_HINT, out, sizeof out) >
        0);
  CHECK(strcmp(out, "overlong at byte 5 (C0 AF) [overlong_form U+002F]") == 0);
}

/* JSON text: sanitize, describe, explain and truncate, written by hand from
 * docs/design.md ("JSON text"). */
static void test_json_text(void) {
  static const char body[] = "{\"a\":\"x\\ud800y\",\"b\":\"\\u202e\\xC0\"}";
  const size_t len = strlen(body);
  char out[UTF8GUARD_DESCRIBE_MAX];
  char text[64];
  size_t bound = 0, written = 0;
  utf8guard_encoded_result r;
  utf8guard_hint h;
  CHECK(utf8guard_json_sanitize_bound(len, &bound) == UTF8GUARD_STATUS_OK && bound == 6 * len);
  CHECK(utf8guard_json_sanitize(body, len, UTF8GUARD_PROFILE_FIELD, text, sizeof text, &written) ==
        UTF8GUARD_STATUS_OK);
  CHECK(written == len && memcmp(text, "{\"a\":\"x\\ufffdy\",\"b\":\"\\ufffd\\xC0\"}", len) == 0);
  CHECK(utf8guard_json_sanitize(body, len, 0, text, 3, &written) ==
        UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
  CHECK(written == len);
  r = utf8guard_json_validate(body, len, UTF8GUARD_PROFILE_FIELD);
  CHECK(utf8guard_json_describe(body, len, 0, r, UTF8GUARD_DESCRIBE_HINT, out, sizeof out) > 0);
  CHECK(strcmp(out,
               "surrogate \\ud800 U+D800 at byte 7 (ED A0 80 79) [surrogate_code_point U+D800]") ==
        0);
  h = utf8guard_json_explain(body, len, 0, r);
  CHECK(h.kind == UTF8GUARD_HINT_SURROGATE_CODE_POINT && h.has_value && h.value == 0xD800);
  CHECK(utf8guard_json_truncate(body, len, 10, UTF8GUARD_TRUNCATE_KEEP_ILL_FORMED) == 7);
  CHECK(utf8guard_json_truncate(body, len, 13, UTF8GUARD_TRUNCATE_KEEP_ILL_FORMED) == 13);
  CHECK(utf8guard_json_truncate(body, len, 13, UTF8GUARD_TRUNCATE_WELL_FORMED) == 7);
}

/* A stream's finding window, from C99: a finding cut from the bytes after it
 * is described as over the whole input once the window is ready. */
static void test_finding_window(void) {
  static const char in[] =
      "abc\xC0\xAF"
      "defgh";
  const size_t n = sizeof in - 1;
  utf8guard_validator v;
  utf8guard_finding_window w;
  utf8guard_result r;
  char whole[UTF8GUARD_DESCRIBE_MAX];
  char kept[UTF8GUARD_DESCRIBE_MAX];
  size_t len = 0;
  size_t base = 0;
  const char* bytes;
  utf8guard_validator_init(&v);
  utf8guard_finding_window_init(&w, UTF8GUARD_FORM_RAW, UTF8GUARD_DESCRIBE_HINT);
  CHECK(!utf8guard_finding_window_marked(&w));
  r = utf8guard_validator_feed(&v, in, 5);
  CHECK(r.kind == UTF8GUARD_ERROR_OVERLONG && r.offset == 3);
  CHECK(utf8guard_finding_window_mark(&w, r.offset));
  CHECK(!utf8guard_finding_window_mark(&w, 4));
  utf8guard_finding_window_feed(&w, in, 5);
  CHECK(utf8guard_finding_window_marked(&w));
  CHECK(!utf8guard_finding_window_ready(&w));
  utf8guard_finding_window_feed(&w, in + 5, n - 5);
  CHECK(utf8guard_finding_window_ready(&w));
  utf8guard_finding_window_finish(&w);
  bytes = utf8guard_finding_window_bytes(&w, &len, &base);
  CHECK(base == 0 && len == UTF8GUARD_DESCRIBE_BEHIND + UTF8GUARD_DESCRIBE_AHEAD);
  (void)utf8guard_describe(in, n, 0, r, UTF8GUARD_DESCRIBE_HINT, whole, sizeof whole);
  (void)utf8guard_describe(bytes, len, base, r, UTF8GUARD_DESCRIBE_HINT, kept, sizeof kept);
  CHECK(strcmp(whole, kept) == 0);
}

static void test_truncate(void) {
  static const char text[] = "h\xC3\xA9llo \xF0\x9F\x98\x80!"; /* 12 bytes */
  static const char broken[] =
      "ab\xC0\xAF"
      "cd\xE2\x82"; /* 8 bytes */
  const utf8guard_truncate_mode keep = UTF8GUARD_TRUNCATE_KEEP_ILL_FORMED;
  CHECK(utf8guard_truncate(text, 12, 100, UTF8GUARD_TRUNCATE_WELL_FORMED) == 12);
  CHECK(utf8guard_truncate(text, 12, 2, UTF8GUARD_TRUNCATE_WELL_FORMED) == 1);
  CHECK(utf8guard_truncate(text, 12, 3, UTF8GUARD_TRUNCATE_WELL_FORMED) == 3);
  CHECK(utf8guard_truncate(text, 12, 10, UTF8GUARD_TRUNCATE_WELL_FORMED) == 7);
  CHECK(utf8guard_truncate(text, 12, 10, keep) == 7);
  CHECK(utf8guard_truncate(text, 12, 11, keep) == 11);
  CHECK(utf8guard_truncate(broken, 8, 8, UTF8GUARD_TRUNCATE_WELL_FORMED) == 2);
  CHECK(utf8guard_truncate(broken, 8, 3, keep) == 3); /* C0 is a subpart of its own */
  CHECK(utf8guard_truncate(broken, 8, 8, keep) == 8);
  CHECK(utf8guard_truncate(broken, 8, 7, keep) == 6); /* E2 82 is one subpart */
  CHECK(utf8guard_truncate(broken, 8, 0, keep) == 0);
}

static void test_policy_parse(void) {
  utf8guard_policy p = 99;
  size_t at = 99, len = 99;
  CHECK(utf8guard_policy_parse("field,-newline", 14, &p, &at, &len));
  CHECK(p == (UTF8GUARD_PROFILE_FIELD & ~(utf8guard_policy)UTF8GUARD_CATEGORY_NEWLINE));
  CHECK(at == 99 && len == 99);
  CHECK(utf8guard_policy_parse("nul,+bidi", 9, &p, NULL, NULL));
  CHECK(p == (UTF8GUARD_CATEGORY_NUL | UTF8GUARD_CATEGORY_BIDI));
  CHECK(utf8guard_policy_parse("", 0, &p, NULL, NULL) && p == 0);
  CHECK(utf8guard_policy_parse("strict", 6, &p, NULL, NULL) && p == 0);
  p = 5;
  CHECK(!utf8guard_policy_parse("url,nope,bidi", 13, &p, &at, &len));
  CHECK(p == 5 && at == 4 && len == 4);
  CHECK(!utf8guard_policy_parse("nul,", 4, &p, &at, &len) && at == 4 && len == 0);
  CHECK(!utf8guard_policy_parse("Field", 5, &p, &at, &len) && at == 0 && len == 5);
}

int main(void) {
  size_t i, kernels_run = 0;
  test_names();
  test_policy_names();
  test_hints();
  test_kernel_list();
  test_codec();
  test_policy_parse();
  test_finding_window();
  for (i = 0; i < utf8guard_kernel_count(); ++i) {
    bool usable = false;
    const char* name = utf8guard_kernel_name(i, &usable);
    if (!usable) {
      CHECK(!utf8guard_set_kernel(name)); /* refused, changing nothing */
      continue;
    }
    CHECK(utf8guard_set_kernel(name));
    CHECK(strcmp(utf8guard_active_kernel(), name) == 0);
    test_validate();
    test_validator();
    test_sanitize();
    test_sanitizer();
    test_scanner();
    test_policy();
    test_percent();
    test_messages();
    test_percent_messages();
    test_percent_aliases();
    test_json();
    test_json_text();
    test_truncate();
    ++kernels_run;
  }
  CHECK(kernels_run >= 1);
  CHECK(utf8guard_set_kernel("best"));
  printf("c_api_test: %zu kernel(s), %d failure(s)\n", kernels_run, failures);
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
