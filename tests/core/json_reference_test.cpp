// json_reference_test.cpp - the JSON oracle (tests/reference/json_reference.hpp)
// against the answers worked out by hand (json_vectors.hpp), and its own
// decoding: units, widths, pairs and the decoded bytes.
#include <gtest/gtest.h>

#include "hex.hpp"
#include "json_vectors.hpp"
#include "policy_support.hpp"

namespace utf8guard::testing {
namespace {

using json_vectors::finding;

std::string show(const std::vector<finding>& all) {
  std::string out;
  for (const finding& f : all) {
    out += describe(f) + " (decoded " + std::to_string(f.decoded_offset) + "+" +
           std::to_string(f.decoded_length) + ") ";
  }
  return out;
}

bool needs_ucd(policy p) { return p != policy() && p != policy(category::bad_escape); }

TEST(JsonReference, HandWorkedVectors) {
  const bool ucd = reference::ucd_available();
  for (const json_vectors::vec& v : json_vectors::hand_vectors()) {
    if (!ucd && needs_ucd(v.p)) continue;
    const auto got = reference::json::all_errors(v.in, denied_names(v.p));
    EXPECT_EQ(got, v.want) << v.in << ", got " << show(got) << ", want " << show(v.want);
    EXPECT_EQ(hex(reference::json::sanitize(v.in, denied_names(v.p))), hex(v.sanitized)) << v.in;
  }
}

TEST(JsonReference, DecodesUnits) {
  const reference::json::decoded d = reference::json::decode(R"(a\n\u00e9\ud83d\ude00\ud800\q)");
  ASSERT_EQ(d.units.size(), 7u);
  using reference::json::unit_kind;
  const unit_kind kinds[] = {unit_kind::raw,  unit_kind::escape,         unit_kind::escape,
                             unit_kind::pair, unit_kind::lone_surrogate, unit_kind::bad_escape,
                             unit_kind::raw};
  const std::size_t widths[] = {1, 2, 6, 12, 6, 1, 1};
  for (std::size_t k = 0; k < 7; ++k) {
    EXPECT_EQ(d.units[k].kind, kinds[k]) << k;
    EXPECT_EQ(d.units[k].width, widths[k]) << k;
  }
  EXPECT_EQ(hex(d.bytes), hex("a\n\xC3\xA9\xF0\x9F\x98\x80\xED\xA0\x80\\q"));
  EXPECT_EQ(reference::json::scalars(R"(\u00e9\uD83D\uDE00\/)"), U"\u00e9\U0001F600/");
}

}  // namespace
}  // namespace utf8guard::testing
