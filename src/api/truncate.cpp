// truncate.cpp - the longest prefix of at most max bytes that splits no
// character (utf8guard.h, "Truncation").
//
// Every byte of a character or of a maximal subpart but its first is a
// continuation byte (80..BF), and neither is longer than 4 bytes. So a byte
// that is no continuation always starts a unit, and whether a cut at p
// splits one is decided by the last such byte in the 3 before p, if any.
#include <cstdint>

#include "core/convert.hpp"

namespace utf8guard {
namespace {

bool is_continuation(char b) noexcept { return (static_cast<std::uint8_t>(b) & 0xC0) == 0x80; }

// unit_length is the length of the character or maximal subpart at the
// start of in (not empty).
std::size_t unit_length(std::string_view in) noexcept {
  const decoded d = decode_one(in);
  return d.length != 0 ? d.length : 1;
}

}  // namespace

std::string_view truncate(std::string_view bytes, std::size_t max, truncate_mode mode) noexcept {
  if (detail::bad_span(bytes)) return {};
  const std::size_t p = max < bytes.size() ? max : bytes.size();
  if (mode == truncate_mode::well_formed) {
    const result r = validate(bytes.substr(0, p));
    return bytes.substr(0, r.ok() ? p : r.offset);
  }
  if (mode != truncate_mode::keep_ill_formed) return {};
  if (p == bytes.size() || !is_continuation(bytes[p])) return bytes.substr(0, p);
  for (std::size_t q = p; q != 0 && p - q < 3;) {
    if (!is_continuation(bytes[--q])) {
      return bytes.substr(0, q + unit_length(bytes.substr(q)) <= p ? p : q);
    }
  }
  return bytes.substr(0, p);  // only lone continuation bytes reach p
}

}  // namespace utf8guard

extern "C" {

size_t utf8guard_truncate(const char* data, size_t len, size_t max, utf8guard_truncate_mode mode) {
  const int m = utf8guard::detail::c_int(mode);
  if (m != UTF8GUARD_TRUNCATE_WELL_FORMED && m != UTF8GUARD_TRUNCATE_KEEP_ILL_FORMED) return 0;
  return utf8guard::truncate(utf8guard::detail::c_bytes(data, len), max,
                             static_cast<utf8guard::truncate_mode>(m))
      .size();
}

}  // extern "C"
