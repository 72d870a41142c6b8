// policy.hpp - a policy over well-formed bytes: which lead bytes can start a
// character of a category (the prefilters' tables, from core/categories.hpp's
// table), the quiet ASCII of a policy, and the exact check of one character
// against a set of denied categories.
//
// bad_escape and double_encoding are percent-encoding categories: they hold
// no scalar value, so they match nothing here.
#ifndef UTF8GUARD_CORE_POLICY_HPP
#define UTF8GUARD_CORE_POLICY_HPP

#include <cstddef>
#include <cstdint>

#include "core/categories.hpp"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::detail {

// kLeadCategories[b] is lead_categories(b) (core/categories.hpp), looked up:
// a byte whose set misses the policy cannot start a violation.
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
// of the byte-after tables (kF3F4 there). policy.cpp checks that they flag
// every value of every category under a policy that denies it.
inline constexpr std::uint8_t kPrefilterHigh[16] = {1,   2,   0,   0,   0, 0,  0,       4,
                                                    128, 128, 128, 128, 8, 16, 32 | 64, 0};
inline constexpr std::uint8_t kPrefilterLow[16] = {
    1 | 2,      1 | 2, 1 | 2 | 8 | 32, 1 | 2, 1 | 2, 1 | 2, 1 | 2,      1 | 2,
    1 | 2 | 16, 2,     1 | 2,          1 | 2, 1 | 2, 1 | 2, 1 | 2 | 64, 1 | 2 | 4 | 64 | 128};
// The classes that count alone: the ASCII bytes.
inline constexpr std::uint8_t kPrefilterAlone = 1 | 2 | 4;
// The class of the pair that ends a three-byte pattern (kPlaneEnds).
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

// lead_only_at says whether a pattern of row r looks at a lead in `leads`
// alone: the private use leads, whose characters the vector prefilter flags
// by the lead (EE, EF: any byte after; F3, F4: kF3F4).
constexpr bool lead_only_at(const category_row& r, const byte_set& leads) noexcept {
  for (std::size_t p = 0; p < kPatternCount; ++p) {
    if ((r.patterns & (1u << p)) == 0) continue;
    bool second_any = true;
    for (int b = 0; b < 256; ++b) second_any = second_any && kPatterns[p].second.has(b);
    for (int b = 0; b < 256; ++b) {
      if (second_any && leads.has(b) && kPatterns[p].lead.has(b)) return true;
    }
  }
  return false;
}
constexpr std::uint32_t categories_lead_only_at(const byte_set& leads) noexcept {
  std::uint32_t out = 0;
  for (const category_row& r : kCategories) {
    if (lead_only_at(r, leads)) out |= static_cast<std::uint32_t>(r.id);
  }
  return out;
}
// kKeepF3F4: the categories that need F3 and F4 flagged alone; kWideEeEf:
// those that need EE and EF flagged before any continuation byte.
inline constexpr std::uint32_t kKeepF3F4 = categories_lead_only_at(bytes(0xF3, 0xF4));
inline constexpr std::uint32_t kWideEeEf = categories_lead_only_at(bytes(0xEE, 0xEF));

// kPrefilterKeep[c] holds the class bits that row c's patterns need: the
// classes of their leads that start a character of c, and the pair class
// for a pattern of three bytes. A policy keeps the union over the categories
// it denies. Built once at compile time, so that a call with a policy on a
// short input pays a handful of ORs, not a walk over 256 bytes.
struct prefilter_keep_table {
  std::uint8_t bits[category_count];
  constexpr prefilter_keep_table() : bits{} {
    for (std::size_t c = 0; c < category_count; ++c) {
      const category_row& r = kCategories[c];
      for (std::size_t p = 0; p < kPatternCount; ++p) {
        if ((r.patterns & (1u << p)) == 0) continue;
        bool three = false;
        for (int b = 0; b < 256; ++b) three = three || !kPatterns[p].third.has(b);
        if (three) bits[c] = static_cast<std::uint8_t>(bits[c] | kNoncharacterPair);
        for (int b = 0; b < 256; ++b) {
          if (kPatterns[p].lead.has(b) &&
              (lead_categories(static_cast<std::uint8_t>(b)) & (1u << c)) != 0) {
            bits[c] = static_cast<std::uint8_t>(bits[c] |
                                                (kPrefilterHigh[b >> 4] & kPrefilterLow[b & 15]));
          }
        }
      }
    }
  }
};
inline constexpr prefilter_keep_table kPrefilterKeep{};

// kSecondTables[wide] are the byte-after tables of a policy that needs EE
// and EF flagged alone (it denies a category of kWideEeEf) or not: one that
// does not counts EE and EF only before B7, BB and BF (so that CJK
// punctuation, EF BC and EF BD, is no candidate).
struct second_tables {
  std::uint8_t high[16];
  std::uint8_t low[16];
  constexpr explicit second_tables(bool wide) : high{}, low{} {
    for (int k = 0; k < 16; ++k) {
      // High nibble B with low nibble 7, B or F: B7, BB, BF.
      const bool ee_ef_wide = wide || k == 0xB;
      const bool ee_ef_low = wide || k == 0x7 || k == 0xB || k == 0xF;
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
// tables made at compile time: a handful of ANDs and copies.
struct prefilter_tables {
  alignas(16) std::uint8_t high[16] = {};
  alignas(16) std::uint8_t low[16] = {};
  alignas(16) std::uint8_t second_high[16] = {};
  alignas(16) std::uint8_t second_low[16] = {};
  std::uint8_t f3_f4 = 0;
  constexpr explicit prefilter_tables(utf8guard_policy deny) noexcept {
    std::uint8_t keep = 0;
    for (std::size_t c = 0; c < category_count; ++c) {
      if ((deny >> c) & 1u) keep = static_cast<std::uint8_t>(keep | kPrefilterKeep.bits[c]);
    }
    const second_tables& second = kSecondTables[(deny & kWideEeEf) != 0 ? 1 : 0];
    for (int k = 0; k < 16; ++k) {
      high[k] = kPrefilterHigh[k] & keep;
      low[k] = kPrefilterLow[k];
      second_high[k] = second.high[k];
      second_low[k] = second.low[k];
    }
    f3_f4 = (deny & kKeepF3F4) != 0 ? 1 : 0;
  }
};

// vector_flags_at says whether the vector prefilter, with tables t, flags a
// byte among the first three of the character s[0..len) after an ASCII
// letter (generic/policy_prefilter.hpp's flags, one byte at a time): then
// it stops at most kBackUp bytes before, and the character is checked.
constexpr bool vector_flags_at(const prefilter_tables& t, const std::uint8_t* s,
                               std::size_t len) noexcept {
  std::uint8_t before = 0;  // an ASCII letter's classes
  for (std::size_t j = 0; j < len && j < 3; ++j) {
    const std::uint8_t c = t.high[s[j] >> 4] & t.low[s[j] & 15];
    const std::uint8_t second = t.second_high[s[j] >> 4] & t.second_low[s[j] & 15];
    if (((c & kPrefilterAlone) | ((before | t.f3_f4) & second)) != 0) return true;
    before = c;
  }
  return false;
}

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

// quiet_ascii_fn returns a length r such that p[0..r) lies in the range
// and holds no stop byte (0: none): n, or the first byte that does not
// (generic/policy_prefilter.hpp).
using quiet_ascii_fn = std::size_t (*)(const std::uint8_t* p, std::size_t n, ascii_range r,
                                       std::uint8_t stop) noexcept;

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
