// json_vectors_test.cpp - replays security/vectors/json.tsv, the escape
// attacks as JSON text, through every JSON entry point (C++ and C) on every
// kernel: whole, after ASCII prefixes of 0..63 bytes (every offset shifts by
// the prefix), streamed cut at every position and byte by byte, sanitized
// (the output validates and holds no finding), and against both sides of a
// guard page; each row's hand-worked report is also the oracle's
// (tests/reference/json_reference.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "attack_vectors.hpp"
#include "encoded_manifest.hpp"
#include "guard_page.hpp"
#include "json_reference.hpp"
#include "kernels.hpp"
#include "percent_support.hpp"

namespace utf8guard::security {
namespace {

const std::vector<encoded_vector>& manifest() {
  static const std::vector<encoded_vector> rows = load_encoded_manifest(UTF8GUARD_JSON_VECTORS_TSV);
  return rows;
}

// streamed_errors feeds in, cut at cuts, to a json::validator and a
// json::scanner; the validator's answer and the scanner's findings.
std::pair<encoded_result, std::vector<encoded_result>> streamed_errors(
    std::string_view in, const std::vector<std::size_t>& cuts, policy p) {
  json::validator v(p);
  json::scanner s(p);
  std::vector<encoded_result> got;
  const auto add = [&got](const encoded_result& r) { got.push_back(r); };
  std::size_t from = 0;
  for (std::size_t k = 0; k <= cuts.size(); ++k) {
    const std::size_t to = k < cuts.size() ? cuts[k] : in.size();
    v.feed(in.substr(from, to - from));
    EXPECT_TRUE(s.feed(in.substr(from, to - from), add));
    from = to;
  }
  EXPECT_TRUE(s.finish(add));
  EXPECT_EQ(s.errors(), got.size());
  return {v.finish(), got};
}

TEST(JsonVectorManifest, HoldsTheRequiredAttackRows) {
  std::vector<std::string> ids;
  for (const encoded_vector& v : manifest()) ids.push_back(v.id);
  for (const char* required : {"python-json-lone-high-surrogate",
                               "simdjson-1870-lone-low-surrogate", "simd-json-481-lone-high-to-nul",
                               "escaped-bidi-override", "escaped-nul-postgresql-jsonb"}) {
    EXPECT_NE(std::find(ids.begin(), ids.end(), required), ids.end()) << required;
  }
}

TEST(JsonVectorManifest, AgreesWithTheOracle) {
  if (!reference::ucd_available()) GTEST_SKIP() << "no Unicode data files";
  for (const encoded_vector& v : manifest()) {
    const auto all = reference::json::all_errors(v.encoded, testing::denied_names(profile_of(v)));
    ASSERT_EQ(all.size(), v.errors) << v.id;
    if (all.empty()) {
      EXPECT_TRUE(v.want.ok()) << v.id;
    } else {
      EXPECT_EQ(testing::from_reference(all.front()), v.want) << v.id;
    }
  }
}

class JsonAttackVectors : public testing::EveryKernel {};

TEST_P(JsonAttackVectors, EveryEntryPointPrefixAndCut) {
  for (const encoded_vector& v : manifest()) {
    SCOPED_TRACE(v.id + " (line " + std::to_string(v.line) + "): " + v.encoded);
    const policy p = profile_of(v);
    for (std::size_t n = 0; n < 64; ++n) {
      const std::string in = ascii_run(n) + v.encoded;
      const encoded_result want = shifted(v.want, n);
      ASSERT_EQ(json::validate(in, p), want) << "prefix " << n;
      ASSERT_EQ(json::is_valid(in, p), want.ok());
      ASSERT_EQ(testing::from_c(utf8guard_json_validate(in.data(), in.size(), p.bits())), want);
      ASSERT_EQ(utf8guard_json_is_valid(in.data(), in.size(), p.bits()), want.ok());
      const auto whole = streamed_errors(in, {}, p);
      ASSERT_EQ(whole.first, want);
      ASSERT_EQ(whole.second.size(), v.errors);
    }
    const std::vector<encoded_result> all = streamed_errors(v.encoded, {}, p).second;
    std::vector<std::size_t> every;
    for (std::size_t cut = 0; cut <= v.encoded.size(); ++cut) {
      const auto two = streamed_errors(v.encoded, {cut}, p);
      ASSERT_EQ(two.first, v.want) << "cut " << cut;
      ASSERT_EQ(two.second, all) << "cut " << cut;
      if (cut > 0 && cut < v.encoded.size()) every.push_back(cut);
    }
    const auto bytes = streamed_errors(v.encoded, every, p);
    ASSERT_EQ(bytes.first, v.want);
    ASSERT_EQ(bytes.second, all);
    // Sanitized, the row holds nothing the profile refuses, and is still
    // ASCII JSON text: every finding became \ufffd.
    const std::string clean = json::sanitize(v.encoded, p);
    ASSERT_TRUE(json::is_valid(clean, p)) << clean;
    if (reference::ucd_available()) {
      ASSERT_EQ(clean, reference::json::sanitize(v.encoded, testing::denied_names(p)));
    }
    for (const char c : clean) ASSERT_LT(static_cast<unsigned char>(c), 0x80) << clean;
    for (const auto side : {testing::guarded_buffer::at_end, testing::guarded_buffer::at_start}) {
      const testing::guarded_buffer g(v.encoded, side);
      ASSERT_EQ(json::validate(g.view(), p), v.want);
      ASSERT_EQ(streamed_errors(g.view(), {}, p).second, all);
    }
  }
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(JsonAttackVectors);

}  // namespace
}  // namespace utf8guard::security
