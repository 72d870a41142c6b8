/* c_check.h - what the strict C99 tests share (utf8guard_add_c99_test):
 * CHECK(cond), which reports a failed condition with its file, line and the
 * active kernel and counts it in `failures`, same() for results, and the
 * sinks and callbacks the streaming calls are given, each recording what it
 * was given. Include it once, in the test's one source file. */
#ifndef UTF8GUARD_TESTS_SUPPORT_C_CHECK_H
#define UTF8GUARD_TESTS_SUPPORT_C_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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

/* buffer: what append() was given, and how many calls a sink received. */
struct buffer {
  char data[256];
  size_t len;
  int calls;
};

/* append is a sink that keeps the bytes, refusing what does not fit. */
static inline bool append(void* ctx, const char* p, size_t n) {
  struct buffer* b = (struct buffer*)ctx;
  ++b->calls;
  if (n > sizeof b->data - b->len) return false;
  memcpy(b->data + b->len, p, n);
  b->len += n;
  return true;
}

/* refuse is a sink that says stop at once; ctx is a struct buffer or NULL. */
static inline bool refuse(void* ctx, const char* p, size_t n) {
  (void)p;
  (void)n;
  if (ctx != NULL) ++((struct buffer*)ctx)->calls;
  return false;
}

static inline int buffer_is(const struct buffer* b, const char* want, size_t len) {
  return b->len == len && memcmp(b->data, want, len) == 0;
}

/* error_list: the errors collect() was given, and how many calls a
 * callback received. */
struct error_list {
  utf8guard_result items[16];
  size_t count;
  int calls;
};

/* collect keeps each error, saying stop when the list is full. */
static inline bool collect(void* ctx, utf8guard_result e) {
  struct error_list* l = (struct error_list*)ctx;
  ++l->calls;
  if (l->count == sizeof l->items / sizeof l->items[0]) return false;
  l->items[l->count++] = e;
  return true;
}

/* stop is a callback that says stop at once. */
static inline bool stop(void* ctx, utf8guard_result e) {
  (void)e;
  ++((struct error_list*)ctx)->calls;
  return false;
}

#endif /* UTF8GUARD_TESTS_SUPPORT_C_CHECK_H */
