/* jansson_string.c - libFuzzer under utf8guard's oracle against jansson's
 * string decoding (libjansson-dev): json_stringn() refuses a value that is
 * not valid UTF-8 (and accepts NUL, since jansson 2.7). jansson documents no
 * laxness, so the oracle is strict; it gives no offset. */
#include <jansson.h>
#include <utf8guard/fuzz.h>

UTF8GUARD_FUZZ_LIBFUZZER_MUTATOR

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  json_t* s = json_stringn((const char*)data, size);
  utf8guard_fuzz_check("jansson json_stringn", (const char*)data, size, s != NULL,
                       UTF8GUARD_FUZZ_NO_OFFSET, 0);
  json_decref(s);
  return 0;
}
