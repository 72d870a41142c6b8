/* c_misuse_test.c - every function of utf8guard.h, called from C99 with every
 * bad argument: caller bugs fail closed (utf8guard.h, "Conventions" and
 * "Streaming objects").
 *
 * A NULL pointer with a length, a NULL output with a capacity, a NULL object,
 * sink, callback or answer pointer, a streaming object fed after finish,
 * finished twice, never initialised, or re-initialised in the middle of a
 * stream. Each must get its documented answer, which is never "valid" or
 * "OK", with nothing dereferenced (a read or write through NULL kills the
 * test; ASan and UBSan run it in CI), no output written and no sink called.
 * The streaming checks run once per usable kernel. Built like
 * tests/core/c_api_test.c (strict C99); the ctest step
 * security_c_misuse_covers_header fails when utf8guard.h declares a function
 * this file does not call. */
#include <utf8guard/utf8guard.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"

static int refused(utf8guard_result r, size_t position) {
  return same(r, UTF8GUARD_ERROR_INVALID_ARGUMENT, position, 0);
}

/* The lengths a lost pointer may come with: short ones that a kernel takes on
 * its scalar path, vector-sized ones, and the largest. */
static const size_t kLengths[] = {1, 2, 3, 4, 15, 16, 64, 4096, SIZE_MAX / 3 + 1, SIZE_MAX};
#define LENGTHS (sizeof kLengths / sizeof kLengths[0])

/* ---- Numbering and names ------------------------------------------------------ */

static void test_names(void) {
  /* Both enums are numbered for good: the values are part of the ABI. */
  CHECK(UTF8GUARD_ERROR_INVALID_ARGUMENT == 9);
  CHECK(UTF8GUARD_STATUS_INVALID_ARGUMENT == 5);
  CHECK(strcmp(utf8guard_error_name(UTF8GUARD_ERROR_INVALID_ARGUMENT), "invalid_argument") == 0);
  CHECK(strcmp(utf8guard_status_name(UTF8GUARD_STATUS_INVALID_ARGUMENT), "invalid_argument") == 0);
  /* Any int may arrive in an enum parameter from C. */
  CHECK(strcmp(utf8guard_error_name((utf8guard_error)-1), "unknown") == 0);
  CHECK(strcmp(utf8guard_error_name((utf8guard_error)256), "unknown") == 0);
  CHECK(strcmp(utf8guard_status_name((utf8guard_status)-1), "unknown") == 0);
  CHECK(strcmp(utf8guard_status_name((utf8guard_status)99), "unknown") == 0);
}

/* ---- One-shot validation ------------------------------------------------------ */

static void test_validate(void) {
  size_t i;
  for (i = 0; i < LENGTHS; ++i) {
    CHECK(!utf8guard_is_valid(NULL, kLengths[i]));
    CHECK(refused(utf8guard_validate(NULL, kLengths[i]), 0));
  }
  /* (NULL, 0) stays the empty input. */
  CHECK(utf8guard_is_valid(NULL, 0));
  CHECK(same(utf8guard_validate(NULL, 0), UTF8GUARD_ERROR_NONE, 0, 0));
}

/* ---- Streaming validation ----------------------------------------------------- */

