// json.hpp - the units of JSON text (docs/design.md, "JSON text"), as the
// decoder, the error mapping, describe, explain, sanitize and truncate read
// them.
//
// A unit is a raw byte (itself), or an escape that starts with a backslash:
// \" \\ \/ \b \f \n \r \t (2 bytes, one ASCII character), \uXXXX (6 bytes,
// a UTF-16 unit), or a high surrogate escape immediately followed by a low
// one (12 bytes, one supplementary character). A high or low surrogate
// escape that is not half of such a pair is a lone surrogate (6 bytes). A
// backslash followed by anything else is a bad escape: a unit of its own,
// the literal backslash. Read forward from a unit boundary, units are
// unambiguous; read backward they are not (a backslash may be the second
// half of \\), so nothing here walks backward.
#ifndef UTF8GUARD_CORE_JSON_HPP
#define UTF8GUARD_CORE_JSON_HPP

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/percent.hpp"

namespace utf8guard::detail {

// What a unit is, when it starts with a backslash.
enum class json_unit_kind : std::uint8_t {
  simple,  // \" \\ \/ \b \f \n \r \t
  bmp,     // \uXXXX, not a surrogate
  pair,    // a high surrogate escape and a low one
  lone,    // a surrogate escape that is no half of a pair
  bad,     // a backslash that starts no escape: the literal backslash
  cut,     // the bytes given end before the unit is decided
};

struct json_unit {
  json_unit_kind kind;
  std::uint8_t width;  // encoded bytes
  char32_t value;      // the character (the UTF-16 unit of a lone surrogate)
};

// The longest unit, and the most bytes a stream holds of a cut one.
inline constexpr std::size_t kJsonMaxUnit = 12;
inline constexpr std::size_t kJsonMaxHeld = kJsonMaxUnit - 1;

// kJsonSimple maps the byte after a backslash to the character its
// two-byte escape stands for, or 0 ('u' and the rest start none).
inline constexpr std::array<std::uint8_t, 256> kJsonSimple = [] {
  std::array<std::uint8_t, 256> t{};
  t['"'] = '"';
  t['\\'] = '\\';
  t['/'] = '/';
  t['b'] = '\b';
  t['f'] = '\f';
  t['n'] = '\n';
  t['r'] = '\r';
  t['t'] = '\t';
  return t;
}();

// json_hex4 reads the 4 hex digits p[0..4) of which m are given: the value,
// or -1 at a byte that is not a hex digit, or -2 when m ends them first.
inline long json_hex4(const std::uint8_t* p, std::size_t m) noexcept {
  long v = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    if (k >= m) return -2;
    const std::uint8_t h = kHexValue[p[k]];
    if (h == kNotHex) return -1;
    v = v << 4 | h;
  }
  return v;
}

// json_escape_at reads the unit that starts with the backslash p[0], of
// whose bytes m are given. Unless final (m reaches the input's end), a unit
// the given bytes do not decide is cut.
inline json_unit json_escape_at(const std::uint8_t* p, std::size_t m, bool final) noexcept {
  const json_unit bad{json_unit_kind::bad, 1, '\\'};
  const json_unit cut{json_unit_kind::cut, 0, 0};
  if (m < 2) return final ? bad : cut;
  if (p[1] != 'u') {
    const std::uint8_t v = kJsonSimple[p[1]];
    return v != 0 ? json_unit{json_unit_kind::simple, 2, v} : bad;
  }
  const long v = json_hex4(p + 2, m - 2);
  if (v == -2) return final ? bad : cut;
  if (v < 0) return bad;
  if (v < 0xD800 || v > 0xDFFF) return {json_unit_kind::bmp, 6, static_cast<char32_t>(v)};
  const json_unit lone{json_unit_kind::lone, 6, static_cast<char32_t>(v)};
  if (v >= 0xDC00) return lone;
  // A high surrogate: a pair when \uDC00..\uDFFF follows. Each byte given
  // either keeps that possible or makes it a lone one.
  for (std::size_t k = 6; k < kJsonMaxUnit; ++k) {
    if (k >= m) return final ? lone : cut;
    const std::uint8_t b = p[k];
    const bool fits = k == 6   ? b == '\\'
                      : k == 7 ? b == 'u'
                      : k == 8 ? (b == 'd' || b == 'D')
                      : k == 9 ? (kHexValue[b] >= 0xC && kHexValue[b] <= 0xF)
                               : is_hex(b);
    if (!fits) return lone;
  }
  const long low = json_hex4(p + 8, 4);
  const char32_t cp =
      0x10000 + ((static_cast<char32_t>(v) - 0xD800) << 10) + (static_cast<char32_t>(low) - 0xDC00);
  return {json_unit_kind::pair, 12, cp};
}

