// names.cpp - the stable names (error kinds, statuses) and the version.
//
// The direction between the APIs: C++ implements, C wraps (see
// api/stream.cpp). Statuses exist in the C API only.
#include <cstdint>
#include <cstring>

#include "utf8guard/utf8guard.hpp"

namespace utf8guard {

std::string_view to_string(error kind) noexcept {
  // These strings are part of the contract (docs/design.md, the CLI's
  // output): never rename one.
  switch (kind) {
    case error::none: return "none";
    case error::unexpected_continuation: return "unexpected_continuation";
    case error::overlong: return "overlong";
    case error::surrogate: return "surrogate";
    case error::too_large: return "too_large";
    case error::invalid_byte: return "invalid_byte";
    case error::truncated: return "truncated";
    case error::incomplete: return "incomplete";
    case error::disallowed: return "disallowed";
    case error::invalid_argument: return "invalid_argument";
  }
  return "unknown";
}

std::string_view version() noexcept { return UTF8GUARD_VERSION_STRING; }

}  // namespace utf8guard

namespace {

// A C caller may pass any int in an enum parameter (C enums hold every value
// of their underlying type), but in C++ loading a value outside the
// enumerators' range is undefined. So the C entry points read the argument's
// bytes as an int and only then compare it with the enumerators.
static_assert(sizeof(utf8guard_error) == sizeof(int) && sizeof(utf8guard_status) == sizeof(int),
              "C enums are int-sized on every supported ABI");
template <class Enum>
int enum_value(const Enum& e) noexcept {
  int value;
  std::memcpy(&value, &e, sizeof value);
  return value;
}

}  // namespace

extern "C" {

const char* utf8guard_error_name(utf8guard_error kind) {
  const int value = enum_value(kind);
  // Any value of error's underlying type converts safely; to_string names
  // the enumerators and calls the rest "unknown".
  if (value < 0 || value > UINT8_MAX) return "unknown";
  // to_string returns views of string literals, so data() is NUL-terminated.
  return utf8guard::to_string(static_cast<utf8guard::error>(value)).data();
}

const char* utf8guard_status_name(utf8guard_status status) {
  switch (enum_value(status)) {
    case UTF8GUARD_STATUS_OK: return "ok";
    case UTF8GUARD_STATUS_BUFFER_TOO_SMALL: return "buffer_too_small";
    case UTF8GUARD_STATUS_OVERFLOW: return "overflow";
    case UTF8GUARD_STATUS_ILL_FORMED: return "ill_formed";
    case UTF8GUARD_STATUS_SINK_FAILED: return "sink_failed";
    case UTF8GUARD_STATUS_INVALID_ARGUMENT: return "invalid_argument";
  }
  return "unknown";
}

// version() views a string literal, so data() is NUL-terminated.
const char* utf8guard_version(void) { return utf8guard::version().data(); }

}  // extern "C"
