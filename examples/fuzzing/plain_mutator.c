/* plain_mutator.c - the mutator and the oracle without any fuzzing engine:
 * a loop of your own mutates a seed with utf8guard_fuzz_mutate and asks the
 * oracle about a decoder's verdict. The decoder here is a classic lax one
 * (it checks the bit pattern only, like libxml2's xmlCheckUTF8); the loop
 * must catch it and print the oracle's report. Exit 0 when it does. */
#include <stdio.h>
#include <string.h>
#include <utf8guard/fuzz.h>

/* lax_is_utf8 accepts any sequence of 1- to 4-byte bit patterns. */
static bool lax_is_utf8(const uint8_t* p, size_t n) {
  size_t i = 0;
  while (i < n) {
    const size_t len = p[i] < 0x80       ? 1
                       : p[i] >> 5 == 6  ? 2
                       : p[i] >> 4 == 14 ? 3
                       : p[i] >> 3 == 30 ? 4
                                         : 0;
    if (len == 0 || n - i < len) return false;
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return false;
    }
    i += len;
  }
  return true;
}

int main(void) {
  static const char seed[] = "GET /index.html?q=caf\xC3\xA9";
  uint8_t buf[256];
  for (unsigned run = 0; run < 100000; ++run) {
    /* Each run starts again from the seed and stacks up to 4 mutations. */
    size_t size = sizeof seed - 1;
    memcpy(buf, seed, size);
    for (unsigned k = 0; k <= run % 4; ++k) {
      size = utf8guard_fuzz_mutate(buf, size, sizeof buf, run * 4 + k);
    }
    const bool valid = lax_is_utf8(buf, size);
    if (!utf8guard_fuzz_agrees((const char*)buf, size, valid, UTF8GUARD_FUZZ_NO_OFFSET, 0)) {
      char report[2048];
      utf8guard_fuzz_report(report, sizeof report, "lax_is_utf8", (const char*)buf, size, valid,
                            UTF8GUARD_FUZZ_NO_OFFSET, 0);
      printf("caught after %u runs:\n%s", run + 1, report);
      return 0;
    }
  }
  puts("the lax decoder was not caught");
  return 1;
}
