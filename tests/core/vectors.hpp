// vectors.hpp - hand-written test vectors: Table 3-7 row by row (first and
// last valid sequence, the bytes just outside each range on both sides),
// every error kind, and the examples of docs/design.md and the README. Each
// expected kind, offset and length was written from docs/design.md, not computed
// by the library or the oracle; vectors_test.cpp checks both against them.
#ifndef UTF8GUARD_TESTS_CORE_VECTORS_HPP
#define UTF8GUARD_TESTS_CORE_VECTORS_HPP

#include <string_view>

#include "utf8guard/utf8guard.hpp"

namespace utf8guard::testing {

struct test_vector {
  std::string_view group;  // the Table 3-7 row or the topic
  std::string_view bytes;
  error kind;  // of the first error, none for well-formed input
  std::size_t offset;
  std::size_t length;
};

using namespace std::string_view_literals;
using E = error;

// clang-format off
inline constexpr test_vector kVectors[] = {
    // ---- U+0000..U+007F: 00..7F ------------------------------------------
    {"row 00..7F", "\x00"sv, E::none, 0, 0},                       // U+0000 (first)
    {"row 00..7F", "\x7F"sv, E::none, 0, 0},                       // U+007F (last)
    {"row 00..7F", "\x80"sv, E::unexpected_continuation, 0, 1},    // just above
    {"row 00..7F", "a\x7F\x80"sv, E::unexpected_continuation, 2, 1},

    // ---- U+0080..U+07FF: C2..DF 80..BF -----------------------------------
    {"row C2..DF", "\xC2\x80"sv, E::none, 0, 0},                   // U+0080 (first)
    {"row C2..DF", "\xDF\xBF"sv, E::none, 0, 0},                   // U+07FF (last)
    {"row C2..DF", "\xC1\xBF"sv, E::overlong, 0, 1},               // lead below: U+007F overlong
    {"row C2..DF", "\xC0\x80"sv, E::overlong, 0, 1},               // Modified UTF-8 NUL
    {"row C2..DF", "\xC2\x7F"sv, E::truncated, 0, 1},              // byte 2 below
    {"row C2..DF", "\xC2\xC0"sv, E::truncated, 0, 1},              // byte 2 above
    {"row C2..DF", "\xDF\x7F"sv, E::truncated, 0, 1},
    {"row C2..DF", "\xDF\xC0"sv, E::truncated, 0, 1},
    {"row C2..DF", "\xC2"sv, E::incomplete, 0, 1},
    {"row C2..DF", "\xDF"sv, E::incomplete, 0, 1},

    // ---- U+0800..U+0FFF: E0 A0..BF 80..BF --------------------------------
    {"row E0", "\xE0\xA0\x80"sv, E::none, 0, 0},                   // U+0800 (first)
    {"row E0", "\xE0\xBF\xBF"sv, E::none, 0, 0},                   // U+0FFF (last)
    {"row E0", "\xE0\x9F\xBF"sv, E::overlong, 0, 1},               // byte 2 below: U+07FF overlong
    {"row E0", "\xE0\x80\x80"sv, E::overlong, 0, 1},               // U+0000 overlong
    {"row E0", "\xE0\xC0\x80"sv, E::truncated, 0, 1},              // byte 2 above
    {"row E0", "\xE0\x7F"sv, E::truncated, 0, 1},                  // byte 2 is ASCII
    {"row E0", "\xE0\xA0\x7F"sv, E::truncated, 0, 2},              // byte 3 below
    {"row E0", "\xE0\xBF\xC0"sv, E::truncated, 0, 2},              // byte 3 above
    {"row E0", "\xDF\xA0\x80"sv, E::unexpected_continuation, 2, 1}, // lead below: DF A0 is U+07E0
    {"row E0", "\xE0"sv, E::incomplete, 0, 1},
    {"row E0", "\xE0\xA0"sv, E::incomplete, 0, 2},
    {"row E0", "\xE0\x9F"sv, E::overlong, 0, 1},                   // decided before the end

    // ---- U+1000..U+CFFF: E1..EC 80..BF 80..BF ----------------------------
    {"row E1..EC", "\xE1\x80\x80"sv, E::none, 0, 0},               // U+1000 (first)
    {"row E1..EC", "\xEC\xBF\xBF"sv, E::none, 0, 0},               // U+CFFF (last)
    {"row E1..EC", "\xE1\x7F\x80"sv, E::truncated, 0, 1},          // byte 2 below
    {"row E1..EC", "\xEC\xC0\x80"sv, E::truncated, 0, 1},          // byte 2 above
    {"row E1..EC", "\xE1\x80\x7F"sv, E::truncated, 0, 2},          // byte 3 below
    {"row E1..EC", "\xEC\xBF\xC0"sv, E::truncated, 0, 2},          // byte 3 above
    {"row E1..EC", "\xE1\x80"sv, E::incomplete, 0, 2},
    {"row E1..EC", "\xEC"sv, E::incomplete, 0, 1},

    // ---- U+D000..U+D7FF: ED 80..9F 80..BF --------------------------------
    {"row ED", "\xED\x80\x80"sv, E::none, 0, 0},                   // U+D000 (first)
    {"row ED", "\xED\x9F\xBF"sv, E::none, 0, 0},                   // U+D7FF (last)
    {"row ED", "\xED\xA0\x80"sv, E::surrogate, 0, 1},              // byte 2 above: U+D800
    {"row ED", "\xED\xBF\xBF"sv, E::surrogate, 0, 1},              // U+DFFF
    {"row ED", "\xED\x7F\x80"sv, E::truncated, 0, 1},              // byte 2 below
    {"row ED", "\xED\xC0\x80"sv, E::truncated, 0, 1},              // byte 2 not a continuation
    {"row ED", "\xED\x80\x7F"sv, E::truncated, 0, 2},              // byte 3 below
    {"row ED", "\xED\x9F\xC0"sv, E::truncated, 0, 2},              // byte 3 above
    {"row ED", "\xED\x9F"sv, E::incomplete, 0, 2},
    {"row ED", "\xED\xA0"sv, E::surrogate, 0, 1},                  // decided before the end

    // ---- U+E000..U+FFFF: EE..EF 80..BF 80..BF ----------------------------
    {"row EE..EF", "\xEE\x80\x80"sv, E::none, 0, 0},               // U+E000 (first)
    {"row EE..EF", "\xEF\xBF\xBF"sv, E::none, 0, 0},               // U+FFFF (last)
    {"row EE..EF", "\xEF\xBB\xBF"sv, E::none, 0, 0},               // the BOM is data
    {"row EE..EF", "\xEE\x7F\x80"sv, E::truncated, 0, 1},          // byte 2 below
    {"row EE..EF", "\xEF\xC0\x80"sv, E::truncated, 0, 1},          // byte 2 above
    {"row EE..EF", "\xEE\x80\x7F"sv, E::truncated, 0, 2},          // byte 3 below
    {"row EE..EF", "\xEF\xBF\xC0"sv, E::truncated, 0, 2},          // byte 3 above
    {"row EE..EF", "\xEF\xBF"sv, E::incomplete, 0, 2},

    // ---- U+10000..U+3FFFF: F0 90..BF 80..BF 80..BF -----------------------
    {"row F0", "\xF0\x90\x80\x80"sv, E::none, 0, 0},               // U+10000 (first)
    {"row F0", "\xF0\xBF\xBF\xBF"sv, E::none, 0, 0},               // U+3FFFF (last)
    {"row F0", "\xF0\x8F\xBF\xBF"sv, E::overlong, 0, 1},           // byte 2 below: U+FFFF overlong
    {"row F0", "\xF0\x80\x80\x80"sv, E::overlong, 0, 1},
    {"row F0", "\xF0\xC0\x80\x80"sv, E::truncated, 0, 1},          // byte 2 above
    {"row F0", "\xF0\x90\x7F\x80"sv, E::truncated, 0, 2},          // byte 3 below
    {"row F0", "\xF0\xBF\xC0\x80"sv, E::truncated, 0, 2},          // byte 3 above
    {"row F0", "\xF0\x90\x80\x7F"sv, E::truncated, 0, 3},          // byte 4 below
    {"row F0", "\xF0\xBF\xBF\xC0"sv, E::truncated, 0, 3},          // byte 4 above
    {"row F0", "\xEF\x90\x80\x80"sv, E::unexpected_continuation, 3, 1}, // lead below: EF 90 80 is U+F400
    {"row F0", "\xF0"sv, E::incomplete, 0, 1},
    {"row F0", "\xF0\x90"sv, E::incomplete, 0, 2},
    {"row F0", "\xF0\x90\x80"sv, E::incomplete, 0, 3},

    // ---- U+40000..U+FFFFF: F1..F3 80..BF 80..BF 80..BF -------------------
    {"row F1..F3", "\xF1\x80\x80\x80"sv, E::none, 0, 0},           // U+40000 (first)
    {"row F1..F3", "\xF3\xBF\xBF\xBF"sv, E::none, 0, 0},           // U+FFFFF (last)
    {"row F1..F3", "\xF1\x7F\x80\x80"sv, E::truncated, 0, 1},      // byte 2 below
    {"row F1..F3", "\xF3\xC0\x80\x80"sv, E::truncated, 0, 1},      // byte 2 above
    {"row F1..F3", "\xF1\x80\x7F\x80"sv, E::truncated, 0, 2},      // byte 3 below
    {"row F1..F3", "\xF3\xBF\xC0\x80"sv, E::truncated, 0, 2},      // byte 3 above
    {"row F1..F3", "\xF1\x80\x80\x7F"sv, E::truncated, 0, 3},      // byte 4 below
    {"row F1..F3", "\xF3\xBF\xBF\xC0"sv, E::truncated, 0, 3},      // byte 4 above
    {"row F1..F3", "\xF3\xBF\xBF"sv, E::incomplete, 0, 3},

    // ---- U+100000..U+10FFFF: F4 80..8F 80..BF 80..BF ---------------------
    {"row F4", "\xF4\x80\x80\x80"sv, E::none, 0, 0},               // U+100000 (first)
    {"row F4", "\xF4\x8F\xBF\xBF"sv, E::none, 0, 0},               // U+10FFFF (last)
    {"row F4", "\xF4\x90\x80\x80"sv, E::too_large, 0, 1},          // byte 2 above: U+110000
    {"row F4", "\xF4\xBF\xBF\xBF"sv, E::too_large, 0, 1},
    {"row F4", "\xF4\x7F\x80\x80"sv, E::truncated, 0, 1},          // byte 2 below
    {"row F4", "\xF4\x80\x7F\x80"sv, E::truncated, 0, 2},          // byte 3 below
    {"row F4", "\xF4\x8F\xC0\x80"sv, E::truncated, 0, 2},          // byte 3 above
    {"row F4", "\xF4\x80\x80\x7F"sv, E::truncated, 0, 3},          // byte 4 below
    {"row F4", "\xF4\x8F\xBF\xC0"sv, E::truncated, 0, 3},          // byte 4 above
    {"row F4", "\xF5\x80\x80\x80"sv, E::invalid_byte, 0, 1},       // lead above
    {"row F4", "\xF4\x8F\xBF"sv, E::incomplete, 0, 3},
    {"row F4", "\xF4\x90"sv, E::too_large, 0, 1},                  // decided before the end

    // ---- Bytes that never start a sequence -------------------------------
    {"never a lead", "\x80"sv, E::unexpected_continuation, 0, 1},
    {"never a lead", "\xBF"sv, E::unexpected_continuation, 0, 1},
    {"never a lead", "\xC0"sv, E::overlong, 0, 1},
    {"never a lead", "\xC1"sv, E::overlong, 0, 1},
    {"never a lead", "\xF5"sv, E::invalid_byte, 0, 1},
    {"never a lead", "\xF7\xBF\xBF\xBF"sv, E::invalid_byte, 0, 1}, // would be U+1FFFFF
    {"never a lead", "\xF8\x88\x80\x80\x80"sv, E::invalid_byte, 0, 1},    // 5-byte form
    {"never a lead", "\xFC\x84\x80\x80\x80\x80"sv, E::invalid_byte, 0, 1}, // 6-byte form
    {"never a lead", "\xFE"sv, E::invalid_byte, 0, 1},
    {"never a lead", "\xFF"sv, E::invalid_byte, 0, 1},

    // ---- Every kind past offset 0, after characters of each length -------
    {"offsets", "abc\x80"sv, E::unexpected_continuation, 3, 1},
    {"offsets", "\xC3\xA9\xC1\x81"sv, E::overlong, 2, 1},              // e-acute, then C1
    {"offsets", "\xE2\x82\xAC\xED\xBF\xBF"sv, E::surrogate, 3, 1},      // euro, then U+DFFF
    {"offsets", "\xF0\x9F\x98\x80\xF4\x90\x80\x80"sv, E::too_large, 4, 1},
    {"offsets", "xy\xFF"sv, E::invalid_byte, 2, 1},
    {"offsets", "\xE2\x82\xAC\xF0\x9F\x98x"sv, E::truncated, 3, 3},
    {"offsets", "0123456789\xE2\x82"sv, E::incomplete, 10, 2},
    {"offsets", "\xEF\xBF\xBD\xC3"sv, E::incomplete, 3, 1},            // U+FFFD is data

    // ---- docs/design.md and README examples, and well-known attacks -----------
    {"examples", ""sv, E::none, 0, 0},
    {"examples", "\xC0\xAF"sv, E::overlong, 0, 1},                 // docs/design.md's "(C0 AF)"
    {"examples", "..\xC0\xAF..\\winnt"sv, E::overlong, 2, 1},      // README: CVE-2000-0884
    {"examples", "name=\xED\xA0\x80"sv, E::surrogate, 5, 1},       // README: CESU-8 half
    {"examples", "\xED\xA0\xBD\xED\xB2\xA9"sv, E::surrogate, 0, 1}, // CESU-8 pair for U+1F4A9
    {"examples", "caf\xC3\xA9!"sv, E::none, 0, 0},                 // README: the streamed text
    {"examples", "a\xC0\"b"sv, E::overlong, 1, 1},                 // README: the quote survives
    {"examples", "\xEF\xBB\xBFhi\x00"sv, E::none, 0, 0},           // BOM and U+0000 accepted
    {"examples", "\xE2\x82\xAC\xF0\x9F\x98\x80\xC3\xA9"sv, E::none, 0, 0}, // euro, emoji, e-acute
    {"examples", "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"sv, E::truncated, 1, 3},
};
// clang-format on

// A sanitize expectation written by hand: Unicode's own example of the
// maximal-subpart rule (Table 3-8) and docs/design.md/README cases.
struct sanitize_vector {
  std::string_view in;
  std::string_view out;
};

inline constexpr std::string_view kFFFD = "\xEF\xBF\xBD"sv;

// clang-format off
inline constexpr sanitize_vector kSanitizeVectors[] = {
    // Unicode 15, Table 3-8: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64 becomes
    // a FFFD FFFD FFFD b FFFD c FFFD FFFD d.
    {"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"sv,
     "a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c\xEF\xBF\xBD\xEF\xBF\xBD" "d"sv},
    {"a\xC0\"b"sv, "a\xEF\xBF\xBD\"b"sv},                          // README
    {"\xC0\xAF"sv, "\xEF\xBF\xBD\xEF\xBF\xBD"sv},                  // C0 and AF: two subparts
    {"\xED\xA0\x80"sv, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"sv},  // surrogate: 3 subparts
    {"\xF4\x90\x80\x80"sv, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"sv},
    {"\xE0\x80\x80"sv, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"sv},
    {"\xF0\x90\x80"sv, "\xEF\xBF\xBD"sv},                          // one incomplete subpart
    {"\xF0\x90\x80x"sv, "\xEF\xBF\xBDx"sv},                        // one truncated subpart
    {"\xE1\x80\xE1\x80"sv, "\xEF\xBF\xBD\xEF\xBF\xBD"sv},
    {"\xF8\x88\x80\x80\x80"sv, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"sv},
    {"\xEF\xBB\xBFok"sv, "\xEF\xBB\xBFok"sv},                      // a BOM is never stripped
    {"\x00"sv, "\x00"sv},
    {""sv, ""sv},
};
// clang-format on

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_CORE_VECTORS_HPP
