// reference.cpp - see reference.hpp: decode first, then range-check code points.
#include "reference.hpp"

#include <cstdint>

namespace reference {
namespace {

// The scalar values a sequence of each length may encode (Table 3-7).
constexpr char32_t kMin[5] = {0, 0x0, 0x80, 0x800, 0x10000};
constexpr char32_t kMax[5] = {0, 0x7F, 0x7FF, 0xFFFF, 0x10FFFF};
constexpr char32_t kSurrogateLo = 0xD800, kSurrogateHi = 0xDFFF;

// length_from_bits reads the sequence length from the lead byte's pattern:
// 0xxxxxxx 1, 110xxxxx 2, 1110xxxx 3, 11110xxx 4; 10xxxxxx (a continuation)
// and 11111xxx (no UTF-8 form) give 0.
int length_from_bits(std::uint8_t b) {
  if ((b >> 7) == 0) return 1;
  if ((b >> 5) == 0b110) return 2;
  if ((b >> 4) == 0b1110) return 3;
  if ((b >> 3) == 0b11110) return 4;
  return 0;
}

bool is_continuation(std::uint8_t b) { return (b >> 6) == 0b10; }

// The interval of code points reachable by completing the first k bytes of a
// length-len sequence with continuation bytes (payload 000000 .. 111111).
struct interval {
  char32_t lo, hi;
};

interval reachable(const std::uint8_t* s, int k, int len) {
  const unsigned lead_bits = 7 - len;  // payload bits of the lead (len >= 2)
  char32_t v = s[0] & ((1u << lead_bits) - 1);
  for (int j = 1; j < k; ++j) v = (v << 6) | (s[j] & 0x3F);
  const unsigned missing = 6 * static_cast<unsigned>(len - k);
  return {v << missing, (v << missing) | ((char32_t{1} << missing) - 1)};
}

// A prefix can still be completed to a well-formed sequence iff its interval
// meets the scalar values of its length (which exclude the surrogates).
bool completable(interval r, int len) {
  const char32_t lo = r.lo > kMin[len] ? r.lo : kMin[len];
  const char32_t hi = r.hi < kMax[len] ? r.hi : kMax[len];
  if (lo > hi) return false;
  return !(lo >= kSurrogateLo && hi <= kSurrogateHi);  // not wholly inside the surrogates
}

// Why a prefix with this interval cannot be completed (docs/design.md's kinds). A
// lead byte whose every completion lies above U+10FFFF (F5..F7) is a byte that
// never occurs in UTF-8; a lead that is only pushed there by the byte after
// it (F4 90) encodes a value that is too large.
std::string_view why_not(interval r, int len, bool lead_alone) {
  if (r.hi < kMin[len]) return "overlong";  // only a shorter form may encode these
  if (r.lo > kMax[len]) return lead_alone ? "invalid_byte" : "too_large";
  return "surrogate";  // what is left lies in D800..DFFF
}

// At an offset where a sequence must start: either a well-formed sequence
// (kind "none", its length) or the maximal subpart there.
error at(const std::uint8_t* p, std::size_t n, std::size_t i) {
  const std::uint8_t lead = p[i];
  if (is_continuation(lead)) return {"unexpected_continuation", i, 1};
  const int len = length_from_bits(lead);
  if (len == 0) return {"invalid_byte", i, 1};  // F8..FF
  if (len == 1) return {"none", i, 1};
  // The lead alone must be completable: C0, C1 (overlong) and F5..F7 are not.
  if (const interval r = reachable(p + i, 1, len); !completable(r, len)) {
    return {why_not(r, len, true), i, 1};
  }
  for (int k = 1; k < len; ++k) {
    if (i + k >= n) return {"incomplete", i, static_cast<std::size_t>(k)};
    if (!is_continuation(p[i + k])) return {"truncated", i, static_cast<std::size_t>(k)};
    const interval r = reachable(p + i, k + 1, len);
    if (!completable(r, len)) {
      // The byte at i + k is a continuation, but no completion is a scalar
      // value of this length: the subpart is the completable prefix p[i..i+k).
      return {why_not(r, len, false), i, static_cast<std::size_t>(k)};
    }
  }
  return {"none", i, static_cast<std::size_t>(len)};
}

char32_t value(const std::uint8_t* s, int len) { return reachable(s, len, len).lo; }

}  // namespace

error sequence_at(std::string_view bytes, std::size_t i) {
  return at(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), i);
}

error first_error(std::string_view bytes) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data());
  for (std::size_t i = 0; i < bytes.size();) {
    const error e = at(p, bytes.size(), i);
    if (!e.ok()) return e;
    i += e.length;
  }
  return {"none", 0, 0};
}

std::vector<error> all_errors(std::string_view bytes) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data());
  std::vector<error> out;
  for (std::size_t i = 0; i < bytes.size();) {
    const error e = at(p, bytes.size(), i);
    if (!e.ok()) out.push_back(e);
    i += e.length;
  }
  return out;
}

std::string sanitize(std::string_view bytes) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data());
  std::string out;
  for (std::size_t i = 0; i < bytes.size();) {
    const error e = at(p, bytes.size(), i);
    if (e.ok()) {
      out.append(bytes.substr(i, e.length));
    } else {
      out.append("\xEF\xBF\xBD");
    }
    i += e.length;
  }
  return out;
}

std::u32string decode(std::string_view bytes) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data());
  std::u32string out;
  for (std::size_t i = 0; i < bytes.size();) {
    const error e = at(p, bytes.size(), i);
    if (!e.ok()) break;
    const int len = static_cast<int>(e.length);
    out.push_back(len == 1 ? char32_t{p[i]} : value(p + i, len));
    i += e.length;
  }
  return out;
}

std::string encode(char32_t cp) {
  if (cp > 0x10FFFF || (cp >= kSurrogateLo && cp <= kSurrogateHi)) return {};
  int len = 1;
  while (cp > kMax[len]) ++len;
  std::string out(static_cast<std::size_t>(len), '\0');
  // Fill payload bits from the last byte backwards, 6 per continuation byte.
  char32_t v = cp;
  for (int j = len - 1; j > 0; --j) {
    out[j] = static_cast<char>(0x80 | (v & 0x3F));
    v >>= 6;
  }
  static constexpr unsigned char kLeadMark[5] = {0, 0x00, 0xC0, 0xE0, 0xF0};
  out[0] = static_cast<char>(kLeadMark[len] | v);
  return out;
}

}  // namespace reference