static void test_validator(void) {
  utf8guard_validator v, before;
  size_t i;

  /* A NULL object: refused, at offset 0; init does nothing. */
  utf8guard_validator_init(NULL);
  CHECK(refused(utf8guard_validator_feed(NULL, "ab", 2), 0));
  CHECK(refused(utf8guard_validator_feed(NULL, NULL, 0), 0));
  CHECK(refused(utf8guard_validator_finish(NULL), 0));

  /* A lost chunk fails the stream at its position, for good. */
  for (i = 0; i < LENGTHS; ++i) {
    utf8guard_validator_init(&v);
    CHECK(same(utf8guard_validator_feed(&v, "ab", 2), UTF8GUARD_ERROR_NONE, 0, 0));
    CHECK(refused(utf8guard_validator_feed(&v, NULL, kLengths[i]), 2));
    CHECK(refused(utf8guard_validator_feed(&v, "cd", 2), 2));
    CHECK(refused(utf8guard_validator_feed(&v, NULL, 0), 2));
    CHECK(refused(utf8guard_validator_finish(&v), 2));
    CHECK(refused(utf8guard_validator_finish(&v), 2));
  }
  /* ... also as the first chunk, and with an unfinished sequence carried. */
  utf8guard_validator_init(&v);
  CHECK(refused(utf8guard_validator_feed(&v, NULL, 1), 0));
  utf8guard_validator_init(&v);
  CHECK(same(utf8guard_validator_feed(&v, "x\xE2\x82", 3), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(refused(utf8guard_validator_feed(&v, NULL, 1), 3));
  CHECK(refused(utf8guard_validator_finish(&v), 3)); /* not "incomplete", not none */

  /* (NULL, 0) is an empty chunk, not a caller bug. */
  utf8guard_validator_init(&v);
  CHECK(same(utf8guard_validator_feed(&v, NULL, 0), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(same(utf8guard_validator_feed(&v, "ok", 2), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(same(utf8guard_validator_finish(&v), UTF8GUARD_ERROR_NONE, 0, 0));

  /* An error found first stands: a later caller bug does not replace it. */
  utf8guard_validator_init(&v);
  CHECK(same(utf8guard_validator_feed(&v, "a\xC0", 2), UTF8GUARD_ERROR_OVERLONG, 1, 1));
  CHECK(same(utf8guard_validator_feed(&v, NULL, 3), UTF8GUARD_ERROR_OVERLONG, 1, 1));
  CHECK(same(utf8guard_validator_finish(&v), UTF8GUARD_ERROR_OVERLONG, 1, 1));

  /* feed after finish: refused at the end of the input, for good. */
  utf8guard_validator_init(&v);
  CHECK(same(utf8guard_validator_feed(&v, "abc", 3), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(same(utf8guard_validator_finish(&v), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(refused(utf8guard_validator_feed(&v, "d", 1), 3));
  CHECK(refused(utf8guard_validator_feed(&v, NULL, 0), 3));
  CHECK(refused(utf8guard_validator_finish(&v), 3));
  /* ... unless finish found an error: that stands. */
  utf8guard_validator_init(&v);
  CHECK(same(utf8guard_validator_feed(&v, "a\xE2", 2), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(same(utf8guard_validator_finish(&v), UTF8GUARD_ERROR_INCOMPLETE, 1, 1));
  CHECK(same(utf8guard_validator_feed(&v, "\x82\xAC", 2), UTF8GUARD_ERROR_INCOMPLETE, 1, 1));

  /* finish twice: the same answer, whatever it was. */
  utf8guard_validator_init(&v);
  CHECK(same(utf8guard_validator_feed(&v, "ok", 2), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(same(utf8guard_validator_finish(&v), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(same(utf8guard_validator_finish(&v), UTF8GUARD_ERROR_NONE, 0, 0));
  utf8guard_validator_init(&v);
  CHECK(same(utf8guard_validator_feed(&v, "ab\xF0\x9F", 4), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(same(utf8guard_validator_finish(&v), UTF8GUARD_ERROR_INCOMPLETE, 2, 2));
  CHECK(same(utf8guard_validator_finish(&v), UTF8GUARD_ERROR_INCOMPLETE, 2, 2));

  /* Never initialised: zero-filled or garbage, refused and left as it was. */
  memset(&v, 0, sizeof v);
  memcpy(&before, &v, sizeof v);
  CHECK(refused(utf8guard_validator_feed(&v, "ok", 2), 0));
  CHECK(refused(utf8guard_validator_finish(&v), 0));
  CHECK(memcmp(&before, &v, sizeof v) == 0);
  memset(&v, 0xA5, sizeof v);
  memcpy(&before, &v, sizeof v);
  CHECK(refused(utf8guard_validator_feed(&v, "ok", 2), 0));
  CHECK(refused(utf8guard_validator_finish(&v), 0));
  CHECK(memcmp(&before, &v, sizeof v) == 0);

  /* init in the middle of a stream starts a new input: the carried E2 82 is
   * dropped, and so is a failure. */
  utf8guard_validator_init(&v);
  CHECK(same(utf8guard_validator_feed(&v, "\xE2\x82", 2), UTF8GUARD_ERROR_NONE, 0, 0));
  utf8guard_validator_init(&v);
  CHECK(
      same(utf8guard_validator_feed(&v, "\xAC", 1), UTF8GUARD_ERROR_UNEXPECTED_CONTINUATION, 0, 1));
  utf8guard_validator_init(&v);
  CHECK(refused(utf8guard_validator_feed(&v, NULL, 4), 0));
  utf8guard_validator_init(&v);
  CHECK(same(utf8guard_validator_feed(&v, "caf\xC3\xA9", 5), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(same(utf8guard_validator_finish(&v), UTF8GUARD_ERROR_NONE, 0, 0));
}

/* ---- One-shot sanitizing ------------------------------------------------------ */

static void test_sanitize(void) {
  char out[16];
  size_t bound = 7, written = 7, replacements = 7, i;

  CHECK(utf8guard_sanitize_bound(1, NULL) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitize_bound(SIZE_MAX, NULL) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT); /* before overflow */
  CHECK(utf8guard_sanitize_bound(0, &bound) == UTF8GUARD_STATUS_OK && bound == 0);

  for (i = 0; i < LENGTHS; ++i) {
    memset(out, 'x', sizeof out);
    written = replacements = 7;
    CHECK(utf8guard_sanitize(NULL, kLengths[i], out, sizeof out, &written, &replacements) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(written == 0 && replacements == 0);
    CHECK(out[0] == 'x' && out[sizeof out - 1] == 'x');
    CHECK(utf8guard_sanitize(NULL, kLengths[i], out, sizeof out, NULL, NULL) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    written = replacements = 7;
    CHECK(utf8guard_sanitize("ab\xC0", 3, NULL, kLengths[i], &written, &replacements) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(written == 0 && replacements == 0);
    CHECK(utf8guard_sanitize(NULL, kLengths[i], NULL, kLengths[i], &written, NULL) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
  }
  /* A caller bug comes before "too small" and before an empty input. */
  CHECK(utf8guard_sanitize("abc", 3, NULL, 1, &written, NULL) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitize(NULL, 3, out, 0, &written, NULL) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitize(NULL, 0, NULL, 1, &written, NULL) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  /* What is not a caller bug: (NULL, 0) in and out, and a zero capacity. */
  CHECK(utf8guard_sanitize(NULL, 0, NULL, 0, &written, &replacements) == UTF8GUARD_STATUS_OK);
  CHECK(written == 0 && replacements == 0);
  CHECK(utf8guard_sanitize("abc", 3, NULL, 0, &written, NULL) == UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
  CHECK(written == 3);
  CHECK(utf8guard_sanitize("a\xC0", 2, out, sizeof out, &written, &replacements) ==
        UTF8GUARD_STATUS_OK);
  CHECK(written == 4 && replacements == 1 && memcmp(out, "a\xEF\xBF\xBD", 4) == 0);
}

/* ---- Streaming sanitizing ----------------------------------------------------- */

static void test_sanitizer(void) {
  utf8guard_sanitizer s, before;
  struct buffer b;
  size_t i;

  utf8guard_sanitizer_init(NULL);
  memset(&b, 0, sizeof b);
  CHECK(utf8guard_sanitizer_feed(NULL, "ab", 2, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitizer_feed(NULL, NULL, 0, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitizer_finish(NULL, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitizer_replacements(NULL) == SIZE_MAX);
  CHECK(b.calls == 0);

  /* A lost chunk: refused, and every later call too, with nothing written:
   * the held-back E2 82 is not turned into output as if the input ended. */
  for (i = 0; i < LENGTHS; ++i) {
    memset(&b, 0, sizeof b);
    utf8guard_sanitizer_init(&s);
    CHECK(utf8guard_sanitizer_feed(&s, "x\xC0y\xE2\x82", 5, append, &b) == UTF8GUARD_STATUS_OK);
    CHECK(buffer_is(&b, "x\xEF\xBF\xBDy", 5));
    CHECK(utf8guard_sanitizer_feed(&s, NULL, kLengths[i], append, &b) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(utf8guard_sanitizer_feed(&s, "\xAC", 1, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(utf8guard_sanitizer_feed(&s, NULL, 0, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(buffer_is(&b, "x\xEF\xBF\xBDy", 5));
    CHECK(utf8guard_sanitizer_replacements(&s) == 1); /* still readable */
  }

  /* A NULL sink, to feed or to finish: refused, and the object fails. */
  memset(&b, 0, sizeof b);
  utf8guard_sanitizer_init(&s);
  CHECK(utf8guard_sanitizer_feed(&s, "ab", 2, NULL, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitizer_feed(&s, "cd", 2, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(b.calls == 0);
  utf8guard_sanitizer_init(&s);
  CHECK(utf8guard_sanitizer_feed(&s, "ab\xE2", 3, NULL, NULL) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  utf8guard_sanitizer_init(&s);
  CHECK(utf8guard_sanitizer_feed(&s, NULL, 0, NULL, NULL) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  utf8guard_sanitizer_init(&s);
  CHECK(utf8guard_sanitizer_feed(&s, "ab\xE2", 3, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_sanitizer_finish(&s, NULL, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(buffer_is(&b, "ab", 2));

  /* A sink that said stop: every later call says so again, calling nothing,
   * so the output never resumes after a hole. */
  memset(&b, 0, sizeof b);
  utf8guard_sanitizer_init(&s);
  CHECK(utf8guard_sanitizer_feed(&s, "abc", 3, refuse, &b) == UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(b.calls == 1);
  CHECK(utf8guard_sanitizer_feed(&s, "def", 3, append, &b) == UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(utf8guard_sanitizer_feed(&s, NULL, 3, append, &b) == UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(b.calls == 1 && b.len == 0);

  /* feed after finish: refused, for good, with nothing written. */
  memset(&b, 0, sizeof b);
  utf8guard_sanitizer_init(&s);
  CHECK(utf8guard_sanitizer_feed(&s, "a\xE2", 2, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(buffer_is(&b, "a\xEF\xBF\xBD", 4));
  CHECK(utf8guard_sanitizer_feed(&s, "\x82\xAC", 2, append, &b) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitizer_feed(&s, NULL, 0, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(buffer_is(&b, "a\xEF\xBF\xBD", 4));
  CHECK(utf8guard_sanitizer_replacements(&s) == 1);

  /* finish twice: OK again, and nothing written or counted twice. */
  memset(&b, 0, sizeof b);
  utf8guard_sanitizer_init(&s);
  CHECK(utf8guard_sanitizer_feed(&s, "a\xF0\x9F", 3, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(buffer_is(&b, "a\xEF\xBF\xBD", 4) && b.calls == 2);
  CHECK(utf8guard_sanitizer_replacements(&s) == 1);
  /* ... and a finish that failed fails again. */
  utf8guard_sanitizer_init(&s);
  CHECK(utf8guard_sanitizer_feed(&s, "\xE2", 1, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_sanitizer_finish(&s, refuse, &b) == UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(b.len == 4);

  /* Never initialised: refused, nothing called, the object left as it was. */
  memset(&b, 0, sizeof b);
  memset(&s, 0, sizeof s);
  memcpy(&before, &s, sizeof s);
  CHECK(utf8guard_sanitizer_feed(&s, "ok", 2, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitizer_replacements(&s) == SIZE_MAX);
  CHECK(memcmp(&before, &s, sizeof s) == 0);
  memset(&s, 0xA5, sizeof s);
  memcpy(&before, &s, sizeof s);
  CHECK(utf8guard_sanitizer_feed(&s, "ok", 2, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitizer_replacements(&s) == SIZE_MAX);
  CHECK(memcmp(&before, &s, sizeof s) == 0);
  CHECK(b.calls == 0);

  /* init in the middle of a stream, and after a failure, starts a new one. */
  memset(&b, 0, sizeof b);
  utf8guard_sanitizer_init(&s);
  CHECK(utf8guard_sanitizer_feed(&s, "\x80\xE2\x82", 3, append, &b) == UTF8GUARD_STATUS_OK);
  utf8guard_sanitizer_init(&s);
  CHECK(utf8guard_sanitizer_replacements(&s) == 0);
  CHECK(utf8guard_sanitizer_feed(&s, "\xAC!", 2, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(buffer_is(&b, "\xEF\xBF\xBD\xEF\xBF\xBD!", 7));
  CHECK(utf8guard_sanitizer_feed(&s, "x", 1, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  utf8guard_sanitizer_init(&s);
  CHECK(utf8guard_sanitizer_feed(&s, "x", 1, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_OK);
  CHECK(buffer_is(&b, "\xEF\xBF\xBD\xEF\xBF\xBD!x", 8));
}

/* ---- Every error of a stream -------------------------------------------------- */

static void test_scanner(void) {
  utf8guard_error_scanner s, before;
  struct error_list l;
  size_t i;

  utf8guard_error_scanner_init(NULL);
  memset(&l, 0, sizeof l);
  CHECK(utf8guard_error_scanner_feed(NULL, "\x80", 1, collect, &l) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_error_scanner_feed(NULL, NULL, 0, collect, &l) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_error_scanner_finish(NULL, collect, &l) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_error_scanner_errors(NULL) == SIZE_MAX);
  CHECK(l.calls == 0);

  /* A lost chunk: refused, for good; the carried F0 90 is never reported as
   * the end of the input. */
  for (i = 0; i < LENGTHS; ++i) {
    memset(&l, 0, sizeof l);
    utf8guard_error_scanner_init(&s);
    CHECK(utf8guard_error_scanner_feed(&s, "\xFFq\xF0\x90", 4, collect, &l) == UTF8GUARD_STATUS_OK);
    CHECK(l.count == 1 && same(l.items[0], UTF8GUARD_ERROR_INVALID_BYTE, 0, 1));
    CHECK(utf8guard_error_scanner_feed(&s, NULL, kLengths[i], collect, &l) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(utf8guard_error_scanner_feed(&s, "\x80", 1, collect, &l) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(utf8guard_error_scanner_finish(&s, collect, &l) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(l.calls == 1);
    CHECK(utf8guard_error_scanner_errors(&s) == 1);
  }

  /* A NULL callback, to feed or to finish. */
  memset(&l, 0, sizeof l);
  utf8guard_error_scanner_init(&s);
  CHECK(utf8guard_error_scanner_feed(&s, "ok", 2, NULL, &l) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_error_scanner_feed(&s, "\x80", 1, collect, &l) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_error_scanner_finish(&s, collect, &l) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  utf8guard_error_scanner_init(&s);
  CHECK(utf8guard_error_scanner_feed(&s, NULL, 0, NULL, NULL) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  utf8guard_error_scanner_init(&s);
  CHECK(utf8guard_error_scanner_feed(&s, "a\xE2", 2, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_error_scanner_finish(&s, NULL, NULL) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_error_scanner_finish(&s, collect, &l) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(l.calls == 0);

  /* A callback that said stop: every later call says so again. */
  memset(&l, 0, sizeof l);
  utf8guard_error_scanner_init(&s);
  CHECK(utf8guard_error_scanner_feed(&s, "\xFF\xFF", 2, stop, &l) == UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(utf8guard_error_scanner_feed(&s, "\x80", 1, collect, &l) == UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(utf8guard_error_scanner_finish(&s, collect, &l) == UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(l.calls == 1 && utf8guard_error_scanner_errors(&s) == 1);

  /* feed after finish: refused, for good. */
  memset(&l, 0, sizeof l);
  utf8guard_error_scanner_init(&s);
  CHECK(utf8guard_error_scanner_feed(&s, "ab\xE2", 3, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_error_scanner_finish(&s, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(l.count == 1 && same(l.items[0], UTF8GUARD_ERROR_INCOMPLETE, 2, 1));
  CHECK(utf8guard_error_scanner_feed(&s, "\x80", 1, collect, &l) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_error_scanner_finish(&s, collect, &l) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(l.calls == 1 && utf8guard_error_scanner_errors(&s) == 1);

  /* finish twice: OK again, "incomplete" reported once. */
  memset(&l, 0, sizeof l);
  utf8guard_error_scanner_init(&s);
  CHECK(utf8guard_error_scanner_feed(&s, "\xF0\x9F\x98", 3, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_error_scanner_finish(&s, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_error_scanner_finish(&s, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(l.calls == 1 && same(l.items[0], UTF8GUARD_ERROR_INCOMPLETE, 0, 3));
  CHECK(utf8guard_error_scanner_errors(&s) == 1);
  /* ... and a finish that failed fails again. */
  utf8guard_error_scanner_init(&s);
  CHECK(utf8guard_error_scanner_feed(&s, "\xE2", 1, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_error_scanner_finish(&s, stop, &l) == UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(utf8guard_error_scanner_finish(&s, collect, &l) == UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(l.calls == 2);

  /* Never initialised. */
  memset(&l, 0, sizeof l);
  memset(&s, 0, sizeof s);
  memcpy(&before, &s, sizeof s);
  CHECK(utf8guard_error_scanner_feed(&s, "\x80", 1, collect, &l) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_error_scanner_finish(&s, collect, &l) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_error_scanner_errors(&s) == SIZE_MAX);
  CHECK(memcmp(&before, &s, sizeof s) == 0);
  memset(&s, 0xA5, sizeof s);
  memcpy(&before, &s, sizeof s);
  CHECK(utf8guard_error_scanner_feed(&s, "\x80", 1, collect, &l) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_error_scanner_finish(&s, collect, &l) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_error_scanner_errors(&s) == SIZE_MAX);
  CHECK(memcmp(&before, &s, sizeof s) == 0);
  CHECK(l.calls == 0);

  /* init in the middle of a stream, and after a failure. */
  memset(&l, 0, sizeof l);
  utf8guard_error_scanner_init(&s);
  CHECK(utf8guard_error_scanner_feed(&s, "\xFF\xE2", 2, collect, &l) == UTF8GUARD_STATUS_OK);
  utf8guard_error_scanner_init(&s);
  CHECK(utf8guard_error_scanner_errors(&s) == 0);
  CHECK(utf8guard_error_scanner_feed(&s, "\xAC", 1, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_error_scanner_finish(&s, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(l.count == 2 && same(l.items[1], UTF8GUARD_ERROR_UNEXPECTED_CONTINUATION, 0, 1));
  CHECK(utf8guard_error_scanner_feed(&s, NULL, 2, collect, &l) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  utf8guard_error_scanner_init(&s);
  CHECK(utf8guard_error_scanner_feed(&s, "a\x80", 2, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_error_scanner_finish(&s, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(l.count == 3 && same(l.items[2], UTF8GUARD_ERROR_UNEXPECTED_CONTINUATION, 1, 1));
}

/* ---- Code points ---------------------------------------------------------------- */

static void test_codec(void) {
  uint32_t cp = 0x1234, cps[4] = {7, 7, 7, 7};
  char out[16];
  size_t count, written, bad, i;
  utf8guard_result err;
  static const uint32_t values[] = {0x24, 0xE9, 0x20AC};
  static const uint32_t with_surrogate[] = {0x41, 0xD800, 0x42};

  /* decode_one: a lost input or a NULL place for the answer. */
  for (i = 0; i < LENGTHS; ++i) {
    CHECK(refused(utf8guard_decode_one(NULL, kLengths[i], &cp), 0));
    CHECK(refused(utf8guard_decode_one(NULL, kLengths[i], NULL), 0));
  }
  CHECK(cp == 0x1234);
  CHECK(refused(utf8guard_decode_one("A", 1, NULL), 0));
  CHECK(refused(utf8guard_decode_one("\xC0", 1, NULL), 0)); /* before the input's error */
  CHECK(refused(utf8guard_decode_one(NULL, 0, NULL), 0));   /* before "incomplete" */
  CHECK(same(utf8guard_decode_one(NULL, 0, &cp), UTF8GUARD_ERROR_INCOMPLETE, 0, 0));

  /* decode: a lost input or a lost output. */
  for (i = 0; i < LENGTHS; ++i) {
    count = 7;
    err.kind = UTF8GUARD_ERROR_NONE;
    err.offset = err.length = 7;
    CHECK(utf8guard_decode(NULL, kLengths[i], cps, 4, &count, &err) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(count == 0 && refused(err, 0));
    CHECK(utf8guard_decode(NULL, kLengths[i], cps, 4, NULL, NULL) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    count = 7;
    CHECK(utf8guard_decode("ab", 2, NULL, kLengths[i], &count, &err) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(count == 0 && refused(err, 0));
  }
  CHECK(cps[0] == 7 && cps[3] == 7);
  /* Before "ill-formed" and "too small". */
  CHECK(utf8guard_decode("\xFF", 1, NULL, 1, &count, &err) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_decode(NULL, 2, cps, 0, &count, &err) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  /* Not caller bugs. */
  CHECK(utf8guard_decode(NULL, 0, NULL, 0, &count, &err) == UTF8GUARD_STATUS_OK && count == 0);
  CHECK(utf8guard_decode("ab", 2, NULL, 0, &count, NULL) == UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
  CHECK(count == 2);

  /* encode_one: nowhere to write. */
  CHECK(utf8guard_encode_one(0x41, NULL) == 0);
  CHECK(utf8guard_encode_one(0x10FFFF, NULL) == 0);
  CHECK(utf8guard_encode_one(0xD800, NULL) == 0);

  /* encode: lost code points or a lost output. */
  for (i = 0; i < LENGTHS; ++i) {
    memset(out, 'x', sizeof out);
    written = bad = 7;
    CHECK(utf8guard_encode(NULL, kLengths[i], out, sizeof out, &written, &bad) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(written == 0 && bad == 7 && out[0] == 'x');
    written = 7;
    CHECK(utf8guard_encode(values, 3, NULL, kLengths[i], &written, &bad) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(written == 0 && bad == 7);
    CHECK(utf8guard_encode(NULL, kLengths[i], NULL, kLengths[i], NULL, NULL) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
  }
  /* Before "ill-formed" and "too small". */
  CHECK(utf8guard_encode(with_surrogate, 3, NULL, 8, &written, &bad) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(bad == 7);
  CHECK(utf8guard_encode(NULL, 1, out, 0, &written, NULL) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  /* Not caller bugs. */
  CHECK(utf8guard_encode(NULL, 0, NULL, 0, &written, &bad) == UTF8GUARD_STATUS_OK && written == 0);
  CHECK(utf8guard_encode(values, 3, NULL, 0, &written, NULL) == UTF8GUARD_STATUS_BUFFER_TOO_SMALL);
  CHECK(written == 6);
}

/* ---- Policies and hints ------------------------------------------------------- */

static void test_policies(void) {
  const utf8guard_policy deny = UTF8GUARD_PROFILE_FIELD;
  utf8guard_policy p = 7;
  utf8guard_validator v;
  utf8guard_sanitizer s;
  utf8guard_error_scanner sc;
  struct buffer b;
  struct error_list l;
  char out[16];
  size_t written = 7, replacements = 7, i;

  for (i = 0; i < LENGTHS; ++i) {
    CHECK(!utf8guard_is_valid_policy(NULL, kLengths[i], deny));
    CHECK(!utf8guard_is_valid_policy(NULL, kLengths[i], 0));
    CHECK(refused(utf8guard_validate_policy(NULL, kLengths[i], deny), 0));
    CHECK(utf8guard_sanitize_policy(NULL, kLengths[i], out, sizeof out, &written, &replacements,
                                    deny) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(written == 0 && replacements == 0);
    CHECK(utf8guard_sanitize_policy("a", 1, NULL, kLengths[i], &written, NULL, deny) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    /* A lost name is no name; a lost input has nothing to explain. */
    CHECK(utf8guard_category_from_name(NULL, kLengths[i]) == UTF8GUARD_CATEGORY_NONE);
    CHECK(!utf8guard_profile_from_name(NULL, kLengths[i], &p) && p == 7);
    CHECK(utf8guard_explain(NULL, kLengths[i], 0).kind == UTF8GUARD_HINT_NONE);
  }
  CHECK(utf8guard_is_valid_policy(NULL, 0, deny));
  CHECK(!utf8guard_profile_from_name("json", 4, NULL)); /* nowhere to store it */
  CHECK(utf8guard_profile_from_name("json", 4, &p) && p == UTF8GUARD_PROFILE_JSON);
  CHECK(strcmp(utf8guard_category_name((utf8guard_category)-1), "unknown") == 0);
  CHECK(utf8guard_profile_name(SIZE_MAX) == NULL);
  CHECK(strcmp(utf8guard_hint_name((utf8guard_hint_kind)-1), "unknown") == 0);

  /* init_policy(NULL) does nothing; the objects it sets up follow the same
   * life as init's. */
  utf8guard_validator_init_policy(NULL, deny);
  utf8guard_sanitizer_init_policy(NULL, deny);
  utf8guard_error_scanner_init_policy(NULL, deny);
  utf8guard_validator_init_policy(&v, deny);
  CHECK(same(utf8guard_validator_feed(&v, "ab", 2), UTF8GUARD_ERROR_NONE, 0, 0));
  CHECK(refused(utf8guard_validator_feed(&v, NULL, 2), 2));
  CHECK(refused(utf8guard_validator_finish(&v), 2));
  memset(&b, 0, sizeof b);
  utf8guard_sanitizer_init_policy(&s, deny);
  CHECK(utf8guard_sanitizer_feed(&s, "ab", 2, NULL, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_sanitizer_finish(&s, append, &b) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(b.calls == 0);
  memset(&l, 0, sizeof l);
  utf8guard_error_scanner_init_policy(&sc, deny);
  CHECK(utf8guard_error_scanner_feed(&sc, "a", 1, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_error_scanner_finish(&sc, collect, &l) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_error_scanner_feed(&sc, "\x01", 1, collect, &l) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(l.calls == 0);
}

/* ---- Percent-encoded input ---------------------------------------------------- */

static int refused_percent(utf8guard_encoded_result r, size_t position) {
  return refused(r.error, position);
}

static bool count_percent(void* ctx, utf8guard_encoded_result e) {
  (void)e;
  ++*(int*)ctx;
  return true;
}

static bool stop_percent(void* ctx, utf8guard_encoded_result e) {
  (void)e;
  ++*(int*)ctx;
  return false;
}

static void test_percent(void) {
  const utf8guard_policy url = UTF8GUARD_PROFILE_URL;
  utf8guard_percent_stream v, s, before;
  char out[8];
  size_t written = 7, i;
  int calls = 0;

  for (i = 0; i < LENGTHS; ++i) {
    CHECK(!utf8guard_percent_is_valid(NULL, kLengths[i], 0));
    CHECK(!utf8guard_percent_is_valid(NULL, kLengths[i], url));
    CHECK(refused_percent(utf8guard_percent_validate(NULL, kLengths[i], url), 0));
    written = 7;
    CHECK(utf8guard_percent_decode(NULL, kLengths[i], out, kLengths[i], &written) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(written == 0);
  }
  written = 7;
  CHECK(utf8guard_percent_decode("%41", 3, NULL, 3, &written) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(written == 0);
  CHECK(utf8guard_percent_decode("%41", 3, out, 3, NULL) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_percent_decode(NULL, 0, NULL, 0, &written) == UTF8GUARD_STATUS_OK &&
        written == 0);

  /* NULL objects. */
  utf8guard_percent_validator_init(NULL, url);
  utf8guard_percent_scanner_init(NULL, url);
  CHECK(refused_percent(utf8guard_percent_validator_feed(NULL, "a", 1), 0));
  CHECK(refused_percent(utf8guard_percent_validator_finish(NULL), 0));
  CHECK(utf8guard_percent_scanner_feed(NULL, "a", 1, count_percent, &calls) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_percent_scanner_finish(NULL, count_percent, &calls) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_percent_scanner_errors(NULL) == SIZE_MAX);

  /* A lost chunk in the middle of an escape: refused at the stream's
   * position, for good; the open "%C" is never reported as a bad escape. */
  for (i = 0; i < LENGTHS; ++i) {
    utf8guard_percent_validator_init(&v, url);
    CHECK(utf8guard_percent_validator_feed(&v, "ab%C", 4).error.kind == UTF8GUARD_ERROR_NONE);
    CHECK(refused_percent(utf8guard_percent_validator_feed(&v, NULL, kLengths[i]), 4));
    CHECK(refused_percent(utf8guard_percent_validator_feed(&v, "3", 1), 4));
    CHECK(refused_percent(utf8guard_percent_validator_finish(&v), 4));
    calls = 0;
    utf8guard_percent_scanner_init(&s, url);
    CHECK(utf8guard_percent_scanner_feed(&s, "ab%C", 4, count_percent, &calls) ==
          UTF8GUARD_STATUS_OK);
    CHECK(utf8guard_percent_scanner_feed(&s, NULL, kLengths[i], count_percent, &calls) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(utf8guard_percent_scanner_finish(&s, count_percent, &calls) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(calls == 0 && utf8guard_percent_scanner_errors(&s) == 0);
  }

  /* A NULL callback; a callback that said stop. */
  calls = 0;
  utf8guard_percent_scanner_init(&s, url);
  CHECK(utf8guard_percent_scanner_feed(&s, "a", 1, NULL, &calls) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_percent_scanner_feed(&s, "%zz", 3, count_percent, &calls) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  utf8guard_percent_scanner_init(&s, url);
  CHECK(utf8guard_percent_scanner_finish(&s, NULL, NULL) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  utf8guard_percent_scanner_init(&s, url);
  CHECK(utf8guard_percent_scanner_feed(&s, "%zz%zz", 6, stop_percent, &calls) ==
        UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(utf8guard_percent_scanner_finish(&s, count_percent, &calls) ==
        UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(calls == 1);

  /* feed after finish: refused; finish twice: the same answer. */
  utf8guard_percent_validator_init(&v, url);
  CHECK(utf8guard_percent_validator_feed(&v, "%41", 3).error.kind == UTF8GUARD_ERROR_NONE);
  CHECK(utf8guard_percent_validator_finish(&v).error.kind == UTF8GUARD_ERROR_NONE);
  CHECK(utf8guard_percent_validator_finish(&v).error.kind == UTF8GUARD_ERROR_NONE);
  CHECK(refused_percent(utf8guard_percent_validator_feed(&v, "b", 1), 3));
  CHECK(refused_percent(utf8guard_percent_validator_finish(&v), 3));
  calls = 0;
  utf8guard_percent_scanner_init(&s, url);
  CHECK(utf8guard_percent_scanner_feed(&s, "a%", 2, count_percent, &calls) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_percent_scanner_finish(&s, count_percent, &calls) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_percent_scanner_finish(&s, count_percent, &calls) == UTF8GUARD_STATUS_OK);
  CHECK(calls == 1 && utf8guard_percent_scanner_errors(&s) == 1);
  CHECK(utf8guard_percent_scanner_feed(&s, "b", 1, count_percent, &calls) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);

  /* A stream set up by one init is refused by the other's functions. */
  calls = 0;
  utf8guard_percent_validator_init(&v, url);
  utf8guard_percent_scanner_init(&s, url);
  CHECK(utf8guard_percent_scanner_feed(&v, "%zz", 3, count_percent, &calls) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_percent_scanner_finish(&v, count_percent, &calls) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(refused_percent(utf8guard_percent_validator_feed(&s, "%zz", 3), 0));
  CHECK(refused_percent(utf8guard_percent_validator_finish(&s), 0));
  CHECK(calls == 0);

  /* Never initialised: refused, and nothing written to it. */
  for (i = 0; i < 2; ++i) {
    memset(&s, i == 0 ? 0 : 0xA5, sizeof s);
    memcpy(&before, &s, sizeof s);
    CHECK(refused_percent(utf8guard_percent_validator_feed(&s, "a", 1), 0));
    CHECK(refused_percent(utf8guard_percent_validator_finish(&s), 0));
    CHECK(utf8guard_percent_scanner_feed(&s, "%zz", 3, count_percent, &calls) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(utf8guard_percent_scanner_finish(&s, count_percent, &calls) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(utf8guard_percent_scanner_errors(&s) == SIZE_MAX);
    CHECK(memcmp(&before, &s, sizeof s) == 0);
  }
  CHECK(calls == 0);

  /* init is the way back, also after a failure. */
  utf8guard_percent_scanner_init(&s, url);
  CHECK(utf8guard_percent_scanner_feed(&s, "%zz", 3, count_percent, &calls) == UTF8GUARD_STATUS_OK);
  CHECK(utf8guard_percent_scanner_finish(&s, count_percent, &calls) == UTF8GUARD_STATUS_OK);
  CHECK(calls == 1);
  utf8guard_percent_validator_init(&v, url);
  CHECK(utf8guard_percent_validator_feed(&v, "%zz", 3).error.kind == UTF8GUARD_ERROR_DISALLOWED);
}

/* ---- Kernels and version ------------------------------------------------------ */

static void test_kernels(void) {
  const char* before = utf8guard_active_kernel();
  size_t count = utf8guard_kernel_count();
  bool usable = true;
  CHECK(!utf8guard_set_kernel(NULL));
  CHECK(strcmp(utf8guard_active_kernel(), before) == 0);
  CHECK(utf8guard_kernel_name(count, &usable) == NULL && usable);
  usable = false;
  CHECK(utf8guard_kernel_name(SIZE_MAX, &usable) == NULL && !usable);
  CHECK(utf8guard_kernel_name(SIZE_MAX, NULL) == NULL);
  CHECK(utf8guard_kernel_name(0, NULL) != NULL); /* usable is optional */
  /* The rest take no argument to misuse; they answer all the same. */
  CHECK(utf8guard_version() != NULL);
  CHECK(getenv("UTF8GUARD_KERNEL") != NULL || utf8guard_kernel_env_error() == NULL);
}

/* The older names of the percent form refuse what the new ones refuse. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
static void test_percent_aliases(void) {
  const utf8guard_encoded_result pr = utf8guard_percent_validate("a%C0", 4, 0);
  char out[40];
  size_t i;
  for (i = 0; i < LENGTHS; ++i) {
    CHECK(!utf8guard_is_valid_percent_encoded(NULL, kLengths[i], 0));
    CHECK(refused_percent(utf8guard_validate_percent_encoded(NULL, kLengths[i], 0), 0));
    CHECK(utf8guard_describe_percent(NULL, kLengths[i], 0, pr, 0, out, sizeof out) == 0);
    CHECK(utf8guard_explain_percent(NULL, kLengths[i], 0, pr).kind == UTF8GUARD_HINT_NONE);
  }
}
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* ---- JSON text ------------------------------------------------------------------ */

static void test_json(void) {
  const utf8guard_policy field = UTF8GUARD_PROFILE_FIELD;
  const utf8guard_encoded_result lone = utf8guard_json_validate("\\ud800", 6, 0);
  utf8guard_json_stream v, s;
  char out[40];
  size_t written = 7, i;
  int calls = 0;

  for (i = 0; i < LENGTHS; ++i) {
    CHECK(!utf8guard_json_is_valid(NULL, kLengths[i], 0));
    CHECK(refused_percent(utf8guard_json_validate(NULL, kLengths[i], field), 0));
    written = 7;
    CHECK(utf8guard_json_sanitize(NULL, kLengths[i], field, out, sizeof out, &written) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(written == 0);
    written = 7;
    CHECK(
        utf8guard_json_sanitize("\\ud800", 6, 0, NULL, kLengths[i], &written) ==
        (kLengths[i] == 0 ? UTF8GUARD_STATUS_BUFFER_TOO_SMALL : UTF8GUARD_STATUS_INVALID_ARGUMENT));
    CHECK(written == (kLengths[i] == 0 ? 6 : 0));
    CHECK(utf8guard_json_describe(NULL, kLengths[i], 0, lone, 0, out, sizeof out) == 0);
    CHECK(utf8guard_json_describe("\\ud800", 6, 0, lone, 0, NULL, kLengths[i]) == 0);
    CHECK(utf8guard_json_explain(NULL, kLengths[i], 0, lone).kind == UTF8GUARD_HINT_NONE);
    CHECK(utf8guard_json_truncate(NULL, kLengths[i], 10, UTF8GUARD_TRUNCATE_WELL_FORMED) == 0);
  }
  CHECK(utf8guard_json_sanitize_bound(3, NULL) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_json_sanitize_bound(SIZE_MAX, &written) == UTF8GUARD_STATUS_OVERFLOW);
  CHECK(utf8guard_json_truncate("abc", 3, 2, (utf8guard_truncate_mode)7) == 0);
  CHECK(utf8guard_json_describe("\\ud800", 6, 0, lone, 0, out, 1) == 44 && out[0] == '\0');

  /* NULL objects. */
  utf8guard_json_validator_init(NULL, field);
  utf8guard_json_scanner_init(NULL, field);
  CHECK(refused_percent(utf8guard_json_validator_feed(NULL, "a", 1), 0));
  CHECK(refused_percent(utf8guard_json_validator_finish(NULL), 0));
  CHECK(utf8guard_json_scanner_feed(NULL, "a", 1, count_percent, &calls) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_json_scanner_finish(NULL, count_percent, &calls) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(utf8guard_json_scanner_errors(NULL) == SIZE_MAX);

  /* A lost chunk in the middle of an escape: refused at the stream's
   * position, for good; the open "\ud8" is never reported. */
  for (i = 0; i < LENGTHS; ++i) {
    utf8guard_json_validator_init(&v, field);
    CHECK(utf8guard_json_validator_feed(&v, "ab\\ud8", 6).error.kind == UTF8GUARD_ERROR_NONE);
    CHECK(refused_percent(utf8guard_json_validator_feed(&v, NULL, kLengths[i]), 6));
    CHECK(refused_percent(utf8guard_json_validator_feed(&v, "00", 2), 6));
    CHECK(refused_percent(utf8guard_json_validator_finish(&v), 6));
    calls = 0;
    utf8guard_json_scanner_init(&s, field);
    CHECK(utf8guard_json_scanner_feed(&s, "ab\\ud8", 6, count_percent, &calls) ==
          UTF8GUARD_STATUS_OK);
    CHECK(utf8guard_json_scanner_feed(&s, NULL, kLengths[i], count_percent, &calls) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(utf8guard_json_scanner_finish(&s, count_percent, &calls) ==
          UTF8GUARD_STATUS_INVALID_ARGUMENT);
    CHECK(calls == 0 && utf8guard_json_scanner_errors(&s) == 0);
  }

  /* A NULL callback; a callback that said stop; a stream of the other kind. */
  calls = 0;
  utf8guard_json_scanner_init(&s, field);
  CHECK(utf8guard_json_scanner_feed(&s, "a", 1, NULL, &calls) == UTF8GUARD_STATUS_INVALID_ARGUMENT);
  utf8guard_json_scanner_init(&s, field);
  CHECK(utf8guard_json_scanner_feed(&s, "\\udc00\\udc00", 12, stop_percent, &calls) ==
        UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(utf8guard_json_scanner_finish(&s, count_percent, &calls) == UTF8GUARD_STATUS_SINK_FAILED);
  CHECK(calls == 1);
  utf8guard_json_validator_init(&v, field);
  CHECK(utf8guard_json_scanner_feed(&v, "a", 1, count_percent, &calls) ==
        UTF8GUARD_STATUS_INVALID_ARGUMENT);
  CHECK(refused_percent(utf8guard_json_validator_feed(&s, "a", 1), 0));

  /* feed after finish: refused; finish twice: the same answer. */
  utf8guard_json_validator_init(&v, field);
  CHECK(utf8guard_json_validator_feed(&v, "\\u0041", 6).error.kind == UTF8GUARD_ERROR_NONE);
  CHECK(utf8guard_json_validator_finish(&v).error.kind == UTF8GUARD_ERROR_NONE);
  CHECK(utf8guard_json_validator_finish(&v).error.kind == UTF8GUARD_ERROR_NONE);
  CHECK(refused_percent(utf8guard_json_validator_feed(&v, "b", 1), 6));
}

/* describe, truncate, policy_parse and explain_percent: lost inputs and
 * outputs are refused without a dereference; a one-byte-short buffer gets a
 * cut, NUL-ended text and the whole length. */
static void test_messages(void) {
  utf8guard_result r = utf8guard_validate("a\xC0", 2);
  utf8guard_encoded_result pr = utf8guard_percent_validate("a%C0", 4, 0);
  utf8guard_policy p = 7;
  size_t i, at = 7, len = 7;
  char out[40];
  memset(out, 'x', sizeof out);
  for (i = 0; i < LENGTHS; ++i) {
    CHECK(utf8guard_describe(NULL, kLengths[i], 0, r, 0, out, sizeof out) == 0);
    CHECK(utf8guard_describe("a\xC0", 2, 0, r, 0, NULL, kLengths[i]) == 0);
    CHECK(utf8guard_percent_describe(NULL, kLengths[i], 0, pr, 0, out, sizeof out) == 0);
    CHECK(utf8guard_percent_describe("a%C0", 4, 0, pr, 0, NULL, kLengths[i]) == 0);
    CHECK(utf8guard_percent_explain(NULL, kLengths[i], 0, pr).kind == UTF8GUARD_HINT_NONE);
    CHECK(utf8guard_truncate(NULL, kLengths[i], 10, UTF8GUARD_TRUNCATE_WELL_FORMED) == 0);
    CHECK(!utf8guard_policy_parse(NULL, kLengths[i], &p, &at, &len));
    CHECK(p == 7 && at == 0 && len == 0);
  }
  CHECK(out[0] == 'x');
  /* Zero and one-byte-short capacities: the length, a NUL-ended prefix. */
  CHECK(utf8guard_describe("a\xC0", 2, 0, r, 0, NULL, 0) == 23);
  CHECK(utf8guard_describe("a\xC0", 2, 0, r, 0, out, 23) == 23);
  CHECK(strcmp(out, "overlong at byte 1 (C0") == 0);
  CHECK(utf8guard_percent_describe("a%C0", 4, 0, pr, 0, out, 1) == 23 && out[0] == '\0');
  /* A result that does not belong to the bytes: only the window is read. */
  r.offset = 1000;
  CHECK(utf8guard_describe("a\xC0", 2, 0, r, 0, out, sizeof out) > 0);
  CHECK(strcmp(out, "overlong at byte 1000 ()") == 0);
  r.kind = (utf8guard_error)1234;
  CHECK(utf8guard_describe("a\xC0", 2, 0, r, 0, out, sizeof out) > 0);
  CHECK(strncmp(out, "unknown", 7) == 0);
  /* Modes that are neither, and NULL places for the answer. */
  CHECK(utf8guard_truncate("abc", 3, 2, (utf8guard_truncate_mode)7) == 0);
  CHECK(!utf8guard_policy_parse("nul", 3, NULL, &at, &len));
  CHECK(utf8guard_policy_parse("nul", 3, &p, NULL, NULL) && p == UTF8GUARD_CATEGORY_NUL);
  CHECK(!utf8guard_policy_parse("x", 1, &p, NULL, NULL));
  CHECK(utf8guard_truncate(NULL, 0, 5, UTF8GUARD_TRUNCATE_KEEP_ILL_FORMED) == 0);
}

/* ---- Finding windows -------------------------------------------------------- */

static void test_finding_window(void) {
  utf8guard_finding_window w;
  size_t i, len = 7, base = 7;
  const char* bytes;
  /* A NULL window: ignored, never marked or ready, an empty window. */
  utf8guard_finding_window_init(NULL, UTF8GUARD_FORM_RAW, UTF8GUARD_DESCRIBE_HINT);
  CHECK(!utf8guard_finding_window_mark(NULL, 0));
  utf8guard_finding_window_feed(NULL, "a\xC0", 2);
  utf8guard_finding_window_finish(NULL);
  CHECK(!utf8guard_finding_window_marked(NULL) && !utf8guard_finding_window_ready(NULL));
  bytes = utf8guard_finding_window_bytes(NULL, &len, &base);
  CHECK(bytes != NULL && len == 0 && base == 0);
  /* An unknown form is raw; a lost chunk is ignored; NULL answer places. */
  utf8guard_finding_window_init(&w, (utf8guard_form)77, 0);
  for (i = 0; i < LENGTHS; ++i) utf8guard_finding_window_feed(&w, NULL, kLengths[i]);
  len = base = 7;
  bytes = utf8guard_finding_window_bytes(&w, &len, &base);
  CHECK(bytes != NULL && len == 0 && base == 0 && !utf8guard_finding_window_marked(&w));
  utf8guard_finding_window_feed(&w, NULL, 0);
  utf8guard_finding_window_feed(&w, "ab\xC0", 3);
  CHECK(utf8guard_finding_window_mark(&w, 2));
  CHECK(!utf8guard_finding_window_mark(&w, 0)); /* the first mark stands */
  CHECK(!utf8guard_finding_window_ready(&w));
  utf8guard_finding_window_finish(&w);
  CHECK(utf8guard_finding_window_ready(&w));
  CHECK(utf8guard_finding_window_bytes(&w, NULL, NULL) != NULL);
  bytes = utf8guard_finding_window_bytes(&w, &len, &base);
  CHECK(len == 3 && base == 0 && memcmp(bytes, "ab\xC0", 3) == 0);
}

int main(void) {
  size_t i, kernels_run = 0;
  test_names();
  test_codec();
  test_kernels();
  test_finding_window();
  for (i = 0; i < utf8guard_kernel_count(); ++i) {
    bool usable = false;
    const char* name = utf8guard_kernel_name(i, &usable);
    if (!usable) continue;
    CHECK(utf8guard_set_kernel(name));
    test_validate();
    test_validator();
    test_sanitize();
    test_sanitizer();
    test_scanner();
    test_policies();
    test_percent();
    test_percent_aliases();
    test_json();
    test_messages();
    ++kernels_run;
  }
  CHECK(kernels_run >= 1);
  CHECK(utf8guard_set_kernel("best"));
  printf("c_misuse_test: %zu kernel(s), %d failure(s)\n", kernels_run, failures);
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
