/* c_check.h - what the strict C99 tests share (utf8guard_add_c99_test):
 * CHECK(cond), which reports a failed condition with its file, line and the
 * active kernel and counts it in `failures`, and same() for results. Include
 * it once, in the test's one source file. */
#ifndef UTF8GUARD_TESTS_SUPPORT_C_CHECK_H
#define UTF8GUARD_TESTS_SUPPORT_C_CHECK_H

#include <stdio.h>

#include <utf8guard/utf8guard.h>

static int failures = 0;

#define CHECK(cond) check((cond) ? 1 : 0, #cond, __FILE__, __LINE__)

static void check(int ok, const char* what, const char* file, int line) {
  if (!ok) {
    fprintf(stderr, "%s:%d: failed: %s (kernel %s)\n", file, line, what, utf8guard_active_kernel());
    ++failures;
  }
}

/* same checks a result against an expected kind, offset and length. */
static int same(utf8guard_result r, utf8guard_error kind, size_t offset, size_t length) {
  return r.kind == kind && r.offset == offset && r.length == length;
}

#endif /* UTF8GUARD_TESTS_SUPPORT_C_CHECK_H */
