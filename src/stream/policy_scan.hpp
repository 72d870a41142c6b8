// policy_scan.hpp - the scan of well-formed bytes against a policy
// (core/policy.hpp's categories), on the active kernel (stream/policy_scan.cpp).
#ifndef UTF8GUARD_STREAM_POLICY_SCAN_HPP
#define UTF8GUARD_STREAM_POLICY_SCAN_HPP

#include <cstddef>
#include <cstdint>

#include "core/policy.hpp"

namespace utf8guard::detail {

// quiet_ascii_prefix is the length of a prefix of p[0..n) made of ASCII
// bytes that deny allows: well-formed, free of violations, and ending at a
// character boundary. It is n for a quiet input, such as a header value or
// a line of printable ASCII under field, and then the whole check is this
// one pass; else the caller checks p[r..n) as usual. With a stop byte (0:
// none), the prefix holds none (JSON text's raw run before a backslash).
std::size_t quiet_ascii_prefix(const std::uint8_t* p, std::size_t n, utf8guard_policy deny,
                               std::uint8_t stop = 0) noexcept;

// quiet_json_prefix is the length of a prefix of JSON text p[0..n) (which
// starts at a unit boundary) made of ASCII bytes that deny allows and of
// escapes of characters that deny allows, none a surrogate: valid, ending at
// a unit boundary; and whether it holds an escape (if not, its encoded and
// decoded offsets are the same). It is n for a quiet body (an API's JSON of
// ASCII text, a newline or a quote escaped here and there), and then the
// whole check is this pass, stopped only at each escape. It stops at an
// escape where escapes come densely (text with every non-ASCII character
// escaped), which the caller's decoder reads faster.
struct quiet_json {
  std::size_t end;
  bool escaped;
};
quiet_json quiet_json_prefix(const std::uint8_t* p, std::size_t n, utf8guard_policy deny) noexcept;

// find_violation returns the first character of the well-formed bytes
// p[0..n) that deny holds, with its absolute offset (p[0] is at base), or an
// ok() result. p[0] starts a character, and p[0..n) ends where one does.
// Unless quiet_checked (the caller ran quiet_ascii_prefix, which stopped at
// p[0]), it starts with quiet_ascii_prefix.
result find_violation(const std::uint8_t* p, std::size_t n, std::size_t base, utf8guard_policy deny,
                      bool quiet_checked = false) noexcept;

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_STREAM_POLICY_SCAN_HPP