// json_unit_at is json_escape_at with the common escapes read first, inline:
// \uXXXX of a character that is no surrogate, and a pair of them. The
// engine's decoder (stream/json_engine.hpp) and the one-shot check
// (api/json.cpp) read escapes through it.
inline json_unit json_unit_at(const std::uint8_t* p, std::size_t m, bool final) noexcept {
  if (m >= 6 && p[1] == 'u') {
    const unsigned h0 = kHexValue[p[2]], h1 = kHexValue[p[3]];
    const unsigned h2 = kHexValue[p[4]], h3 = kHexValue[p[5]];
    const char32_t v = h0 << 12 | h1 << 8 | h2 << 4 | h3;
    if ((h0 | h1 | h2 | h3) <= 0xF) {
      if (v < 0xD800 || v > 0xDFFF) return {json_unit_kind::bmp, 6, v};
      if (v <= 0xDBFF && m >= 12 && p[6] == '\\' && p[7] == 'u') {
        const unsigned l0 = kHexValue[p[8]], l1 = kHexValue[p[9]];
        const unsigned l2 = kHexValue[p[10]], l3 = kHexValue[p[11]];
        const char32_t low = l0 << 12 | l1 << 8 | l2 << 4 | l3;
        if ((l0 | l1 | l2 | l3) <= 0xF && low >= 0xDC00 && low <= 0xDFFF) {
          return {json_unit_kind::pair, 12, 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)};
        }
      }
    }
  }
  return json_escape_at(p, m, final);
}

// A vector decoder (generic/json_decode.hpp) decodes p[0..n) from a unit
// boundary, whole blocks at a time, while a block and the 8 bytes after it
// fit in n and the block starts before limit: raw bytes, \uXXXX escapes of
// characters that are no surrogate, and pairs. It stops at any other escape
// (a short one, a lone surrogate, a bad one), which the scalar decoder takes,
// and reads nothing past p[n). It writes the decoded bytes to out (which
// has room for limit + 64 bytes) and returns how far it read (a unit
// boundary), how much it wrote, and where in p the last escape it decoded
// starts (kNoEscape: none) and its width.
struct json_decode_progress {
  std::size_t read;
  std::size_t written;
  std::size_t last_escape;
  std::size_t last_width;
};
inline constexpr std::size_t kNoEscape = ~std::size_t{0};
// A vector decoder is called only with this many bytes left: a block of the
// widest register and the 8 bytes after it.
inline constexpr std::size_t kJsonVectorReach = 64 + 8;
using json_decode_fn = json_decode_progress (*)(const std::uint8_t* p, std::size_t n,
                                                std::size_t limit, std::uint8_t* out) noexcept;

// json_span is a unit's encoded width and decoded length.
struct json_span {
  std::size_t width;
  std::size_t decoded;
};

// json_utf8 writes the UTF-8 form of cp (a surrogate in the generalized form
// of 3 bytes, which no well-formed input holds) to out and returns its length.
inline std::size_t json_utf8(char32_t cp, std::uint8_t* out) noexcept {
  if (cp < 0x80) {
    out[0] = static_cast<std::uint8_t>(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = static_cast<std::uint8_t>(0xC0 | cp >> 6);
    out[1] = static_cast<std::uint8_t>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = static_cast<std::uint8_t>(0xE0 | cp >> 12);
    out[1] = static_cast<std::uint8_t>(0x80 | (cp >> 6 & 0x3F));
    out[2] = static_cast<std::uint8_t>(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = static_cast<std::uint8_t>(0xF0 | cp >> 18);
  out[1] = static_cast<std::uint8_t>(0x80 | (cp >> 12 & 0x3F));
  out[2] = static_cast<std::uint8_t>(0x80 | (cp >> 6 & 0x3F));
  out[3] = static_cast<std::uint8_t>(0x80 | (cp & 0x3F));
  return 4;
}

// json_decoded_length is the length of the decoded bytes of an escape unit.
inline std::size_t json_decoded_length(const json_unit& u) noexcept {
  if (u.kind == json_unit_kind::bad) return 1;
  const char32_t cp = u.value;
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

// json_span_at is the encoded width and decoded length of the unit at p[i]
// of p[0..n), whose end is the input's.
inline json_span json_span_at(const std::uint8_t* p, std::size_t i, std::size_t n) noexcept {
  if (p[i] != '\\') return {1, 1};
  const json_unit u = json_escape_at(p + i, n - i, true);
  return {u.width, json_decoded_length(u)};
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_CORE_JSON_HPP
