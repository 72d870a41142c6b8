// codec.hpp - decoding one sequence, encoding one scalar value, and the two
// loops every decode and encode runs (core/codec.cpp, and the C forms in
// api/codec.cpp that write to a caller's buffer).
#ifndef UTF8GUARD_CORE_CODEC_HPP
#define UTF8GUARD_CORE_CODEC_HPP

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/convert.hpp"
#include "core/table37.hpp"

namespace utf8guard::detail {
// value_of assembles the scalar value of a sequence Table 3-7 has accepted:
// the lead keeps 7, 5, 4 or 3 payload bits, each continuation 6.
inline char32_t value_of(const std::uint8_t* s, std::size_t len) noexcept {
  static constexpr std::uint8_t kLeadMask[5] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  char32_t cp = s[0] & kLeadMask[len];
  for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (s[k] & 0x3Fu);
  return cp;
}

inline bool is_scalar_value(char32_t cp) noexcept {
  return cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
}

// decode_at decodes the sequence at p[i]; on success it stores the value.
inline result decode_at(const std::uint8_t* p, std::size_t n, std::size_t i,
                        char32_t& cp) noexcept {
  const result r = sequence_at(p, n, i);
  if (r.ok()) cp = value_of(p + i, r.length);
  return r;
}

// decode_each passes each code point of the input to put (bool(char32_t),
// false to stop) and returns the first error, or ok() at the end or on a stop.
template <class Put>
result decode_each(std::string_view in, Put put) {
  const std::uint8_t* p = bytes(in.data());
  for (std::size_t i = 0; i < in.size();) {
    char32_t cp = 0;
    const result r = decode_at(p, in.size(), i, cp);
    if (!r.ok()) return r;
    if (!put(cp)) break;
    i += r.length;
  }
  return {};
}

// Encodes a scalar value; returns 0 for anything else.
inline std::size_t encode_scalar(char32_t cp, char* out) noexcept {
  if (!is_scalar_value(cp)) return 0;
  if (cp < 0x80) {
    out[0] = static_cast<char>(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = static_cast<char>(0xC0 | (cp >> 6));
    out[1] = static_cast<char>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = static_cast<char>(0xE0 | (cp >> 12));
    out[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out[2] = static_cast<char>(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = static_cast<char>(0xF0 | (cp >> 18));
  out[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
  out[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
  out[3] = static_cast<char>(0x80 | (cp & 0x3F));
  return 4;
}

// encode_each passes the UTF-8 form of each code point to put (bool(const
// char*, std::size_t), false to stop). It returns the index of the first value
// that is not a scalar value, or count when there is none (or put stopped).
template <class Put>
std::size_t encode_each(const char32_t* cps, std::size_t count, Put put) {
  for (std::size_t i = 0; i < count; ++i) {
    char buf[4];
    const std::size_t len = encode_scalar(cps[i], buf);
    if (len == 0) return i;
    if (!put(buf, len)) break;
  }
  return count;
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_CORE_CODEC_HPP
