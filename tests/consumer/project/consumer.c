/* A C99 program built against utf8guard: through the CMake package, through
 * add_subdirectory(), and with cc and pkg-config. Exits 0 only if the library
 * answers as docs/design.md says and carries the version the build expects
 * (EXPECTED_VERSION, a string literal given with -D). */
#include <utf8guard/utf8guard.h>

#include <stdio.h>
#include <string.h>

int main(void) {
  static const char header[] = "name=\xED\xA0\x80"; /* a CESU-8 surrogate half */
  static const char fixed[] = "name=\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD";
  const size_t len = sizeof header - 1;
  char out[3 * (sizeof header - 1)];
  size_t written = 0;
  size_t replaced = 0;
  utf8guard_validator v;
  utf8guard_result r = utf8guard_validate(header, len);
  int found = r.kind == UTF8GUARD_ERROR_SURROGATE && r.offset == 5 && r.length == 1 &&
              strcmp(utf8guard_error_name(r.kind), "surrogate") == 0;
  /* sanitize pulls in the parts of the library that need the C++ runtime. */
  int sanitized = utf8guard_sanitize(header, len, out, sizeof out, &written, &replaced) ==
                      UTF8GUARD_STATUS_OK &&
                  replaced == 3 && written == sizeof fixed - 1 && memcmp(out, fixed, written) == 0;
  int streamed;
  int versioned = strcmp(utf8guard_version(), UTF8GUARD_VERSION_STRING) == 0 &&
                  strcmp(utf8guard_version(), EXPECTED_VERSION) == 0;

  /* "é" split across two reads is well-formed; "incomplete" waits for finish. */
  utf8guard_validator_init(&v);
  r = utf8guard_validator_feed(&v, "caf\xC3", 4);
  streamed = r.kind == UTF8GUARD_ERROR_NONE;
  r = utf8guard_validator_feed(&v, "\xA9!", 2);
  streamed = streamed && r.kind == UTF8GUARD_ERROR_NONE;
  r = utf8guard_validator_finish(&v);
  streamed = streamed && r.kind == UTF8GUARD_ERROR_NONE;

  printf("utf8guard %s (%s kernel): found=%d sanitized=%d streamed=%d versioned=%d\n",
         utf8guard_version(), utf8guard_active_kernel(), found, sanitized, streamed, versioned);
  return found && sanitized && streamed && versioned ? 0 : 1;
}
