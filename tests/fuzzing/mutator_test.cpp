// mutator_test.cpp - the UTF-8-aware mutator (fuzz.h): deterministic for a
// seed, never past max_size, edits at character boundaries, and every hostile
// form of the issue produced. The expected forms are written here from the
// standard (Table 3-7, RFC 2279), not taken from the mutator's tables.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "utf8guard/fuzz.h"
#include "utf8guard/fuzz.hpp"
#include "utf8guard/utf8guard.hpp"

namespace {

using namespace std::string_view_literals;

// A valid input with characters of every length and every delimiter.
constexpr std::string_view kSeed =
    "GET /a/b.c?q=\"x\" 'y' <z> 100% caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \\n"sv;

struct mutation {
  std::string out;
  std::string what;
};

mutation mutate(std::string_view in, unsigned seed, std::size_t max_size = 256,
                utf8guard_fuzz_fallback fallback = nullptr) {
  std::string buf(in);
  buf.resize(std::max(max_size, in.size()));
  const char* what = nullptr;
  const std::size_t n = utf8guard_fuzz_mutate_ex(reinterpret_cast<std::uint8_t*>(buf.data()),
                                                 in.size(), max_size, seed, fallback, &what);
  EXPECT_LE(n, max_size);
  buf.resize(n);
  return {buf, what == nullptr ? "" : what};
}

bool contains(std::string_view hay, std::string_view needle) {
  return hay.find(needle) != std::string_view::npos;
}

// overlong writes c in exactly len bytes of the UTF-8 bit pattern (Table 3-7's
// layout, extended by RFC 2279), written out by hand for 2, 3 and 4 bytes.
std::string overlong(unsigned char c, int len) {
  const auto hi = static_cast<char>(0x80 | (c >> 6));
  const auto lo = static_cast<char>(0x80 | (c & 0x3F));
  switch (len) {
    case 2: return {static_cast<char>(0xC0 | (c >> 6)), lo};
    case 3: return {'\xE0', hi, lo};
    default: return {'\xF0', '\x80', hi, lo};
  }
}

constexpr unsigned char kDelimiters[] = {'/', '.', '\\', '"', '\'', '<', '>', '%', 0};

TEST(FuzzMutator, SameSeedSameOutput) {
  for (unsigned seed = 0; seed < 2000; ++seed) {
    const mutation a = mutate(kSeed, seed);
    const mutation b = mutate(kSeed, seed);
    ASSERT_EQ(a.out, b.out) << "seed " << seed;
    ASSERT_EQ(a.what, b.what) << "seed " << seed;
  }
  // The C++ entry point is the same mutator.
  std::string buf(kSeed);
  buf.resize(256);
  const std::size_t n =
      utf8guard::fuzz::mutate(reinterpret_cast<std::uint8_t*>(buf.data()), kSeed.size(), 256, 7);
  EXPECT_EQ(buf.substr(0, n), mutate(kSeed, 7).out);
}

TEST(FuzzMutator, SeedsDiffer) {
  std::set<std::string> outputs;
  for (unsigned seed = 0; seed < 1000; ++seed) outputs.insert(mutate(kSeed, seed).out);
  EXPECT_GT(outputs.size(), 700u);
}

TEST(FuzzMutator, StaysWithinMaxSize) {
  // No room at all: a mutation may only keep or shrink the input.
  for (unsigned seed = 0; seed < 2000; ++seed) {
    ASSERT_LE(mutate(kSeed, seed, kSeed.size()).out.size(), kSeed.size());
    ASSERT_LE(mutate("ab", seed, 3).out.size(), 3u);
  }
  // Empty input, and nothing at all.
  std::set<std::string> from_empty;
  for (unsigned seed = 0; seed < 200; ++seed) from_empty.insert(mutate("", seed, 16).out);
  EXPECT_GT(from_empty.size(), 20u);
  EXPECT_EQ(utf8guard_fuzz_mutate(nullptr, 0, 0, 1), 0u);
  EXPECT_EQ(utf8guard_fuzz_mutate(nullptr, 5, 9, 1), 0u);  // (NULL, n) is the empty input
}

// On valid input, every mutation but the byte-level ones either keeps it
// valid (a whole character inserted, deleted, duplicated, swapped, or a
// well-formed hostile character) or makes its first error start at a
// character boundary of the original, with everything before it unchanged.
TEST(FuzzMutator, EditsAtCharacterBoundaries) {
  const std::set<std::string> keep_valid = {"insert_code_point", "delete_character",
                                            "duplicate_character", "swap_characters"};
  std::map<std::string, int> seen;
  for (unsigned seed = 0; seed < 20000; ++seed) {
    const mutation m = mutate(kSeed, seed);
    if (m.what.rfind("byte_", 0) == 0) continue;
    ++seen[m.what];
    const utf8guard::result r = utf8guard::validate(m.out);
    if (keep_valid.count(m.what) != 0) {
      ASSERT_TRUE(r.ok()) << m.what << " seed " << seed;
      continue;
    }
    if (r.ok()) continue;
    ASSERT_LE(r.offset, kSeed.size()) << m.what << " seed " << seed;
    ASSERT_EQ(m.out.substr(0, r.offset), kSeed.substr(0, r.offset)) << m.what << " seed " << seed;
    const bool boundary =
        r.offset == kSeed.size() || (static_cast<unsigned char>(kSeed[r.offset]) & 0xC0) != 0x80;
    ASSERT_TRUE(boundary) << m.what << " seed " << seed << " error at " << r.offset;
  }
  for (const auto& name : keep_valid) EXPECT_GT(seen[name], 100) << name;
  EXPECT_GT(seen["reencode_overlong"], 100);
}

// reencode_overlong writes one character of the input in more bytes: the
// output's first error is an overlong whose bits carry that character.
TEST(FuzzMutator, ReencodesAsOverlong) {
  int checked = 0;
  for (unsigned seed = 0; seed < 5000; ++seed) {
    const mutation m = mutate("/", seed);
    if (m.what != "reencode_overlong") continue;
    ++checked;
    EXPECT_TRUE(m.out == overlong('/', 2) || m.out == overlong('/', 3) || m.out == overlong('/', 4))
        << seed;
  }
  EXPECT_GT(checked, 20);
}

// Each family of the issue, recognised in the output by a test written from
// the standard: family name -> does this output carry the form?
bool has_overlong_delimiter(std::string_view out) {
  for (unsigned char c : kDelimiters) {
    for (int len = 2; len <= 4; ++len) {
      if (contains(out, overlong(c, len))) return true;
    }
  }
  return false;
}

bool has_byte_between(std::string_view out, unsigned char lo, unsigned char hi) {
  return std::any_of(out.begin(), out.end(), [&](char c) {
    const auto b = static_cast<unsigned char>(c);
    return b >= lo && b <= hi;
  });
}

// a lead ED with a second byte A0..BF: an encoded surrogate (Table 3-7 row 5).
bool has_surrogate(std::string_view out) {
  for (std::size_t i = 0; i + 2 < out.size(); ++i) {
    const auto b1 = static_cast<unsigned char>(out[i + 1]);
    if (static_cast<unsigned char>(out[i]) == 0xED && b1 >= 0xA0) return true;
  }
  return false;
}

bool has_cesu8_pair(std::string_view out) {
  for (std::size_t i = 0; i + 5 < out.size(); ++i) {
    const auto u = [&](std::size_t k) { return static_cast<unsigned char>(out[i + k]); };
    if (u(0) == 0xED && u(1) >= 0xA0 && u(1) <= 0xAF && u(3) == 0xED && u(4) >= 0xB0) return true;
  }
  return false;
}

bool has_above_10ffff(std::string_view out) {
  for (std::size_t i = 0; i + 3 < out.size(); ++i) {
    const auto b0 = static_cast<unsigned char>(out[i]);
    const auto b1 = static_cast<unsigned char>(out[i + 1]);
    if ((b0 == 0xF4 && b1 >= 0x90 && b1 <= 0xBF) || (b0 >= 0xF5 && b0 <= 0xF7)) return true;
  }
  return false;
}

// decoded_has: a well-formed character satisfying pred at byte `from` or later.
template <class Pred>
bool decoded_has(std::string_view out, Pred pred, std::size_t from = 0) {
  std::size_t i = 0;
  while (i < out.size()) {
    const utf8guard::decoded d = utf8guard::decode_one(out.substr(i));
    if (d.kind == utf8guard::error::none && i >= from && pred(d.value)) return true;
    i += d.length == 0 ? 1 : d.length;
  }
  return false;
}

bool has_truncation_before_delimiter(std::string_view out) {
  const utf8guard::result r = utf8guard::validate(out);
  if (r.kind != utf8guard::error::truncated) return false;
  const std::size_t next = r.offset + r.length;
  return next < out.size() &&
         std::find(std::begin(kDelimiters), std::end(kDelimiters),
                   static_cast<unsigned char>(out[next])) != std::end(kDelimiters);
}

bool has_table37_edge(std::string_view out) {
  // The first and last value of each row of Table 3-7 ...
  static constexpr char32_t kRowEnds[] = {0x00,    0x7F,    0x80,    0x7FF,   0x800,    0xFFF,
                                          0x1000,  0xCFFF,  0xD000,  0xD7FF,  0xE000,   0xFFFF,
                                          0x10000, 0x3FFFF, 0x40000, 0xFFFFF, 0x100000, 0x10FFFF};
  if (decoded_has(out, [](char32_t v) {
        return std::find(std::begin(kRowEnds), std::end(kRowEnds), v) != std::end(kRowEnds);
      })) {
    return true;
  }
  // ... or a lead with the second byte one step outside its row's range.
  static const std::string_view kOutside[] = {"\xE0\x9F"sv, "\xF0\x8F"sv, "\xF4\x90"sv,
                                              "\xC1\xBF"sv, "\xC2\xC0"sv, "\xED\xA0"sv};
  return std::any_of(std::begin(kOutside), std::end(kOutside),
                     [&](std::string_view e) { return contains(out, e); });
}

TEST(FuzzMutator, ProducesEveryHostileForm) {
  using check = bool (*)(std::string_view);
  const std::map<std::string, check> families = {
      {"overlong_delimiter", has_overlong_delimiter},
      {"modified_utf8_nul", [](std::string_view o) { return contains(o, "\xC0\x80"sv); }},
      {"cesu8_pair", has_cesu8_pair},
      {"lone_surrogate", has_surrogate},
      {"truncated_before_delimiter", has_truncation_before_delimiter},
      {"invalid_byte", [](std::string_view o) { return has_byte_between(o, 0xF5, 0xFF); }},
      {"above_10ffff", has_above_10ffff},
      {"five_six_byte", [](std::string_view o) { return has_byte_between(o, 0xF8, 0xFD); }},
      {"noncharacter",
       [](std::string_view o) {
         return decoded_has(
             o, [](char32_t v) { return (v >= 0xFDD0 && v <= 0xFDEF) || (v & 0xFFFE) == 0xFFFE; });
       }},
      {"bidi_control",
       [](std::string_view o) {
         return decoded_has(o, [](char32_t v) {
           return v == 0x061C || v == 0x200E || v == 0x200F || (v >= 0x202A && v <= 0x202E) ||
                  (v >= 0x2066 && v <= 0x2069);
         });
       }},
      {"c1_control",
       [](std::string_view o) {
         return decoded_has(o, [](char32_t v) { return v >= 0x80 && v <= 0x9F; });
       }},
      {"bom_mid_text",
       // Past byte 0, where a BOM would be a signature.
       [](std::string_view o) {
         return decoded_has(
             o, [](char32_t v) { return v == 0xFEFF; }, 1);
       }},
      {"table37_boundary", has_table37_edge},
  };
  // ASCII seed text with no form of any family in it.
  constexpr std::string_view kPlain = "GET /a/b.c?q=x HTTP/1.1"sv;
  std::map<std::string, int> produced;
  std::set<std::string> overlongs, lengths_5_6;
  for (unsigned seed = 0; seed < 20000; ++seed) {
    const mutation m = mutate(kPlain, seed);
    const auto f = families.find(m.what);
    if (f == families.end()) continue;
    ASSERT_TRUE(f->second(m.out)) << m.what << " seed " << seed;
    ++produced[m.what];
    if (m.what == "overlong_delimiter") {
      for (unsigned char c : kDelimiters) {
        for (int len = 2; len <= 4; ++len) {
          if (contains(m.out, overlong(c, len))) {
            overlongs.insert(std::to_string(c) + "/" + std::to_string(len));
          }
        }
      }
    }
    if (m.what == "five_six_byte") {
      lengths_5_6.insert(has_byte_between(m.out, 0xFC, 0xFD) ? "6" : "5");
    }
  }
  for (const auto& [name, fn] : families) EXPECT_GT(produced[name], 20) << name;
  EXPECT_EQ(overlongs.size(), 27u) << "every delimiter in 2, 3 and 4 bytes";
  EXPECT_EQ(lengths_5_6.size(), 2u);
}

// The fallback (libFuzzer's LLVMFuzzerMutate) gets a share of the calls.
std::size_t g_fallback_calls = 0;
std::size_t count_and_append(std::uint8_t* data, std::size_t size, std::size_t max_size) {
  ++g_fallback_calls;
  if (size < max_size) data[size++] = 'F';
  return size;
}

TEST(FuzzMutator, CallsTheEngineFallback) {
  g_fallback_calls = 0;
  int engine = 0;
  for (unsigned seed = 0; seed < 1000; ++seed) {
    const mutation m = mutate(kSeed, seed, 256, count_and_append);
    if (m.what == "engine") {
      ++engine;
      EXPECT_EQ(m.out, std::string(kSeed) + "F");
    }
    EXPECT_NE(m.what.rfind("byte_", 0), 0u) << "own byte edits only without a fallback";
  }
  EXPECT_EQ(static_cast<std::size_t>(engine), g_fallback_calls);
  EXPECT_GT(engine, 50);
  EXPECT_LT(engine, 200);
}

}  // namespace
