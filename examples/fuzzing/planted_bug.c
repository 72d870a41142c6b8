/* planted_bug.c - a libFuzzer target with a planted, narrow bug: a UTF-8
 * validator that accepts exactly the 3-byte overlong forms E0 80..9F xx of an
 * ASCII delimiter (/ . \ " ' < > % NUL) and nothing else that is wrong, under
 * utf8guard's differential oracle. It is the measure of the mutator
 * (fuzz/measure_mutator.sh): built with UTF8GUARD_FUZZ_LIBFUZZER_MUTATOR
 * (PLANTED_WITH_MUTATOR) and without, the same target counts the executions
 * until the oracle catches the bug. */
#include <stdio.h>
#include <utf8guard/fuzz.h>

#ifdef PLANTED_WITH_MUTATOR
UTF8GUARD_FUZZ_LIBFUZZER_MUTATOR
#endif

static int is_delimiter(unsigned v) {
  return v == '/' || v == '.' || v == '\\' || v == '"' || v == '\'' || v == '<' || v == '>' ||
         v == '%' || v == 0;
}

static int cont(uint8_t b) { return (b & 0xC0) == 0x80; }

/* planted_validate walks Table 3-7 row by row and returns 1 when the input is
 * valid, else 0 with the first error's offset in *at. */
static int planted_validate(const uint8_t* p, size_t n, size_t* at) {
  size_t i = 0;
  while (i < n) {
    const uint8_t b = p[i];
    size_t len = 0;
    if (b < 0x80) {
      len = 1;
    } else if (b >= 0xC2 && b <= 0xDF) {
      len = i + 1 < n && cont(p[i + 1]) ? 2 : 0;
    } else if (b >= 0xE0 && b <= 0xEF && i + 2 < n && cont(p[i + 1]) && cont(p[i + 2])) {
      const uint8_t lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
      if (p[i + 1] >= lo && p[i + 1] <= hi) len = 3;
      /* The planted bug: the overlong row E0 80..9F let through for delimiters. */
      if (b == 0xE0 && p[i + 1] <= 0x9F &&
          is_delimiter(((p[i + 1] & 0x3Fu) << 6) | (p[i + 2] & 0x3Fu)))
        len = 3;
    } else if (b >= 0xF0 && b <= 0xF4 && i + 3 < n && cont(p[i + 1]) && cont(p[i + 2]) &&
               cont(p[i + 3])) {
      const uint8_t lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
      if (p[i + 1] >= lo && p[i + 1] <= hi) len = 4;
    }
    if (len == 0) {
      *at = i;
      return 0;
    }
    i += len;
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static unsigned long long executions = 0;
  size_t at = 0;
  const int valid = planted_validate(data, size, &at);
  ++executions;
  /* The first error's offset is deliberately left out: the verdict alone is the
   * narrow difference (an offset would also catch errors the bug hides). */
  if (!utf8guard_fuzz_agrees((const char*)data, size, valid, UTF8GUARD_FUZZ_NO_OFFSET, 0)) {
    fprintf(stderr, "planted_bug: executions to first crash: %llu\n", executions);
    utf8guard_fuzz_check("planted validator", (const char*)data, size, valid,
                         UTF8GUARD_FUZZ_NO_OFFSET, 0);
  }
  return 0;
}
