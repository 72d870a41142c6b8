/* unit_check.h - what the C unit tests of the rule core and the multipart
 * checker share: a failure count, CHECK, and a seeded xorshift generator (the
 * same sequence on every run, for chunkings and cut points). One test program
 * includes it once. */
#ifndef UTF8GUARD_NGINX_UNIT_CHECK_H
#define UTF8GUARD_NGINX_UNIT_CHECK_H

#include <stdint.h>
#include <stdio.h>

static int failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
      failures++;                                                              \
    }                                                                          \
  } while (0)

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

#endif
