// percent_vectors_test.cpp - replays security/vectors/percent.tsv, the URL
// attacks percent-encoded as they arrived, through every percent entry point
// (C++ and C) on every kernel: whole, after ASCII prefixes of 0..63 bytes
// (every offset shifts by the prefix), streamed cut at every position and
// byte by byte, and against both sides of a guard page; each row's
// hand-worked report is also the oracle's (tests/reference).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "attack_vectors.hpp"
#include "encoded_manifest.hpp"
#include "guard_page.hpp"
#include "kernels.hpp"
#include "percent_support.hpp"

namespace utf8guard::security {
namespace {

const std::vector<encoded_vector>& manifest() {
  static const std::vector<encoded_vector> rows =
      load_encoded_manifest(UTF8GUARD_PERCENT_VECTORS_TSV);
  return rows;
}

// The URL attacks security/vectors/README.md lists as required keep their rows.
TEST(PercentVectorManifest, HoldsTheRequiredAttackRows) {
  std::vector<std::string> ids;
  for (const encoded_vector& v : manifest()) ids.push_back(v.id);
  for (const char* required :
       {"iis-cve-2000-0884-percent", "tomcat-cve-2008-2938-percent",
        "iis-cve-2001-0333-double-decode", "nul-path-truncation", "encoded-bidi-override"}) {
    EXPECT_NE(std::find(ids.begin(), ids.end(), required), ids.end()) << required;
  }
}

// The hand-worked report is the oracle's too (its categories come from the
// Unicode data files).
TEST(PercentVectorManifest, AgreesWithTheOracle) {
  if (!reference::ucd_available()) GTEST_SKIP() << "no Unicode data files";
  for (const encoded_vector& v : manifest()) {
    const std::vector<utf8guard::encoded_result> all =
        testing::oracle_percent_errors(v.encoded, profile_of(v));
    EXPECT_EQ(testing::first_of(all), v.want) << v.id;
    EXPECT_EQ(all.size(), v.errors) << v.id;
  }
}

class PercentAttackVectors : public testing::EveryKernel {};

TEST_P(PercentAttackVectors, EveryEntryPointPrefixAndCut) {
  for (const encoded_vector& v : manifest()) {
    SCOPED_TRACE(v.id + " (line " + std::to_string(v.line) + "): " + v.encoded);
    const policy p = profile_of(v);
    for (std::size_t n = 0; n < 64; ++n) {
      const std::string in = ascii_run(n) + v.encoded;
      const utf8guard::encoded_result want = shifted(v.want, n);
      ASSERT_EQ(percent::validate(in, p), want) << "prefix " << n;
      ASSERT_EQ(percent::is_valid(in, p), want.ok());
      ASSERT_EQ(testing::from_c(utf8guard_percent_validate(in.data(), in.size(), p.bits())), want);
      ASSERT_EQ(utf8guard_percent_is_valid(in.data(), in.size(), p.bits()), want.ok());
      const testing::streamed whole = testing::stream_pieces(in, {}, p);
      ASSERT_EQ(whole.validator, want);
      ASSERT_EQ(whole.errors.size(), v.errors);
      ASSERT_EQ(testing::first_of(whole.errors), want);
    }
    const std::vector<utf8guard::encoded_result> all =
        testing::stream_pieces(v.encoded, {}, p).errors;
    std::vector<std::size_t> every;
    for (std::size_t cut = 0; cut <= v.encoded.size(); ++cut) {
      const testing::streamed two = testing::stream_pieces(v.encoded, {cut}, p);
      ASSERT_EQ(two.validator, v.want) << "cut " << cut;
      ASSERT_EQ(two.errors, all) << "cut " << cut;
      if (cut > 0 && cut < v.encoded.size()) every.push_back(cut);
    }
    const testing::streamed bytes = testing::stream_pieces(v.encoded, every, p);
    ASSERT_EQ(bytes.validator, v.want);
    ASSERT_EQ(bytes.errors, all);
    for (const auto side : {testing::guarded_buffer::at_end, testing::guarded_buffer::at_start}) {
      const testing::guarded_buffer g(v.encoded, side);
      ASSERT_EQ(percent::validate(g.view(), p), v.want);
      ASSERT_EQ(testing::stream_pieces(g.view(), {}, p).errors, all);
    }
  }
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(PercentAttackVectors);

}  // namespace
}  // namespace utf8guard::security
