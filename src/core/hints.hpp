// hints.hpp - what probably produced an ill-formed subpart: the rules of
// docs/design.md's hint table, first match wins, over the bytes around one offset.
#ifndef UTF8GUARD_CORE_HINTS_HPP
#define UTF8GUARD_CORE_HINTS_HPP

#include <cstddef>
#include <cstdint>

#include "utf8guard/utf8guard.hpp"

namespace utf8guard::detail {

// explain_at applies the rules to p[0..n) at offset off. It reads only
// p[off - 3 .. off + 6) clipped to [0, n), and allocates nothing.
hint explain_at(const std::uint8_t* p, std::size_t n, std::size_t off) noexcept;

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_CORE_HINTS_HPP
