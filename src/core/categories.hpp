// categories.hpp - the categories of docs/design.md's policies, as data: one
// row per category, in bit order, with its name, the scalar values it holds
// and the byte patterns at which the prefilters stop for it. The rest derives
// from this table: category_of and the lead bytes' categories (below), the
// prefilters' masks (core/policy.hpp, stream/policy_scan.cpp), the names
// (core/policy.cpp) and the tests' lists. What is written by hand for speed,
// the prefilters' byte tests and vector classes, is checked against it at
// compile time. HACKING.md, "How to add a category", lists what else a new
// row needs.
#ifndef UTF8GUARD_CORE_CATEGORIES_HPP
#define UTF8GUARD_CORE_CATEGORIES_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "utf8guard/utf8guard.hpp"

namespace utf8guard::detail {

// code_range is the scalar values first..last.
struct code_range {
  char32_t first, last;
};

// byte_set is a set of byte values, built from bytes() and |.
struct byte_set {
  std::uint64_t word[4] = {};
  [[nodiscard]] constexpr bool has(std::uint8_t b) const noexcept {
    return ((word[b >> 6] >> (b & 63)) & 1u) != 0;
  }
  friend constexpr byte_set operator|(byte_set a, const byte_set& b) noexcept {
    for (std::size_t k = 0; k < 4; ++k) a.word[k] |= b.word[k];
    return a;
  }
};
// bytes(lo, hi) is the set lo..hi; bytes(b) is b alone.
constexpr byte_set bytes(std::uint8_t lo, std::uint8_t hi) noexcept {
  byte_set s;
  for (unsigned b = lo; b <= hi; ++b) s.word[b >> 6] |= std::uint64_t{1} << (b & 63);
  return s;
}
constexpr byte_set bytes(std::uint8_t b) noexcept { return bytes(b, b); }
inline constexpr byte_set kAnyByte = bytes(0x00, 0xFF);

// byte_pattern is the characters whose first byte is in lead, second in
// second and third in third (kAnyByte: that byte is not looked at).
struct byte_pattern {
  byte_set lead, second = kAnyByte, third = kAnyByte;
  [[nodiscard]] constexpr bool matches(std::uint8_t b0, std::uint8_t b1,
                                       std::uint8_t b2) const noexcept {
    return lead.has(b0) && second.has(b1) && third.has(b2);
  }
};

// The prefilters' patterns, one bit each. A category lists those that cover
// the first bytes of all its values (checked in core/policy.cpp); under a
// policy, the prefilters stop only where a pattern of a denied category
// matches. The scalar prefilter tests each pattern (stream/policy_scan.cpp),
// the vector one flags each by its byte classes (core/policy.hpp); both are
// checked against this list. A new pattern needs a test and classes of its
// own.
enum pattern_bit : std::uint8_t {
  kAsciiControls = 1u << 0,  // 00..08 0A..1F 7F
  kC2C1 = 1u << 1,           // C2 80..9F: U+0080..009F
  kD89C = 1u << 2,           // D8 9C: U+061C
  kE280 = 1u << 3,           // E2 80..81: U+2000..207F
  kEfSpecials = 1u << 4,     // EF B7, BB, BF: U+FDC0..FDFF, U+FEC0..FEFF, U+FFC0..FFFF
  kPlaneEnds = 1u << 5,      // F0..F4 8F/9F/AF/BF BF: U+nFFC0..nFFFF above U+FFFF
  kPrivateLeads = 1u << 6,   // EE EF F3 F4 alone: U+E000..FFFF, U+C0000..10FFFF
};
inline constexpr byte_pattern kPatterns[] = {
    {bytes(0x00, 0x08) | bytes(0x0A, 0x1F) | bytes(0x7F)},
    {bytes(0xC2), bytes(0x80, 0x9F)},
    {bytes(0xD8), bytes(0x9C)},
    {bytes(0xE2), bytes(0x80, 0x81)},
    {bytes(0xEF), bytes(0xB7) | bytes(0xBB) | bytes(0xBF)},
    {bytes(0xF0, 0xF4), bytes(0x8F) | bytes(0x9F) | bytes(0xAF) | bytes(0xBF), bytes(0xBF)},
    {bytes(0xEE, 0xEF) | bytes(0xF3, 0xF4)},
};
inline constexpr std::size_t kPatternCount = std::size(kPatterns);

// The scalar values of each category, sorted.
inline constexpr code_range kNulValues[] = {{0x0000, 0x0000}};
inline constexpr code_range kControlValues[] = {
    {0x0001, 0x0008}, {0x000E, 0x001F}, {0x007F, 0x007F}};
inline constexpr code_range kNewlineValues[] = {
    {0x000A, 0x000D}, {0x0085, 0x0085}, {0x2028, 0x2029}};
inline constexpr code_range kC1Values[] = {{0x0080, 0x0084}, {0x0086, 0x009F}};
inline constexpr code_range kBidiValues[] = {
    {0x061C, 0x061C}, {0x200E, 0x200F}, {0x202A, 0x202E}, {0x2066, 0x2069}};
inline constexpr code_range kNoncharacterValues[] = {
    {0xFDD0, 0xFDEF},   {0xFFFE, 0xFFFF},    {0x1FFFE, 0x1FFFF}, {0x2FFFE, 0x2FFFF},
    {0x3FFFE, 0x3FFFF}, {0x4FFFE, 0x4FFFF},  {0x5FFFE, 0x5FFFF}, {0x6FFFE, 0x6FFFF},
    {0x7FFFE, 0x7FFFF}, {0x8FFFE, 0x8FFFF},  {0x9FFFE, 0x9FFFF}, {0xAFFFE, 0xAFFFF},
    {0xBFFFE, 0xBFFFF}, {0xCFFFE, 0xCFFFF},  {0xDFFFE, 0xDFFFF}, {0xEFFFE, 0xEFFFF},
    {0xFFFFE, 0xFFFFF}, {0x10FFFE, 0x10FFFF}};
inline constexpr code_range kPrivateUseValues[] = {
    {0xE000, 0xF8FF}, {0xF0000, 0xFFFFD}, {0x100000, 0x10FFFD}};
inline constexpr code_range kBomValues[] = {{0xFEFF, 0xFEFF}};
inline constexpr code_range kReplacementValues[] = {{0xFFFD, 0xFFFD}};

// category_row is one category: its bit (row k is bit k of the public enum),
// its name (part of the contract: the CLI prints it; never rename one), its
// values, the kPatterns bits that cover them, and whether it allows its
// values as the first character of the input (a BOM there is a signature).
// The percent-encoding categories hold no scalar value: the percent decoder
// finds them.
struct category_row {
  category id;
  std::string_view name;
  const code_range* values = nullptr;
  std::size_t value_count = 0;
  std::uint8_t patterns = 0;
  bool allowed_at_start = false;
};
template <std::size_t N>
constexpr category_row row(category id, std::string_view name, const code_range (&values)[N],
                           std::uint8_t patterns, bool allowed_at_start = false) noexcept {
  return {id, name, values, N, patterns, allowed_at_start};
}

inline constexpr category_row kCategories[] = {
    row(category::nul, "nul", kNulValues, kAsciiControls),
    row(category::control, "control", kControlValues, kAsciiControls),
    row(category::newline, "newline", kNewlineValues, kAsciiControls | kC2C1 | kE280),
    row(category::c1, "c1", kC1Values, kC2C1),
    row(category::bidi, "bidi", kBidiValues, kD89C | kE280),
    row(category::noncharacter, "noncharacter", kNoncharacterValues, kEfSpecials | kPlaneEnds),
    row(category::private_use, "private_use", kPrivateUseValues, kPrivateLeads),
    row(category::bom, "bom", kBomValues, kEfSpecials, true),
    row(category::replacement, "replacement", kReplacementValues, kEfSpecials),
    {category::bad_escape, "bad_escape"},
    {category::double_encoding, "double_encoding"},
};

// The rows are the public enum's bits in order, one per category.
static_assert(std::size(kCategories) == category_count, "one row per category of utf8guard.h");
constexpr bool rows_in_bit_order() {
  for (std::size_t k = 0; k < category_count; ++k) {
    if (static_cast<std::uint32_t>(kCategories[k].id) != 1u << k) return false;
  }
  return true;
}
static_assert(rows_in_bit_order(), "row k of kCategories is not the enum's bit k");

// value_entry is one range of the flat index below.
struct value_entry {
  char32_t first = 0, last = 0;
  std::uint32_t bit = 0;
  bool allowed_at_start = false;
};
constexpr std::size_t value_total() noexcept {
  std::size_t n = 0;
  for (const category_row& r : kCategories) n += r.value_count;
  return n;
}
// kValueIndex is every row's ranges, sorted by first value.
constexpr std::array<value_entry, value_total()> value_index() noexcept {
  std::array<value_entry, value_total()> out{};
  std::size_t n = 0;
  for (const category_row& r : kCategories) {
    for (std::size_t k = 0; k < r.value_count; ++k) {
      value_entry e{r.values[k].first, r.values[k].last, static_cast<std::uint32_t>(r.id),
                    r.allowed_at_start};
      std::size_t at = n++;
      for (; at > 0 && out[at - 1].first > e.first; --at) out[at] = out[at - 1];
      out[at] = e;
    }
  }
  return out;
}
inline constexpr std::array<value_entry, value_total()> kValueIndex = value_index();

// kValueStart[cp >> 12] is the first range of kValueIndex that ends at or
// after the start of cp's 4 KiB page: category_of scans from there, so that
// it looks at a range or two, not the whole index.
struct value_start_table {
  std::uint8_t at[0x110] = {};
  constexpr value_start_table() {
    std::size_t i = 0;
    for (std::size_t page = 0; page < 0x110; ++page) {
      while (i < kValueIndex.size() && kValueIndex[i].last < (page << 12)) ++i;
      at[page] = static_cast<std::uint8_t>(i);
    }
  }
};
inline constexpr value_start_table kValueStart{};
static_assert(kValueIndex.size() < 256, "kValueStart holds indices of one byte");

// category_of returns the category bit of scalar value cp (0 for none).
// at_start: the character begins at byte 0 of the whole input.
constexpr std::uint32_t category_of(char32_t cp, bool at_start) noexcept {
  if (cp > 0x10FFFF) return 0;
  for (std::size_t i = kValueStart.at[cp >> 12]; i < kValueIndex.size(); ++i) {
    const value_entry& e = kValueIndex[i];
    if (cp < e.first) break;
    if (cp <= e.last) return e.allowed_at_start && at_start ? 0 : e.bit;
  }
  return 0;
}

// lead_categories is the union of the categories of every character whose
// UTF-8 form starts with byte b (0 for continuation bytes and bytes that
// start nothing): the values each lead starts, by Table 3-7's rows.
constexpr std::uint32_t lead_categories(std::uint8_t b) noexcept {
  char32_t lo = 0, hi = 0;
  if (b < 0x80) {
    lo = hi = b;
  } else if (b >= 0xC2 && b <= 0xDF) {
    lo = static_cast<char32_t>(b & 0x1F) << 6;
    hi = lo + 0x3F;
  } else if (b >= 0xE0 && b <= 0xEF) {
    lo = static_cast<char32_t>(b & 0x0F) << 12;
    hi = b == 0xED ? 0xD7FF : lo + 0xFFF;
    if (b == 0xE0) lo = 0x800;
  } else if (b >= 0xF0 && b <= 0xF4) {
    lo = static_cast<char32_t>(b & 0x07) << 18;
    hi = b == 0xF4 ? 0x10FFFF : lo + 0x3FFFF;
    if (b == 0xF0) lo = 0x10000;
  } else {
    return 0;
  }
  std::uint32_t out = 0;
  for (const value_entry& e : kValueIndex) {
    if (e.first <= hi && e.last >= lo) out |= e.bit;
  }
  return out;
}

// --- for the compile-time checks of what is derived by hand ------------------

// encode_value writes scalar value cp as UTF-8 to s and returns its length;
// the bytes after it are an ASCII space.
constexpr std::size_t encode_value(char32_t cp, std::uint8_t (&s)[4]) noexcept {
  s[0] = s[1] = s[2] = s[3] = 0x20;
  if (cp < 0x80) {
    s[0] = static_cast<std::uint8_t>(cp);
    return 1;
  }
  const std::size_t len = cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  for (std::size_t k = len - 1; k > 0; --k) {
    s[k] = static_cast<std::uint8_t>(0x80 | (cp & 0x3F));
    cp >>= 6;
  }
  s[0] = static_cast<std::uint8_t>((0xF00u >> len) | cp);
  return len;
}

// every_value says whether ok(s, len) holds for the UTF-8 form s[0..len) of
// every value of row r; of four-byte values, one per run of 64 that share
// their first three bytes (no prefilter looks further).
template <class Check>
constexpr bool every_value(const category_row& r, Check ok) {
  for (std::size_t k = 0; k < r.value_count; ++k) {
    for (char32_t cp = r.values[k].first; cp <= r.values[k].last;
         cp = cp < 0x10000 ? cp + 1 : (cp | 0x3F) + 1) {
      std::uint8_t s[4] = {};
      const std::size_t len = encode_value(cp, s);
      if (!ok(s, len)) return false;
    }
  }
  return true;
}

}  // namespace utf8guard::detail

#endif  // UTF8GUARD_CORE_CATEGORIES_HPP
