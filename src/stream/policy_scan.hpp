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

// find_violation returns the first character of the well-formed bytes
// p[0..n) that deny holds, with its absolute offset (p[0] is at base), or an
// ok() result. p[0] starts a character, and p[0..n) ends where one does.
// Unless quiet_checked (the caller ran quiet_ascii_prefix, which stopped at
// p[0]), it starts with quiet_ascii_prefix.
result find_violation(const std::uint8_t* p, std::size_t n, std::size_t base, utf8guard_policy deny,
                      bool quiet_checked = false) noexcept;

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_STREAM_POLICY_SCAN_HPP
