// hints.cpp - the hint rules, in the order of the table they come from:
//
//   utf16_bom             offset 0, the input starts FE FF or FF FE
//   modified_utf8_nul     C0 80                                   U+0000
//   overlong_form         C0..C1 c; E0 80..9F c; F0 80..8F c c    the value
//   cesu8_pair            ED A0..AF c ED B0..BF c (high half), or
//                         ED A0..AF c before the offset, ED B0..BF c at it
//   surrogate_code_point  ED A0..BF c                             U+D800..DFFF
//   beyond_unicode        F4 90..BF c c; F5..F7 c c c; F8..FB c x4; FC..FD c x5
//   windows1252           80..FF with no non-ASCII neighbour      WHATWG index
//
// (c: a continuation byte, 80..BF.)
#include "core/hints.hpp"

#include <cstring>

#include "core/convert.hpp"

namespace utf8guard::detail {
namespace {

constexpr bool cont(std::uint8_t b) noexcept { return (b & 0xC0) == 0x80; }
constexpr bool in(std::uint8_t b, std::uint8_t lo, std::uint8_t hi) noexcept {
  return b >= lo && b <= hi;
}

// The WHATWG windows-1252 index for 80..9F (the bytes it maps outside
// Latin-1); A0..FF map to themselves. 81, 8D, 8F, 90 and 9D stay C1 controls.
constexpr char16_t kWindows1252[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,  // 80..87
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,  // 88..8F
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,  // 90..97
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,  // 98..9F
};

// The bytes around the offset, copied so that every rule can index freely:
// b[k] is input[off + k] for -3 <= k < 6, have(k) whether it exists.
struct window {
  std::uint8_t bytes[9] = {};
  std::ptrdiff_t lo = 0, hi = 0;  // have(k) iff lo <= k < hi
  [[nodiscard]] bool have(std::ptrdiff_t k) const noexcept { return k >= lo && k < hi; }
  [[nodiscard]] std::uint8_t operator[](std::ptrdiff_t k) const noexcept { return bytes[k + 3]; }
  // conts says whether b[from .. from + count) exist and are continuations.
  [[nodiscard]] bool conts(std::ptrdiff_t from, std::ptrdiff_t count) const noexcept {
    for (std::ptrdiff_t k = from; k < from + count; ++k) {
      if (!have(k) || !cont((*this)[k])) return false;
    }
    return true;
  }
  // payload decodes b[0..len): the lead's low lead_bits bits, then 6 per byte.
  [[nodiscard]] char32_t payload(std::ptrdiff_t len, unsigned lead_bits) const noexcept {
    char32_t v = (*this)[0] & ((1u << lead_bits) - 1);
    for (std::ptrdiff_t k = 1; k < len; ++k) v = (v << 6) | ((*this)[k] & 0x3Fu);
    return v;
  }
};

window window_at(const std::uint8_t* p, std::size_t n, std::size_t off) noexcept {
  window w;
  const std::size_t before = off < 3 ? off : 3;
  const std::size_t after = n - off < 6 ? n - off : 6;
  // SAFETY: [off - before, off + after) lies inside [0, n) by the clipping above.
  std::memcpy(w.bytes + 3 - before, p + off - before, before + after);
  w.lo = -static_cast<std::ptrdiff_t>(before);
  w.hi = static_cast<std::ptrdiff_t>(after);
  return w;
}

constexpr hint with_value(hint_kind k, char32_t v) noexcept { return {k, v, true}; }

// high_half: b[at..at+3) is ED A0..AF c, the first half of a CESU-8 pair.
bool high_half(const window& b, std::ptrdiff_t at) noexcept {
  return b.have(at) && b[at] == 0xED && b.have(at + 1) && in(b[at + 1], 0xA0, 0xAF) &&
         b.conts(at + 2, 1);
}
bool low_half(const window& b, std::ptrdiff_t at) noexcept {
  return b.have(at) && b[at] == 0xED && b.have(at + 1) && in(b[at + 1], 0xB0, 0xBF) &&
         b.conts(at + 2, 1);
}
// surrogate_at decodes the surrogate ED xx yy at b[at].
char32_t surrogate_at(const window& b, std::ptrdiff_t at) noexcept {
  return 0xD000u | ((b[at + 1] & 0x3Fu) << 6) | (b[at + 2] & 0x3Fu);
}
char32_t pair_value(char32_t high, char32_t low) noexcept {
  return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
}

}  // namespace

hint explain_at(const std::uint8_t* p, std::size_t n, std::size_t off) noexcept {
  if (off >= n) return {};
  const window b = window_at(p, n, off);
  const std::uint8_t b0 = b[0];
  if (off == 0 && b.have(1) && ((b0 == 0xFE && b[1] == 0xFF) || (b0 == 0xFF && b[1] == 0xFE))) {
    return {hint_kind::utf16_bom, 0, false};
  }
  if (b0 == 0xC0 && b.have(1) && b[1] == 0x80) return with_value(hint_kind::modified_utf8_nul, 0);
  if (in(b0, 0xC0, 0xC1) && b.conts(1, 1)) {
    return with_value(hint_kind::overlong_form, b.payload(2, 5));
  }
  if (b0 == 0xE0 && b.have(1) && in(b[1], 0x80, 0x9F) && b.conts(2, 1)) {
    return with_value(hint_kind::overlong_form, b.payload(3, 4));
  }
  if (b0 == 0xF0 && b.have(1) && in(b[1], 0x80, 0x8F) && b.conts(2, 2)) {
    return with_value(hint_kind::overlong_form, b.payload(4, 3));
  }
  if (high_half(b, 0) && low_half(b, 3)) {
    return with_value(hint_kind::cesu8_pair, pair_value(surrogate_at(b, 0), surrogate_at(b, 3)));
  }
  if (high_half(b, -3) && low_half(b, 0)) {
    return with_value(hint_kind::cesu8_pair, pair_value(surrogate_at(b, -3), surrogate_at(b, 0)));
  }
  if (b0 == 0xED && b.have(1) && in(b[1], 0xA0, 0xBF) && b.conts(2, 1)) {
    return with_value(hint_kind::surrogate_code_point, surrogate_at(b, 0));
  }
  if (b0 == 0xF4 && b.have(1) && in(b[1], 0x90, 0xBF) && b.conts(2, 2)) {
    return with_value(hint_kind::beyond_unicode, b.payload(4, 3));
  }
  if (in(b0, 0xF5, 0xF7) && b.conts(1, 3)) {
    return with_value(hint_kind::beyond_unicode, b.payload(4, 3));
  }
  if (in(b0, 0xF8, 0xFB) && b.conts(1, 4)) {
    return with_value(hint_kind::beyond_unicode, b.payload(5, 2));
  }
  if (in(b0, 0xFC, 0xFD) && b.conts(1, 5)) {
    return with_value(hint_kind::beyond_unicode, b.payload(6, 1));
  }
  if (b0 >= 0x80 && (!b.have(-1) || b[-1] < 0x80) && (!b.have(1) || b[1] < 0x80)) {
    return with_value(hint_kind::windows1252, b0 < 0xA0 ? kWindows1252[b0 - 0x80] : b0);
  }
  return {};
}

}  // namespace utf8guard::detail

namespace utf8guard {

hint explain(std::string_view input, std::size_t offset) noexcept {
  if (detail::bad_span(input)) return {};  // a lost view has nothing to explain
  // SAFETY: the view's bytes, read only inside [0, size) (explain_at clips).
  return detail::explain_at(reinterpret_cast<const std::uint8_t*>(input.data()), input.size(),
                            offset);
}

std::string_view to_string(hint_kind kind) noexcept {
  // Part of the contract (the CLI prints them): never rename one.
  switch (kind) {
    case hint_kind::none: return "none";
    case hint_kind::utf16_bom: return "utf16_bom";
    case hint_kind::modified_utf8_nul: return "modified_utf8_nul";
    case hint_kind::overlong_form: return "overlong_form";
    case hint_kind::cesu8_pair: return "cesu8_pair";
    case hint_kind::surrogate_code_point: return "surrogate_code_point";
    case hint_kind::beyond_unicode: return "beyond_unicode";
    case hint_kind::windows1252: return "windows1252";
  }
  return "unknown";
}

}  // namespace utf8guard
