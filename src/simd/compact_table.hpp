// compact_table.hpp - kCompact, the shuffle indices of simd/compact.hpp's
// compact16. Included by each x86 kernel file before its target region.
#ifndef UTF8GUARD_SIMD_COMPACT_TABLE_HPP
#define UTF8GUARD_SIMD_COMPACT_TABLE_HPP

#include <array>
#include <cstdint>

namespace utf8guard::detail {

// kCompact[m] lists the positions of the set bits of m, in order: the pshufb
// indices that squeeze the kept bytes of an 8-byte group to its front.
alignas(8) inline constexpr std::array<std::array<std::uint8_t, 8>, 256> kCompact = [] {
  std::array<std::array<std::uint8_t, 8>, 256> t{};
  for (unsigned m = 0; m < 256; ++m) {
    unsigned k = 0;
    for (unsigned bit = 0; bit < 8; ++bit) {
      if ((m >> bit & 1) != 0) t[m][k++] = static_cast<std::uint8_t>(bit);
    }
  }
  return t;
}();

}  // namespace utf8guard::detail
#endif  // UTF8GUARD_SIMD_COMPACT_TABLE_HPP
