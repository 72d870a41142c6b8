// percent.hpp - the units of percent-encoded input (docs/design.md 2.3), as
// the scalar decoder and the error mapping read them, and the interface of the
// vector decoders (generic/percent_decode.hpp).
//
// A unit is %XX with two hex digits (three encoded bytes, one decoded byte XX)
// or any other byte (one encoded byte, itself). A '%' without two hex digits
// after it is a bad escape: a unit of its own, the literal '%'.
#ifndef UTF8GUARD_CORE_PERCENT_HPP
#define UTF8GUARD_CORE_PERCENT_HPP

#include <array>
#include <cstddef>
#include <cstdint>

namespace utf8guard::detail {

inline constexpr std::uint8_t kNotHex = 0xFF;

// kHexValue maps a byte to its hex digit value, or kNotHex.
inline constexpr std::array<std::uint8_t, 256> kHexValue = [] {
  std::array<std::uint8_t, 256> t{};
  for (auto& v : t) v = kNotHex;
  for (int c = 0; c < 10; ++c) t['0' + c] = static_cast<std::uint8_t>(c);
  for (int c = 0; c < 6; ++c) {
    t['a' + c] = static_cast<std::uint8_t>(10 + c);
    t['A' + c] = static_cast<std::uint8_t>(10 + c);
  }
  return t;
}();

inline bool is_hex(std::uint8_t b) noexcept { return kHexValue[b] != kNotHex; }

// escape_at says whether p[i..i+3) is a whole escape (the caller guarantees
// i + 3 <= n).
inline bool escape_at(const std::uint8_t* p, std::size_t i) noexcept {
  return p[i] == '%' && is_hex(p[i + 1]) && is_hex(p[i + 2]);
}

// unit_width is the encoded length of the unit at p[i], all of whose bytes
// up to p[n) are known (a '%' too close to n is a bad escape).
inline std::size_t unit_width(const std::uint8_t* p, std::size_t i, std::size_t n) noexcept {
  return n - i >= 3 && escape_at(p, i) ? 3 : 1;
}

// unit_width_before is the encoded length of the unit that ends just before
// p[j], for j >= 1 at a unit boundary of input that starts at one (p[0]).
// Reading backwards is unambiguous: a hex digit is never '%', so a '%' two
// bytes before two hex digits cannot belong to an earlier unit.
inline std::size_t unit_width_before(const std::uint8_t* p, std::size_t j) noexcept {
  return j >= 3 && escape_at(p, j - 3) ? 3 : 1;
}

// A vector decoder decodes p[0..n) from a unit boundary, whole blocks at a
// time, while a block and the two bytes after it fit in n and the block
// starts before limit, then the units left before limit (at most a block's
// worth, but for a '%' in the input's last two bytes) as one partial block,
// reading nothing past p[n). It writes the decoded bytes to out (which has
// room for limit + 64 bytes) and returns how far it read (a unit boundary)
// and how much it wrote. It stops before a block that holds a bad escape
// (stops & kStopBadEscape) or a %25 (stops & kStopPercent25), which the
// scalar decoder then takes: those are the units the caller must see one by
// one.
struct decode_progress {
  std::size_t read;
  std::size_t written;
};
inline constexpr unsigned kStopBadEscape = 1;
inline constexpr unsigned kStopPercent25 = 2;
using percent_decode_fn = decode_progress (*)(const std::uint8_t* p, std::size_t n,
                                              std::size_t limit, std::uint8_t* out,
                                              unsigned stops) noexcept;

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_CORE_PERCENT_HPP
