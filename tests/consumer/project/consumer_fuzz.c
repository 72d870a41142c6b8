/* A C99 fuzzing job's use of utf8guard's fuzzing helpers (utf8guard::fuzz,
 * pkg-config utf8guard-fuzz): the mutator as a plain C function, the oracle on
 * a lax decoder's verdict, and the AFL++ mutator module loaded as afl-fuzz
 * loads it (dlopen), when AFL_MUTATOR (a path given with -D) is set.
 * Exits 0 only if each answers as fuzz.h says. */
#include <utf8guard/fuzz.h>

#include <stdio.h>
#include <string.h>
#ifdef AFL_MUTATOR
#include <dlfcn.h>
#endif

static int mutates(void) {
  uint8_t a[64] = "GET /index.html";
  uint8_t b[64] = "GET /index.html";
  const size_t len = strlen((const char*)a);
  const size_t na = utf8guard_fuzz_mutate(a, len, sizeof a, 42);
  const size_t nb = utf8guard_fuzz_mutate(b, len, sizeof b, 42);
  return na <= sizeof a && na == nb && memcmp(a, b, na) == 0;
}

static int judges(void) {
  static const char lax_ok[] = "..\xC0\xAF..";
  char report[512];
  const size_t n = sizeof lax_ok - 1;
  /* A decoder that accepts the overlong '/': wrong, unless overlongs are tolerated. */
  const int strict = !utf8guard_fuzz_agrees(lax_ok, n, true, UTF8GUARD_FUZZ_NO_OFFSET, 0);
  const int tolerant = utf8guard_fuzz_agrees(lax_ok, n, true, UTF8GUARD_FUZZ_NO_OFFSET,
                                             UTF8GUARD_FUZZ_ACCEPTS_OVERLONG);
  const size_t full = utf8guard_fuzz_report(report, sizeof report, "lax", lax_ok, n, true,
                                            UTF8GUARD_FUZZ_NO_OFFSET, 0);
  return strict && tolerant && full > 0 && full < sizeof report &&
         strstr(report, "overlong at byte 2") != NULL;
}

#ifdef AFL_MUTATOR
static int afl_module(void) {
  typedef void* (*init_fn)(void*, unsigned int);
  typedef size_t (*fuzz_fn)(void*, uint8_t*, size_t, uint8_t**, uint8_t*, size_t, size_t);
  typedef void (*deinit_fn)(void*);
  void* lib = dlopen(AFL_MUTATOR, RTLD_NOW);
  init_fn init;
  fuzz_fn fuzz;
  deinit_fn deinit;
  void* state;
  uint8_t in[] = "a/b";
  uint8_t* out = NULL;
  size_t n;
  if (lib == NULL) {
    fprintf(stderr, "dlopen %s: %s\n", AFL_MUTATOR, dlerror());
    return 0;
  }
  /* POSIX: a function pointer travels through dlsym's void* by memcpy. */
  {
    void* p = dlsym(lib, "afl_custom_init");
    memcpy(&init, &p, sizeof p);
    p = dlsym(lib, "afl_custom_fuzz");
    memcpy(&fuzz, &p, sizeof p);
    p = dlsym(lib, "afl_custom_deinit");
    memcpy(&deinit, &p, sizeof p);
  }
  if (init == NULL || fuzz == NULL || deinit == NULL || dlsym(lib, "afl_custom_describe") == NULL) {
    return 0;
  }
  state = init(NULL, 7);
  n = fuzz(state, in, 3, &out, NULL, 0, 32);
  deinit(state);
  return out != NULL && n <= 32;
}
#else
static int afl_module(void) { return 1; }
#endif

int main(void) {
  const int m = mutates();
  const int j = judges();
  const int a = afl_module();
  printf("utf8guard fuzz helpers: mutates=%d judges=%d afl_module=%d\n", m, j, a);
  return m && j && a ? 0 : 1;
}
