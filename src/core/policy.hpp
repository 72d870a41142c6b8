// policy.hpp - the categories of docs/design.md's policies, as code: which category a
// scalar value is in, which lead bytes can start one, and the exact check of
// well-formed bytes against a set of denied categories.
//
//   category      scalar values                               UTF-8 lead bytes
//   nul           U+0000                                      00
//   control       U+0001..0008, U+000E..001F, U+007F          01..08 0E..1F 7F
//   newline       U+000A..000D, U+0085, U+2028, U+2029        0A..0D C2 E2
//   c1            U+0080..009F less U+0085                    C2
//   bidi          U+061C, U+200E..200F, U+202A..202E,         D8 E2
//                 U+2066..2069 (Bidi_Control)
//   noncharacter  U+FDD0..FDEF, U+nFFFE, U+nFFFF (n=0..10)    EF F0..F4
//   private_use   U+E000..F8FF, U+F0000..FFFFD,               EE EF F3 F4
//                 U+100000..10FFFD
//   bom           U+FEFF not at byte 0 of the whole input     EF
//   replacement   U+FFFD                                      EF
// bad_escape and double_encoding are percent-encoding categories: they hold
// no scalar value, so they match nothing here.
#ifndef UTF8GUARD_CORE_POLICY_HPP
#define UTF8GUARD_CORE_POLICY_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "utf8guard/utf8guard.hpp"

