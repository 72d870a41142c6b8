// rust_oracle.hpp - Rust's str::from_utf8 error, computed by Rust's own
// algorithm (core::str::validations::run_utf8_validation) ported to C++, so
// the README's claim "offsets equal Rust's valid_up_to()" is checked against
// Rust's rule rather than against our reading of it. There is no rustc here;
// the port keeps the algorithm's two parts as they are: the width table of a
// lead byte, and the match on (first, second) byte that narrows the second
// byte's range for E0, ED, F0 and F4. Rust's word-at-a-time skip over ASCII is
// left out: it only moves over bytes below 0x80 and cannot change the result.
#ifndef UTF8GUARD_TESTS_CONFORMANCE_RUST_ORACLE_HPP
#define UTF8GUARD_TESTS_CONFORMANCE_RUST_ORACLE_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace utf8guard::conformance {

// rust_utf8_error is core::str::Utf8Error: where the valid prefix ends, and
// the length of the invalid sequence there, or nullopt when the input ends
// inside a sequence that more bytes could complete.
struct rust_utf8_error {
  std::size_t valid_up_to = 0;
  std::optional<std::size_t> error_len;
};

// kRustCharWidth is Rust's UTF8_CHAR_WIDTH: the length a lead byte announces,
// 0 for bytes that never start a sequence (80..C1, F5..FF).
inline constexpr std::array<std::uint8_t, 256> kRustCharWidth = [] {
  std::array<std::uint8_t, 256> w{};
  for (int b = 0x00; b <= 0x7F; ++b) w[b] = 1;
  for (int b = 0xC2; b <= 0xDF; ++b) w[b] = 2;
  for (int b = 0xE0; b <= 0xEF; ++b) w[b] = 3;
  for (int b = 0xF0; b <= 0xF4; ++b) w[b] = 4;
  return w;
}();

// rust_from_utf8 is run_utf8_validation: nullopt for valid input, else the
// error Rust's from_utf8 returns.
inline std::optional<rust_utf8_error> rust_from_utf8(std::string_view v) {
  const std::size_t len = v.size();
  auto at = [&](std::size_t i) { return static_cast<std::uint8_t>(v[i]); };
  auto is_cont = [](std::uint8_t b) { return (b & 0xC0) == 0x80; };
  std::size_t index = 0;
  while (index < len) {
    const std::size_t old_offset = index;
    const std::uint8_t first = at(index);
    if (first < 0x80) {
      ++index;
      continue;
    }
    // Rust's next!(): the following byte, or the end-of-input error.
    bool ended = false;
    auto next = [&]() -> std::uint8_t {
      ++index;
      if (index >= len) {
        ended = true;
        return 0;
      }
      return at(index);
    };
    const rust_utf8_error incomplete{old_offset, std::nullopt};
    auto error = [&](std::size_t n) { return rust_utf8_error{old_offset, n}; };
    switch (kRustCharWidth[first]) {
      case 2: {
        const std::uint8_t b = next();
        if (ended) return incomplete;
        if (!is_cont(b)) return error(1);
        break;
      }
      case 3: {
        const std::uint8_t b = next();
        if (ended) return incomplete;
        const bool ok = (first == 0xE0 && b >= 0xA0 && b <= 0xBF) ||
                        (first >= 0xE1 && first <= 0xEC && b >= 0x80 && b <= 0xBF) ||
                        (first == 0xED && b >= 0x80 && b <= 0x9F) ||
                        (first >= 0xEE && first <= 0xEF && b >= 0x80 && b <= 0xBF);
        if (!ok) return error(1);
        const std::uint8_t c = next();
        if (ended) return incomplete;
        if (!is_cont(c)) return error(2);
        break;
      }
      case 4: {
        const std::uint8_t b = next();
        if (ended) return incomplete;
        const bool ok = (first == 0xF0 && b >= 0x90 && b <= 0xBF) ||
                        (first >= 0xF1 && first <= 0xF3 && b >= 0x80 && b <= 0xBF) ||
                        (first == 0xF4 && b >= 0x80 && b <= 0x8F);
        if (!ok) return error(1);
        const std::uint8_t c = next();
        if (ended) return incomplete;
        if (!is_cont(c)) return error(2);
        const std::uint8_t d = next();
        if (ended) return incomplete;
        if (!is_cont(d)) return error(3);
        break;
      }
      default: return error(1);
    }
    ++index;
  }
  return std::nullopt;
}

}  // namespace utf8guard::conformance

#endif  // UTF8GUARD_TESTS_CONFORMANCE_RUST_ORACLE_HPP
