// names.cpp - the stable names (error kinds, statuses) and the version.
//
// The C forms are in api/names.cpp. Statuses exist in the C API only.
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
