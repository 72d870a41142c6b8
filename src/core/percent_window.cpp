// percent_window.cpp - see percent_window.hpp.
#include "core/percent_window.hpp"

#include "core/percent.hpp"

namespace utf8guard::detail {
namespace {

std::uint8_t escape_value(const std::uint8_t* p) noexcept {
  return static_cast<std::uint8_t>(kHexValue[p[1]] << 4 | kHexValue[p[2]]);
}

}  // namespace

unsigned decode_ahead(const std::uint8_t* enc, std::size_t n, std::uint8_t* out,
                      unsigned max) noexcept {
  unsigned got = 0;
  for (std::size_t i = 0; i < n && got < max;) {
    const std::size_t w = unit_width(enc, i, n);
    out[got++] = w == 3 ? escape_value(enc + i) : enc[i];
    i += w;
  }
  return got;
}

unsigned decode_behind(const std::uint8_t* enc, std::size_t n, bool starts_input, std::uint8_t* out,
                       unsigned max) noexcept {
  std::uint8_t reversed[8];
  if (max > sizeof reversed) max = sizeof reversed;
  unsigned got = 0;
  std::size_t j = n;
  while (j != 0 && got < max) {
    // Near the window's start the '%' of an escape may lie outside it: two
    // visible hex digits (or one, at the start) may be the end of one.
    if (!starts_input && j < 3 && is_hex(enc[j - 1]) && (j == 1 || is_hex(enc[j - 2]))) break;
    const std::size_t w = unit_width_before(enc, j);
    reversed[got++] = w == 3 ? escape_value(enc + j - 3) : enc[j - 1];
    j -= w;
  }
  for (unsigned k = 0; k < got; ++k) out[k] = reversed[got - 1 - k];
  return got;
}

}  // namespace utf8guard::detail
