// oracle_test.cpp - the differential oracle (fuzz.h, fuzz.hpp): agreement
// with the hand-written vectors, what a disagreement report says, and each
// tolerance flag forgiving its difference and nothing else.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "utf8guard/fuzz.h"
#include "utf8guard/fuzz.hpp"
#include "vectors.hpp"  // tests/core: expected verdicts written from the standard

namespace {

using namespace std::string_view_literals;
using utf8guard::fuzz::oracle;
using utf8guard::fuzz::verdict;
namespace tol = utf8guard::fuzz;

const verdict kAccepts = verdict::accepted();
verdict rejects_at(std::size_t offset) { return verdict::rejected(offset); }
const verdict kRejects = verdict::rejected();

// A strict oracle agrees with exactly the strict verdict of every vector.
TEST(FuzzOracle, StrictAgreesWithTheVectors) {
  const oracle strict("test decoder");
  for (const auto& v : utf8guard::testing::kVectors) {
    SCOPED_TRACE(std::string(v.group));
    if (v.kind == utf8guard::error::none) {
      EXPECT_TRUE(strict.agrees(v.bytes, kAccepts));
      EXPECT_FALSE(strict.agrees(v.bytes, kRejects));
      EXPECT_FALSE(strict.agrees(v.bytes, rejects_at(0)));
      EXPECT_EQ(strict.report(v.bytes, kAccepts), "");
    } else {
      EXPECT_FALSE(strict.agrees(v.bytes, kAccepts));
      EXPECT_TRUE(strict.agrees(v.bytes, kRejects));
      EXPECT_TRUE(strict.agrees(v.bytes, rejects_at(v.offset)));
      EXPECT_FALSE(strict.agrees(v.bytes, rejects_at(v.offset + 1)));
      EXPECT_EQ(strict.report(v.bytes, rejects_at(v.offset)), "");
    }
  }
}

// The report for libxml2's known laxness: the input in hex, both verdicts,
// utf8guard's kind and offset, what a lax decoder read, and a reproducer.
TEST(FuzzOracle, ReportOnAcceptedOverlong) {
  const oracle strict("xmlCheckUTF8");
  const std::string r = strict.report("..\xC0\xAF.."sv, kAccepts);
  EXPECT_NE(r.find("==== utf8guard fuzz oracle: xmlCheckUTF8 disagrees with utf8guard\n"),
            std::string::npos)
      << r;
  EXPECT_NE(r.find("6 bytes: 2E 2E C0 AF 2E 2E\n"), std::string::npos) << r;
  EXPECT_NE(r.find("xmlCheckUTF8: accepts\n"), std::string::npos) << r;
  EXPECT_NE(r.find("utf8guard:    rejects: overlong at byte 2, length 1\n"), std::string::npos)
      << r;
  EXPECT_NE(r.find("byte 2: overlong, length 1 (C0 AF 2E 2E); a lax decoder reads C0 AF as "
                   "overlong U+002F"),
            std::string::npos)
      << r;
  EXPECT_NE(r.find("accepts an ill-formed sequence that no tolerance covers"), std::string::npos)
      << r;
  EXPECT_NE(r.find("printf '\\x2E\\x2E\\xC0\\xAF\\x2E\\x2E' | utf8guard check --all -"),
            std::string::npos)
      << r;
  EXPECT_NE(r.find("tolerated:    nothing (strict)"), std::string::npos) << r;
  EXPECT_NE(r.find("hint:         overlong_form U+002F\n"), std::string::npos) << r;
}

TEST(FuzzOracle, ReportOnAcceptedSurrogateAndCesu8) {
  const oracle strict("d");
  std::string r = strict.report("<a\xED\xA0\x80>"sv, kAccepts);
  EXPECT_NE(r.find("rejects: surrogate at byte 2, length 1"), std::string::npos) << r;
  EXPECT_NE(r.find("reads ED A0 80 as surrogate U+D800"), std::string::npos) << r;
  r = strict.report("\xED\xA0\xBD\xED\xB2\xA9"sv, kAccepts);
  EXPECT_NE(r.find("reads ED A0 BD ED B2 A9 as cesu8_pair U+1F4A9"), std::string::npos) << r;
  r = strict.report("\xF4\x90\x80\x80"sv, kAccepts);
  EXPECT_NE(r.find("too_large at byte 0"), std::string::npos) << r;
  EXPECT_NE(r.find("as above_10ffff U+110000"), std::string::npos) << r;
  r = strict.report("\xF8\x88\x80\x80\x80"sv, kAccepts);
  EXPECT_NE(r.find("invalid_byte at byte 0"), std::string::npos) << r;
  EXPECT_NE(r.find("as five_six_byte U+200000"), std::string::npos) << r;
}

TEST(FuzzOracle, ReportOnRejectedWellFormed) {
  const oracle strict("g_utf8_validate_len");
  const std::string r = strict.report("a\0b"sv, rejects_at(1));
  EXPECT_NE(r.find("g_utf8_validate_len: rejects, first error at byte 1\n"), std::string::npos)
      << r;
  EXPECT_NE(r.find("utf8guard:           accepts\n"), std::string::npos) << r;
  EXPECT_NE(r.find("byte 1: the character U+0000 (00 62)"), std::string::npos) << r;
  EXPECT_NE(r.find("g_utf8_validate_len rejects well-formed input"), std::string::npos) << r;
  // No offset given: still reported, without a disputed byte.
  EXPECT_NE(strict.report("\xEF\xBF\xBF"sv, kRejects).find("rejects (gives no offset)"),
            std::string::npos);
}

TEST(FuzzOracle, ReportOnWrongOffset) {
  const oracle strict("d");
  const std::string r = strict.report("ab\xC3(\xC3\xA9"sv, rejects_at(4));
  EXPECT_NE(r.find("rejects, first error at byte 4\n"), std::string::npos) << r;
  EXPECT_NE(r.find("rejects: truncated at byte 2, length 1"), std::string::npos) << r;
  EXPECT_NE(r.find("disputed:  byte 4: the character U+00E9 (C3 A9)"), std::string::npos) << r;
  EXPECT_NE(r.find("expected:  a stop at byte 2: truncated, length 1 (C3 28 C3 A9)"),
            std::string::npos)
      << r;
}

TEST(FuzzOracle, ReportOnOffsetInsideACharacter) {
  const std::string r = oracle("d").report("caf\xC3\xA9\xC0"sv, rejects_at(4));
  EXPECT_NE(
      r.find("disputed:  byte 4: inside the character U+00E9 that starts at byte 3 (C3 A9 C0)"),
      std::string::npos)
      << r;
}

// Each flag: the decoder may accept the form, or reject it at its first byte;
// without the flag only the strict verdict agrees.
struct tolerance_case {
  const char* name;
  unsigned flag;
  std::string_view input;
  std::size_t form_offset;
};

const tolerance_case kTolerated[] = {
    {"overlong 2", tol::accepts_overlong, "a\xC0\xAF"sv, 1},
    {"overlong 3", tol::accepts_overlong, "a\xE0\x80\xAF"sv, 1},
    {"overlong 4", tol::accepts_overlong, "a\xF0\x80\x80\xAF"sv, 1},
    {"overlong NUL", tol::accepts_overlong, "a\xC0\x80"sv, 1},
    {"modified NUL", tol::accepts_modified_utf8_nul, "a\xC0\x80z"sv, 1},
    {"surrogate", tol::accepts_surrogates, "x\xED\xA0\x80"sv, 1},
    {"low surrogate", tol::accepts_surrogates, "x\xED\xBF\xBF"sv, 1},
    {"pair as surrogates", tol::accepts_surrogates, "\xED\xA0\xBD\xED\xB2\xA9"sv, 0},
    {"cesu8 pair", tol::accepts_cesu8_pairs, "\xED\xA0\xBD\xED\xB2\xA9!"sv, 0},
    {"above F4", tol::accepts_above_10ffff, "\xF4\x90\x80\x80"sv, 0},
    {"above F5", tol::accepts_above_10ffff, "-\xF5\x80\x80\x80"sv, 1},
    {"above F7", tol::accepts_above_10ffff, "\xF7\xBF\xBF\xBF"sv, 0},
    {"5-byte", tol::accepts_5_6_byte, "\xF8\x88\x80\x80\x80"sv, 0},
    {"6-byte", tol::accepts_5_6_byte, "/\xFD\xBF\xBF\xBF\xBF\xBF"sv, 1},
};

TEST(FuzzOracle, EachAcceptsFlagToleratesItsForm) {
  for (const auto& c : kTolerated) {
    SCOPED_TRACE(c.name);
    const oracle lax("d", c.flag);
    EXPECT_TRUE(lax.agrees(c.input, kAccepts));
    EXPECT_TRUE(lax.agrees(c.input, rejects_at(c.form_offset)));
    EXPECT_TRUE(lax.agrees(c.input, kRejects));
    EXPECT_FALSE(lax.agrees(c.input, rejects_at(c.form_offset + 1)));
    const oracle strict("d");
    EXPECT_FALSE(strict.agrees(c.input, kAccepts));
  }
}

// A flag forgives its own form only.
TEST(FuzzOracle, FlagsDoNotOverreach) {
  EXPECT_FALSE(oracle("d", tol::accepts_modified_utf8_nul).agrees("\xC0\xAF"sv, kAccepts));
  EXPECT_FALSE(oracle("d", tol::accepts_cesu8_pairs).agrees("\xED\xA0\x80 "sv, kAccepts));
  EXPECT_FALSE(oracle("d", tol::accepts_cesu8_pairs).agrees("\xED\xB0\x80"sv, kAccepts));
  EXPECT_FALSE(oracle("d", tol::accepts_above_10ffff).agrees("\xF8\x88\x80\x80\x80"sv, kAccepts));
  EXPECT_FALSE(oracle("d", tol::accepts_5_6_byte).agrees("\xF4\x90\x80\x80"sv, kAccepts));
  EXPECT_FALSE(oracle("d", tol::accepts_overlong).agrees("\xED\xA0\x80"sv, kAccepts));
  EXPECT_FALSE(oracle("d", tol::accepts_surrogates).agrees("\xC0\xAF"sv, kAccepts));
  // Every accepts flag at once still refuses what no lax decoder reads.
  const unsigned all = tol::accepts_overlong | tol::accepts_surrogates | tol::accepts_above_10ffff |
                       tol::accepts_5_6_byte;
  for (const std::string_view bad : {"\x80"sv, "\xC3("sv, "\xFE"sv, "\xFF"sv, "\xE2\x82"sv}) {
    EXPECT_FALSE(oracle("d", all).agrees(bad, kAccepts)) << bad.size();
    EXPECT_TRUE(oracle("d", all).agrees(bad, rejects_at(0))) << bad.size();
  }
}

// After a tolerated form, the first real error must still be reported, and a
// decoder may stop at either.
TEST(FuzzOracle, ToleratedFormThenRealError) {
  const oracle lax("d", tol::accepts_overlong);
  constexpr std::string_view in = "\xC0\xAF..\x80"sv;  // overlong '/', then a stray continuation
  EXPECT_FALSE(lax.agrees(in, kAccepts));
  EXPECT_TRUE(lax.agrees(in, rejects_at(0)));
  EXPECT_TRUE(lax.agrees(in, rejects_at(4)));
  EXPECT_FALSE(lax.agrees(in, rejects_at(3)));
  const std::string r = lax.report(in, kAccepts);
  EXPECT_NE(r.find("utf8guard: rejects: overlong at byte 0"), std::string::npos) << r;
  EXPECT_NE(r.find("byte 4: unexpected_continuation, length 1 (80)"), std::string::npos) << r;
  EXPECT_NE(r.find("tolerated: accepts_overlong"), std::string::npos) << r;
}

TEST(FuzzOracle, RejectsFlagsForgiveRefusedCharacters) {
  const oracle glib("g", tol::rejects_nul);
  EXPECT_TRUE(glib.agrees("ab\0c"sv, rejects_at(2)));
  EXPECT_TRUE(glib.agrees("ab\0c"sv, kAccepts));
  EXPECT_FALSE(glib.agrees("ab\0c"sv, rejects_at(3)));
  EXPECT_FALSE(glib.agrees("abc"sv, kRejects));
  EXPECT_FALSE(oracle("g").agrees("ab\0c"sv, rejects_at(2)));
  // Before a real error, the refused character is an allowed first stop.
  EXPECT_TRUE(glib.agrees("\0\xC0\xAF"sv, rejects_at(0)));
  EXPECT_TRUE(glib.agrees("\0\xC0\xAF"sv, rejects_at(1)));
  EXPECT_FALSE(glib.agrees("\0\xC0\xAF"sv, kAccepts));

  const oracle nonchar("n", tol::rejects_noncharacters);
  for (const std::string_view nc :
       {"\xEF\xB7\x90"sv, "\xEF\xB7\xAF"sv, "\xEF\xBF\xBE"sv, "\xF4\x8F\xBF\xBF"sv}) {
    EXPECT_TRUE(nonchar.agrees(nc, rejects_at(0)));
    EXPECT_FALSE(oracle("n").agrees(nc, rejects_at(0)));
  }
  EXPECT_FALSE(nonchar.agrees("\xEF\xB7\x8F"sv, rejects_at(0)));  // U+FDCF is a character
}

// The C API gives the same answers, and its report follows snprintf.
TEST(FuzzOracle, CApi) {
  constexpr std::string_view in = "..\xC0\xAF.."sv;
  EXPECT_FALSE(utf8guard_fuzz_agrees(in.data(), in.size(), true, UTF8GUARD_FUZZ_NO_OFFSET, 0));
  EXPECT_TRUE(utf8guard_fuzz_agrees(in.data(), in.size(), false, 2, 0));
  EXPECT_TRUE(utf8guard_fuzz_agrees(in.data(), in.size(), false, UTF8GUARD_FUZZ_NO_OFFSET, 0));
  EXPECT_TRUE(
      utf8guard_fuzz_agrees(in.data(), in.size(), true, 0, UTF8GUARD_FUZZ_ACCEPTS_OVERLONG));
  EXPECT_TRUE(utf8guard_fuzz_agrees(nullptr, 0, true, 0, 0));

  const std::string full = oracle("lib").report(in, kAccepts);
  char small[16];
  EXPECT_EQ(utf8guard_fuzz_report(small, sizeof small, "lib", in.data(), in.size(), true,
                                  UTF8GUARD_FUZZ_NO_OFFSET, 0),
            full.size());
  EXPECT_EQ(std::string(small), full.substr(0, sizeof small - 1));
  std::string big(full.size() + 1, 'x');
  EXPECT_EQ(utf8guard_fuzz_report(big.data(), big.size(), "lib", in.data(), in.size(), true,
                                  UTF8GUARD_FUZZ_NO_OFFSET, 0),
            full.size());
  EXPECT_EQ(big.c_str(), full);
  EXPECT_EQ(utf8guard_fuzz_report(nullptr, 0, "lib", in.data(), in.size(), false, 2, 0), 0u);
  EXPECT_EQ(utf8guard_fuzz_report(small, sizeof small, "lib", in.data(), in.size(), false, 2, 0),
            0u);
  EXPECT_STREQ(small, "");
}

TEST(FuzzOracleDeathTest, CheckAbortsWithTheReport) {
  constexpr std::string_view in = "..\xC0\xAF.."sv;
  utf8guard_fuzz_check("lib", in.data(), in.size(), false, 2, 0);  // agrees: returns
  oracle("lib").check(in, rejects_at(2));
  EXPECT_DEATH(utf8guard_fuzz_check("lib", in.data(), in.size(), true, 0, 0),
               "lib disagrees with utf8guard(.|\n)*overlong at byte 2");
  EXPECT_DEATH(oracle("lib++").check("\xED\xA0\x80"sv, kAccepts),
               "lib\\+\\+ disagrees(.|\n)*surrogate at byte 0");
}

}  // namespace
