// messages_test.cpp - describe, explain for percent results, truncate and
// policy_parse, on every kernel, against hand-worked answers and the oracle
// (tests/reference/message_reference.hpp):
//   - describe of every error of random inputs, with and without hints, under
//     random policies, from the whole input and from the windows a stream
//     keeps (the bytes it must keep and no more), C++ and C alike;
//   - the same for percent-encoded input, and explain of a encoded_result
//     against the hint of the decoded bytes;
//   - snprintf's sizes: every capacity from 0 to the length;
//   - truncate at every length of random inputs and of every input of up to
//     2 bytes, both modes, C++ and C; the oracle's cuts from one walk
//     (reference::truncations, which the fuzz target takes) equal its cuts
//     one by one;
//   - policy_parse of hand-worked texts and of random lists of names.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "hex.hpp"
#include "kernels.hpp"
#include "message_reference.hpp"
#include "percent_support.hpp"
#include "random_inputs.hpp"
#include "results.hpp"

namespace utf8guard::testing {
namespace {

class Messages : public EveryKernel {};

// The windows a stream may hand describe: from exactly the bytes it must
// keep (UTF8GUARD_DESCRIBE_BEHIND before the error, _AHEAD from it, times
// unit for percent input) to the whole input.
struct window {
  std::string_view bytes;
  std::size_t base;
};

std::vector<window> windows_around(std::string_view in, std::size_t offset, std::size_t behind,
                                   std::size_t ahead) {
  std::vector<window> out{{in, 0}};
  for (std::size_t extra : {std::size_t{0}, std::size_t{1}, std::size_t{5}}) {
    const std::size_t from = offset < behind + extra ? 0 : offset - behind - extra;
    const std::size_t to = std::min(in.size(), offset + ahead + extra);
    out.push_back({in.substr(from, to - from), from});
  }
  return out;
}

std::string c_describe(std::string_view in, std::size_t base, const result& r, unsigned flags) {
  char out[UTF8GUARD_DESCRIBE_MAX];
  const utf8guard_result c{static_cast<utf8guard_error>(r.kind), r.offset, r.length,
                           static_cast<utf8guard_category>(r.category), r.code_point};
  const std::size_t n = utf8guard_describe(in.data(), in.size(), base, c, flags, out, sizeof out);
  EXPECT_LT(n, sizeof out);
  return std::string(out, n);
}

TEST_P(Messages, HandWorkedTexts) {
  const std::string in = "GET /a\xC0\xAF../b\xED\xA0\xBD\xED\xB8\x80 \xE2\x80\xAE\xE2\x82";
  const result overlong = validate(in);
  EXPECT_EQ(describe(in, overlong), "overlong at byte 6 (C0 AF 2E 2E)");
  EXPECT_EQ(describe(in, overlong, describe_hint),
            "overlong at byte 6 (C0 AF 2E 2E) [overlong_form U+002F]");
  const std::string cesu = in.substr(11);
  EXPECT_EQ(describe(cesu, validate(cesu), describe_hint),
            "surrogate at byte 1 (ED A0 BD ED) [cesu8_pair U+1F600]");
  const std::string bidi = in.substr(18, 5);
  EXPECT_EQ(describe(bidi, validate(bidi, policy::source()), describe_hint),
            "disallowed bidi U+202E at byte 1 (E2 80 AE E2)");
  const std::string tail = in.substr(22);
  EXPECT_EQ(describe(tail, validate(tail)), "incomplete at byte 0 (E2 82)");
  EXPECT_EQ(describe("\xFE\xFF"
                     "a",
                     validate("\xFE\xFF"
                              "a"),
                     describe_hint),
            "invalid_byte at byte 0 (FE FF 61) [utf16_bom]");
  // Not at byte 0 of the input: no utf16_bom, also from a window whose first
  // byte it is.
  EXPECT_EQ(describe("\xFE\xFF", result{error::invalid_byte, 9, 1}, describe_hint, 9),
            "invalid_byte at byte 9 (FE FF)");
  EXPECT_EQ(describe("abc", result{}), "none");
  EXPECT_EQ(describe("abc", result{error::invalid_argument, 7, 0}), "invalid_argument at byte 7");
  // A large offset and a beyond_unicode value with more than 6 digits.
  EXPECT_EQ(describe("\xFD\xBF\xBF\xBF\xBF\xBF", result{error::invalid_byte, 1ull << 40, 1},
                     describe_hint, 1ull << 40),
            "invalid_byte at byte 1099511627776 (FD BF BF BF) [beyond_unicode U+7FFFFFFF]");
  EXPECT_THROW((void)describe(std::string_view(nullptr, 1), overlong), std::invalid_argument);
}

TEST_P(Messages, DescribeEqualsTheOracleFromEveryWindow) {
  input_maker make(0x6d657373);
  for (int round = 0; round < 300; ++round) {
    const std::string in = make.error_dense(12);
    const policy p = policy::from_bits(static_cast<utf8guard_policy>(make.below(1u << 9)));
    for (const reference::error& e : reference::all_errors(in, denied_names(p))) {
      const result r = from_reference(e);
      for (bool hints : {false, true}) {
        const std::string want = reference::message(in, e, hints);
        const unsigned flags = hints ? describe_hint : 0;
        for (const window& w :
             windows_around(in, e.offset, UTF8GUARD_DESCRIBE_BEHIND, UTF8GUARD_DESCRIBE_AHEAD)) {
          ASSERT_EQ(describe(w.bytes, r, flags, w.base), want) << hex(in) << " from " << w.base;
          ASSERT_EQ(c_describe(w.bytes, w.base, r, flags), want) << hex(in) << " from " << w.base;
        }
      }
    }
  }
}

TEST_P(Messages, PercentDescribeAndExplainEqualTheOracle) {
  input_maker make(0x70637421);
  for (int round = 0; round < 300; ++round) {
    std::string in;
    for (char c : make.error_dense(8)) {
      if (make.below(3) != 0) {
        char esc[4];
        std::snprintf(esc, sizeof esc, make.below(2) ? "%%%02X" : "%%%02x",
                      static_cast<unsigned>(static_cast<unsigned char>(c)));
        in += esc;
      } else {
        in += c;
      }
      if (make.below(16) == 0) in += make.below(2) ? "%2" : "%25";
    }
    const policy p = policy::from_bits(static_cast<utf8guard_policy>(make.below(1u << 11)));
    for (const reference::percent::error& e : reference::percent::all_errors(in, denied_names(p))) {
      const encoded_result r = from_reference(e);
      for (bool hints : {false, true}) {
        const std::string want = reference::message(in, e, hints);
        for (const window& w : windows_around(in, e.offset, UTF8GUARD_DESCRIBE_PERCENT_BEHIND,
                                              UTF8GUARD_DESCRIBE_PERCENT_AHEAD)) {
          ASSERT_EQ(percent::describe(w.bytes, r, hints ? describe_hint : 0, w.base), want)
              << in << " from " << w.base;
        }
      }
      const std::string decoded = reference::percent::decode(in).bytes;
      const hint h = percent::explain(in, r);
      const reference::hint want = reference::explain(decoded, e.decoded_offset);
      if (e.kind == "disallowed") continue;
      ASSERT_EQ(to_string(h.kind), want.name.empty() ? "none" : want.name) << in;
      ASSERT_EQ(h.value, want.value) << in;
      ASSERT_EQ(h.has_value, want.has_value) << in;
    }
  }
}

TEST_P(Messages, SizesAsSnprintfReportsThem) {
  const std::string in = "ab\xED\xA0\xBD\xED\xB8\x80";
  const result r = validate(in);
  const std::string want = describe(in, r, describe_hint);
  for (std::size_t cap = 0; cap <= want.size() + 1; ++cap) {
    std::string out(cap + 8, '#');
    EXPECT_EQ(describe(in, r, cap == 0 ? nullptr : out.data(), cap, describe_hint), want.size());
    if (cap != 0) {
      const std::size_t kept = std::min(cap - 1, want.size());
      EXPECT_EQ(out.substr(0, kept), want.substr(0, kept)) << cap;
      EXPECT_EQ(out[kept], '\0') << cap;
    }
    EXPECT_EQ(out.substr(cap), std::string(8, '#')) << "wrote past capacity " << cap;
  }
}

void expect_truncate(std::string_view in, std::size_t max) {
  for (bool keep : {false, true}) {
    const auto mode = keep ? truncate_mode::keep_ill_formed : truncate_mode::well_formed;
    const std::size_t want = reference::truncate(in, max, keep);
    const std::string_view got = truncate(in, max, mode);
    ASSERT_EQ(got.data(), in.data());
    ASSERT_EQ(got.size(), want) << hex(in) << " max " << max << (keep ? " keep" : "");
    ASSERT_EQ(
        utf8guard_truncate(in.data(), in.size(), max, static_cast<utf8guard_truncate_mode>(mode)),
        want);
  }
}

TEST_P(Messages, TruncateEqualsTheOracleAtEveryLength) {
  for (unsigned v = 0; v < 0x10000; ++v) {
    const char two[2] = {static_cast<char>(v >> 8), static_cast<char>(v)};
    for (std::size_t max = 0; max <= 3; ++max) expect_truncate({two, 2}, max);
  }
  input_maker make(0x74727563);
  for (int round = 0; round < 400; ++round) {
    const std::string in = make.error_dense(10);
    for (std::size_t max = 0; max <= in.size() + 1; ++max) expect_truncate(in, max);
  }
  // Whole texts: the prefix never splits a character, so it sanitizes to a
  // prefix of the sanitized input.
  const std::string text = "na\xC3\xAFve \xE2\x82\xAC \xF0\x9F\x98\x80 \xC0";
  for (std::size_t max = 0; max <= text.size(); ++max) {
    const std::string cut(truncate(text, max, truncate_mode::keep_ill_formed));
    EXPECT_EQ(sanitize(text).compare(0, sanitize(cut).size(), sanitize(cut)), 0) << max;
    EXPECT_TRUE(is_valid(truncate(text, max)));
  }
  EXPECT_EQ(truncate(std::string_view(nullptr, 3), 2).size(), 0u);
  EXPECT_EQ(truncate("abc", 2, static_cast<truncate_mode>(9)).size(), 0u);
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(Messages);

// The fuzz target messages takes the oracle's cuts at every length from one
// walk (reference::truncations): they are truncate's, length by length.
TEST(TruncateOracle, OneWalkEqualsEveryCut) {
  input_maker make(0x7472756e);
  for (int round = 0; round < 400; ++round) {
    const std::string in = round == 0 ? std::string() : make.error_dense(10);
    for (bool keep : {false, true}) {
      const std::vector<std::size_t> all = reference::truncations(in, keep);
      ASSERT_EQ(all.size(), in.size() + 1);
      for (std::size_t max = 0; max <= in.size() + 1; ++max) {
        ASSERT_EQ(all[std::min(max, in.size())], reference::truncate(in, max, keep))
            << hex(in) << " max " << max << (keep ? " keep" : "");
      }
    }
  }
}

TEST(PolicyParse, HandWorkedTexts) {
  const auto bits = [](std::string_view text) { return policy_parse(text).policy.bits(); };
  EXPECT_EQ(bits("field,-newline"), UTF8GUARD_PROFILE_FIELD & ~UTF8GUARD_CATEGORY_NEWLINE);
  EXPECT_EQ(bits("-newline,field"), UTF8GUARD_PROFILE_FIELD);  // left to right
  EXPECT_EQ(
      bits("url,+private_use,-bad_escape"),
      (UTF8GUARD_PROFILE_URL | UTF8GUARD_CATEGORY_PRIVATE_USE) & ~UTF8GUARD_CATEGORY_BAD_ESCAPE);
  EXPECT_EQ(bits("source,json"), UTF8GUARD_PROFILE_SOURCE | UTF8GUARD_PROFILE_JSON);
  EXPECT_EQ(bits(""), 0u);
  EXPECT_EQ(bits("strict"), 0u);
  EXPECT_EQ(bits("field,-field"), 0u);
  EXPECT_TRUE(policy_parse("").ok);
  struct bad {
    std::string_view text;
    std::size_t offset, length;
  };
  for (const bad& b : {bad{"nul,,bidi", 4, 0}, bad{",nul", 0, 0}, bad{"nul,", 4, 0},
                       bad{"nul, bidi", 4, 5}, bad{"-", 0, 1}, bad{"+-nul", 0, 5}, bad{"NUL", 0, 3},
                       bad{"field,-newlines", 6, 9}, bad{"none", 0, 4}}) {
    const policy_parse_result r = policy_parse(b.text);
    EXPECT_FALSE(r.ok) << b.text;
    EXPECT_EQ(r.error_offset, b.offset) << b.text;
    EXPECT_EQ(r.error_length, b.length) << b.text;
  }
  EXPECT_FALSE(policy_parse(std::string_view(nullptr, 2)).ok);
}

// Random lists of names, each added or removed, against a fold written from
// the categories' bits by hand.
TEST(PolicyParse, RandomListsEqualTheirFold) {
  struct named {
    std::string_view name;
    utf8guard_policy bits;
  };
  std::vector<named> names{{"strict", UTF8GUARD_PROFILE_STRICT},
                           {"source", UTF8GUARD_PROFILE_SOURCE},
                           {"field", UTF8GUARD_PROFILE_FIELD},
                           {"json", UTF8GUARD_PROFILE_JSON},
                           {"url", UTF8GUARD_PROFILE_URL}};
  for (const auto& [name, c] : kCategoryNames)
    names.push_back({name, static_cast<utf8guard_policy>(c)});
  input_maker make(0x706f6c69);
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    utf8guard_policy want = 0;
    const std::size_t items = make.below(6);
    for (std::size_t k = 0; k < items; ++k) {
      const named& n = names[make.below(names.size())];
      const std::size_t sign = make.below(3);
      if (k != 0) text += ',';
      text += sign == 0 ? "-" : sign == 1 ? "+" : "";
      text += n.name;
      want = sign == 0 ? want & ~n.bits : want | n.bits;
    }
    const policy_parse_result r = policy_parse(text);
    ASSERT_TRUE(r.ok) << text;
    ASSERT_EQ(r.policy.bits(), want) << text;
    utf8guard_policy c = 0;
    ASSERT_TRUE(utf8guard_policy_parse(text.data(), text.size(), &c, nullptr, nullptr));
    ASSERT_EQ(c, want) << text;
  }
}

}  // namespace
}  // namespace utf8guard::testing
