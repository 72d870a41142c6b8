/* glib_validate.c - libFuzzer under utf8guard's oracle against glib's
 * g_utf8_validate_len (libglib2.0-dev), verdict and offset: glib sets `end` to
 * the first byte it could not validate, which is utf8guard's error offset.
 * glib documents one difference: g_utf8_validate_len refuses NUL bytes
 * ("will always return FALSE if any of the bytes of str are nul"), so the
 * oracle tolerates UTF8GUARD_FUZZ_REJECTS_NUL and nothing else. */
#include <glib.h>
#include <utf8guard/fuzz.h>

UTF8GUARD_FUZZ_LIBFUZZER_MUTATOR

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const gchar* end = NULL;
  const gboolean valid = g_utf8_validate_len((const gchar*)data, size, &end);
  const size_t offset = valid ? 0 : (size_t)(end - (const gchar*)data);
  utf8guard_fuzz_check("glib g_utf8_validate_len", (const char*)data, size, valid, offset,
                       UTF8GUARD_FUZZ_REJECTS_NUL);
  return 0;
}
