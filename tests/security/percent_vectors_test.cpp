// percent_vectors_test.cpp - replays security/vectors/percent.tsv, the URL
// attacks percent-encoded as they arrived, through every percent entry point
// (C++ and C) on every kernel: whole, after ASCII prefixes of 0..63 bytes
// (every offset shifts by the prefix), streamed cut at every position and
// byte by byte, and against both sides of a guard page; each row's
// hand-worked report is also the oracle's (tests/reference).
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "attack_vectors.hpp"
#include "guard_page.hpp"
#include "kernels.hpp"
#include "percent_support.hpp"

namespace utf8guard::security {
namespace {

// One row of percent.tsv: the input, its profile, and the expected first
// report and number of errors.
struct percent_vector {
  std::string id;
  std::string encoded;
  std::string profile;
  utf8guard::encoded_result want;
  std::size_t errors = 0;
  int line = 0;
};

// load_percent_manifest reads percent.tsv.
std::vector<percent_vector> load_percent_manifest(const std::string& path) {
  std::vector<percent_vector> rows;
  const char* header =
      "id\tencoded\tprofile\tkind\tcategory\toffset\tlength\tdecoded_offset\t"
      "decoded_length\tcode_point\terrors\twhat";
  for_each_row(path, header, 12,
               [&rows](const std::vector<std::string>& cols, const std::string& where, int number) {
                 percent_vector v;
                 v.id = cols[0];
                 v.encoded = cols[1];
                 v.profile = cols[2];
                 v.line = number;
                 v.want.kind = testing::kind_named(cols[3]);
                 v.want.category = testing::category_named(cols[4] == "none" ? "" : cols[4]);
                 try {
                   v.want.offset = std::stoul(cols[5]);
                   v.want.length = std::stoul(cols[6]);
                   v.want.decoded_offset = std::stoul(cols[7]);
                   v.want.decoded_length = std::stoul(cols[8]);
                   if (cols[9] != "-") {
                     if (cols[9].rfind("U+", 0) != 0) throw std::runtime_error("not U+XXXX");
                     v.want.code_point =
                         static_cast<char32_t>(std::stoul(cols[9].substr(2), nullptr, 16));
                   }
                   v.errors = std::stoul(cols[10]);
                 } catch (const std::exception& e) {
                   throw std::runtime_error(where + e.what());
                 }
                 rows.push_back(std::move(v));
               });
  return rows;
}

const std::vector<percent_vector>& manifest() {
  static const std::vector<percent_vector> rows =
      load_percent_manifest(UTF8GUARD_PERCENT_VECTORS_TSV);
  return rows;
}

policy profile_of(const percent_vector& v) {
  policy p;
  if (!profile_from_name(v.profile, p)) throw std::runtime_error("unknown profile " + v.profile);
  return p;
}

// shifted is want for the input after a prefix of n raw ASCII bytes.
utf8guard::encoded_result shifted(utf8guard::encoded_result want, std::size_t n) {
  if (want.ok()) return want;
  want.offset += n;
  want.decoded_offset += n;
  return want;
}

// The URL attacks security/vectors/README.md lists as required keep their rows.
TEST(PercentVectorManifest, HoldsTheRequiredAttackRows) {
  std::vector<std::string> ids;
  for (const percent_vector& v : manifest()) ids.push_back(v.id);
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
  for (const percent_vector& v : manifest()) {
    const std::vector<utf8guard::encoded_result> all =
        testing::oracle_percent_errors(v.encoded, profile_of(v));
    EXPECT_EQ(testing::first_of(all), v.want) << v.id;
    EXPECT_EQ(all.size(), v.errors) << v.id;
  }
}

class PercentAttackVectors : public testing::EveryKernel {};

TEST_P(PercentAttackVectors, EveryEntryPointPrefixAndCut) {
  for (const percent_vector& v : manifest()) {
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
