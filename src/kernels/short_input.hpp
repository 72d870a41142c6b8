// short_input.hpp - short inputs read as words, with no read outside them and
// no store to memory: the last m < 8 bytes of an input (a tail built through
// a stack buffer costs a failed store-to-load forward on every short input),
// and the test that settles a short input of ASCII.
#ifndef UTF8GUARD_KERNELS_SHORT_INPUT_HPP
#define UTF8GUARD_KERNELS_SHORT_INPUT_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace utf8guard::detail {

// load_up_to_8 returns q[0..m) (m <= 8) as a little-endian word, zero above.
inline std::uint64_t load_up_to_8(const std::uint8_t* q, std::size_t m) noexcept {
  // SAFETY: every read below is of bytes inside q[0..m).
  if (m >= 4) {
    // Two 4-byte reads that overlap when m < 8: the first and the last four.
    std::uint32_t a, b;
    std::memcpy(&a, q, 4);
    std::memcpy(&b, q + m - 4, 4);
    return std::uint64_t{a} | std::uint64_t{b} << (8 * (m - 4));
  }
  if (m == 0) return 0;
  // m = 1, 2 or 3: the first, middle and last byte cover them all.
  return std::uint64_t{q[0]} | std::uint64_t{q[m / 2]} << (8 * (m / 2)) |
         std::uint64_t{q[m - 1]} << (8 * (m - 1));
}

// load_word reads the 8 bytes at q (SAFETY: the caller checked they are inside).
inline std::uint64_t load_word(const std::uint8_t* q) noexcept {
  std::uint64_t w;
  std::memcpy(&w, q, 8);
  return w;
}

// is_short_ascii says whether q[0..m) is a short input of ASCII: at most
// kShortAscii bytes, read as two or four words that overlap, or one partial
// word. Every kernel settles such an input (a header line, a key, a token)
// with it before any setup of its own, and one-shot sanitize copies it.
inline constexpr std::size_t kShortAscii = 32;
inline bool is_short_ascii(const std::uint8_t* q, std::size_t m) noexcept {
  if (m > kShortAscii) return false;
  std::uint64_t w;
  // SAFETY: every word read lies in q[0..m): those at 8 and m - 16 only when
  // m > 16, the others when m >= 8.
  if (m > 16) {
    w = load_word(q) | load_word(q + 8) | load_word(q + m - 16) | load_word(q + m - 8);
  } else if (m >= 8) {
    w = load_word(q) | load_word(q + m - 8);
  } else {
    w = load_up_to_8(q, m);
  }
  return (w & 0x8080808080808080ULL) == 0;
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_KERNELS_SHORT_INPUT_HPP