namespace utf8guard::detail {

// category_of returns the category bit of scalar value cp (0 for none).
// at_start: the character begins at byte 0 of the whole input, where U+FEFF
// is a signature, not a bom violation.
constexpr std::uint32_t category_of(char32_t cp, bool at_start) noexcept {
  if (cp < 0x20) {
    if (cp == 0) return UTF8GUARD_CATEGORY_NUL;
    if (cp >= 0x0A && cp <= 0x0D) return UTF8GUARD_CATEGORY_NEWLINE;
    return cp == 0x09 ? 0 : UTF8GUARD_CATEGORY_CONTROL;
  }
  if (cp < 0x7F) return 0;
  if (cp == 0x7F) return UTF8GUARD_CATEGORY_CONTROL;
  if (cp <= 0x9F) return cp == 0x85 ? UTF8GUARD_CATEGORY_NEWLINE : UTF8GUARD_CATEGORY_C1;
  if (cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
      (cp >= 0x2066 && cp <= 0x2069)) {
    return UTF8GUARD_CATEGORY_BIDI;
  }
  if (cp == 0x2028 || cp == 0x2029) return UTF8GUARD_CATEGORY_NEWLINE;
  if ((cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE) {
    return UTF8GUARD_CATEGORY_NONCHARACTER;
  }
  if ((cp >= 0xE000 && cp <= 0xF8FF) || cp >= 0xF0000) return UTF8GUARD_CATEGORY_PRIVATE_USE;
  if (cp == 0xFEFF) return at_start ? 0 : UTF8GUARD_CATEGORY_BOM;
  if (cp == 0xFFFD) return UTF8GUARD_CATEGORY_REPLACEMENT;
  return 0;
}

// lead_categories is the union of the categories of every character whose
// UTF-8 form starts with byte b (0 for continuation bytes and bytes that
// start nothing). It is the prefilter: a byte whose set misses the policy
// cannot start a violation.
constexpr std::uint32_t lead_categories(std::uint8_t b) noexcept {
  if (b < 0x80) return category_of(b, false);
  switch (b) {
    case 0xC2: return UTF8GUARD_CATEGORY_C1 | UTF8GUARD_CATEGORY_NEWLINE;
    case 0xD8: return UTF8GUARD_CATEGORY_BIDI;
    case 0xE2: return UTF8GUARD_CATEGORY_BIDI | UTF8GUARD_CATEGORY_NEWLINE;
    case 0xEE: return UTF8GUARD_CATEGORY_PRIVATE_USE;
    case 0xEF:
      return UTF8GUARD_CATEGORY_PRIVATE_USE | UTF8GUARD_CATEGORY_NONCHARACTER |
             UTF8GUARD_CATEGORY_BOM | UTF8GUARD_CATEGORY_REPLACEMENT;
    case 0xF0:
    case 0xF1:
    case 0xF2: return UTF8GUARD_CATEGORY_NONCHARACTER;
    case 0xF3:
    case 0xF4: return UTF8GUARD_CATEGORY_NONCHARACTER | UTF8GUARD_CATEGORY_PRIVATE_USE;
    default: return 0;
  }
}

struct lead_category_table {
  std::uint16_t entry[256];
  constexpr lead_category_table() : entry{} {
    for (int b = 0; b < 256; ++b) {
      entry[b] = static_cast<std::uint16_t>(lead_categories(static_cast<std::uint8_t>(b)));
    }
  }
};
inline constexpr lead_category_table kLeadCategories{};

// The vector prefilter's byte classes (generic/policy_prefilter.hpp), as
// unions of products of a high nibble set and a low nibble set, one bit
// each: a byte's class is kPrefilterHigh[b >> 4] & kPrefilterLow[b & 15].
//   bit 0  00..08 0A..0F   bit 1  10..1F   bit 2  7F       bit 3  C2
//   bit 4  D8              bit 5  E2       bit 6  EE EF    bit 7  8F 9F AF BF
// Bits 0-2 flag a byte alone. Bits 3-6 flag a lead only with the byte after
// it that one of its denied characters has; bit 7 flags a continuation only
// before BF: the second and third bytes of every noncharacter U+nFFFE and
// U+nFFFF above U+FFFF (F0 9F BF BE, ..., F4 8F BF BF). So the leads F0..F2,
// which start emoji and the rest of planes 1-2, start no candidate; F3 and
// F4, which start the private use planes 15-16, are flagged alone by a class
// of the byte-after tables (kF3F4 there). policy.cpp checks that every lead
// kLeadCategories gives a category is covered.
inline constexpr std::uint8_t kPrefilterHigh[16] = {1,   2,   0,   0,   0, 0,  0,       4,
                                                    128, 128, 128, 128, 8, 16, 32 | 64, 0};
inline constexpr std::uint8_t kPrefilterLow[16] = {
    1 | 2,      1 | 2, 1 | 2 | 8 | 32, 1 | 2, 1 | 2, 1 | 2, 1 | 2,      1 | 2,
    1 | 2 | 16, 2,     1 | 2,          1 | 2, 1 | 2, 1 | 2, 1 | 2 | 64, 1 | 2 | 4 | 64 | 128};
inline constexpr std::uint8_t kNoncharacterPair = 128;

// The byte-after classes, one bit per class of kPrefilterHigh it completes:
// bit 3 after C2 (80..9F), bit 4 after D8 (9C), bit 5 after E2 (80..81),
// bit 6 after EE or EF (any continuation: private use; prefilter_tables
// keeps only B7, BB and BF, the noncharacters', BOM's and U+FFFD's, for a
// policy that allows private use), bit 7 after 8F/9F/AF/BF (BF); and
// kF3F4, F3 and F4, which count alone.
inline constexpr std::uint8_t kF3F4 = 1;
inline constexpr std::uint8_t kAfterEeEf = 64;
inline constexpr std::uint8_t kSecondHigh[16] = {
    0, 0, 0, 0, 0, 0, 0, 0, 8 | 32 | 64, 8 | 16 | 64, 64, 64 | 128, 0, 0, 0, kF3F4};
inline constexpr std::uint8_t kSecondLow[16] = {
    8 | 32 | 64, 8 | 32 | 64, 8 | 64, 8 | 64 | kF3F4, 8 | 64 | kF3F4, 8 | 64, 8 | 64, 8 | 64,
    8 | 64,      8 | 64,      8 | 64, 8 | 64,         8 | 16 | 64,    8 | 64, 8 | 64, 8 | 64 | 128};

// kPrefilterKeep[c] holds the class bits of the bytes that start characters
// of category bit c (bit 7 for the noncharacters), and kKeepF3F4 the
// categories that need F3 and F4 flagged: a policy keeps the union over the
// categories it denies. Built once at compile time, so that a call with a
// policy on a short input pays a handful of ORs, not a walk over 256 bytes.
inline constexpr std::uint32_t kKeepF3F4 = UTF8GUARD_CATEGORY_PRIVATE_USE;
struct prefilter_keep_table {
  std::uint8_t bits[category_count];
  constexpr prefilter_keep_table() : bits{} {
    for (std::size_t c = 0; c < category_count; ++c) {
      for (int b = 0; b < 256; ++b) {
        if ((lead_categories(static_cast<std::uint8_t>(b)) & (1u << c)) != 0) {
          bits[c] =
              static_cast<std::uint8_t>(bits[c] | (kPrefilterHigh[b >> 4] & kPrefilterLow[b & 15]));
        }
      }
      if ((1u << c) == UTF8GUARD_CATEGORY_NONCHARACTER) {
        bits[c] = static_cast<std::uint8_t>(bits[c] | kNoncharacterPair);
      }
    }
  }
};
inline constexpr prefilter_keep_table kPrefilterKeep{};

// kSecondTables[private_use] are the byte-after tables of a policy that
// denies private use or not: one that allows it counts EE and EF only before
// B7, BB and BF (so that CJK punctuation, EF BC and EF BD, is no candidate).
struct second_tables {
  std::uint8_t high[16];
  std::uint8_t low[16];
  constexpr explicit second_tables(bool private_use) : high{}, low{} {
    for (int k = 0; k < 16; ++k) {
      // High nibble B with low nibble 7, B or F: B7, BB, BF.
      const bool ee_ef_wide = private_use || k == 0xB;
      const bool ee_ef_low = private_use || k == 0x7 || k == 0xB || k == 0xF;
      high[k] = static_cast<std::uint8_t>(kSecondHigh[k] & (ee_ef_wide ? 0xFF : ~kAfterEeEf));
      low[k] = static_cast<std::uint8_t>(kSecondLow[k] & (ee_ef_low ? 0xFF : ~kAfterEeEf));
    }
  }
};
inline constexpr second_tables kSecondTables[2] = {second_tables(false), second_tables(true)};

// prefilter_tables are the lookup tables for one policy: the bits of the
// byte sets that start none of its categories are cleared; the byte-after
// tables are kSecondTables'; and f3_f4 is the byte-after class that flags F3
// and F4 alone (generic/policy_prefilter.hpp), or 0. Built per call from
// tables made at compile time: a handful of ORs and copies.
struct prefilter_tables {
  alignas(16) std::uint8_t high[16];
  alignas(16) std::uint8_t low[16];
  alignas(16) std::uint8_t second_high[16];
  alignas(16) std::uint8_t second_low[16];
  std::uint8_t f3_f4;
  explicit prefilter_tables(utf8guard_policy deny) noexcept {
    std::uint8_t keep = 0;
    for (std::size_t c = 0; c < category_count; ++c) {
      if ((deny >> c) & 1u) keep = static_cast<std::uint8_t>(keep | kPrefilterKeep.bits[c]);
    }
    const second_tables& second =
        kSecondTables[(deny & UTF8GUARD_CATEGORY_PRIVATE_USE) != 0 ? 1 : 0];
    for (int k = 0; k < 16; ++k) high[k] = kPrefilterHigh[k] & keep;
    std::memcpy(low, kPrefilterLow, sizeof low);
    std::memcpy(second_high, second.high, sizeof second_high);
    std::memcpy(second_low, second.low, sizeof second_low);
    f3_f4 = (deny & kKeepF3F4) != 0 ? 1 : 0;
  }
};

// quiet_prefix_fn is a vector prefilter: the length of a prefix of p[0..n)
// in which no byte can start a violation (see generic/policy_prefilter.hpp),
// and whether it ended because a byte after it was flagged (else: it is n).
struct quiet_run {
  std::size_t length;
  bool flagged;
};
using quiet_prefix_fn = quiet_run (*)(const std::uint8_t* p, std::size_t n,
                                      const prefilter_tables& t) noexcept;

// ascii_range is an interval [lo, hi] of ASCII bytes.
struct ascii_range {
  std::uint8_t lo, hi;
};
// The ASCII bytes hold only these categories (static_assert in policy.cpp),
// so a policy's quiet ASCII depends on three of its bits: kQuietAscii below
// is indexed by quiet_ascii_index.
constexpr std::uint32_t kAsciiCategories =
    UTF8GUARD_CATEGORY_NUL | UTF8GUARD_CATEGORY_CONTROL | UTF8GUARD_CATEGORY_NEWLINE;
constexpr std::size_t quiet_ascii_index(utf8guard_policy deny) noexcept {
  return ((deny & UTF8GUARD_CATEGORY_NUL) != 0 ? 1 : 0) |
         ((deny & UTF8GUARD_CATEGORY_CONTROL) != 0 ? 2 : 0) |
         ((deny & UTF8GUARD_CATEGORY_NEWLINE) != 0 ? 4 : 0);
}
// kQuietAscii[quiet_ascii_index(deny)] is the widest interval around the
// printable bytes 20..7E (which no category holds) that the policy allows
// whole: 20..7E under field and source, 00..7F under json.
struct quiet_ascii_table {
  ascii_range range[8];
  constexpr quiet_ascii_table() : range{} {
    for (std::uint32_t k = 0; k < 8; ++k) {
      const std::uint32_t deny = ((k & 1) != 0 ? UTF8GUARD_CATEGORY_NUL : 0) |
                                 ((k & 2) != 0 ? UTF8GUARD_CATEGORY_CONTROL : 0) |
                                 ((k & 4) != 0 ? UTF8GUARD_CATEGORY_NEWLINE : 0);
      std::uint8_t lo = 0x20;
      while (lo > 0 && (category_of(lo - 1u, false) & deny) == 0) --lo;
      range[k] = {lo,
                  (category_of(0x7F, false) & deny) == 0 ? std::uint8_t{0x7F} : std::uint8_t{0x7E}};
    }
  }
};
inline constexpr quiet_ascii_table kQuietAscii{};

// quiet_ascii_fn returns a length r such that p[0..r) lies in the range:
// n, or where a byte outside it may be (generic/policy_prefilter.hpp).
using quiet_ascii_fn = std::size_t (*)(const std::uint8_t* p, std::size_t n,
                                       ascii_range r) noexcept;

// sequence_length is the length of the well-formed sequence led by b.
constexpr std::size_t sequence_length(std::uint8_t b) noexcept {
  return b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
}

// decode_scalar decodes the well-formed sequence s[0..len).
constexpr char32_t decode_scalar(const std::uint8_t* s, std::size_t len) noexcept {
  if (len == 1) return s[0];
  char32_t v = s[0] & (0x7Fu >> len);
  for (std::size_t k = 1; k < len; ++k) v = (v << 6) | (s[k] & 0x3Fu);
  return v;
}

// violation_at checks the well-formed character s[0..len), which starts at
// absolute offset `at`, against the denied set; a disallowed result (with
// offset `at`) or an ok() one.
inline result violation_at(const std::uint8_t* s, std::size_t len, std::size_t at,
                           utf8guard_policy deny) noexcept {
  const char32_t cp = decode_scalar(s, len);
  const std::uint32_t cat = category_of(cp, at == 0) & deny;
  if (cat == 0) return {};
  return {error::disallowed, at, len, static_cast<category>(cat), cp};
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_CORE_POLICY_HPP
