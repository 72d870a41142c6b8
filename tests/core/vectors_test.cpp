// vectors_test.cpp - the hand-written vectors of vectors.hpp on every kernel:
// validate, is_valid, sanitize (three ways) and the C API agree with the
// expectations written from docs/design.md, and so does the oracle.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "hex.hpp"
#include "kernels.hpp"
#include "results.hpp"
#include "vectors.hpp"

namespace utf8guard::testing {
namespace {

class Vectors : public EveryKernel {};

std::string label(const test_vector& v) {
  return std::string(v.group) + ": " + (v.bytes.empty() ? "(empty)" : hex(v.bytes));
}

// sanitized_c runs the C API's one-shot sanitize with a buffer of the bound.
std::string sanitized_c(std::string_view in, std::size_t* replacements) {
  std::size_t bound = 0;
  EXPECT_EQ(utf8guard_sanitize_bound(in.size(), &bound), UTF8GUARD_STATUS_OK);
  std::string out(bound, '\0');
  std::size_t written = 0;
  EXPECT_EQ(
      utf8guard_sanitize(in.data(), in.size(), out.data(), out.size(), &written, replacements),
      UTF8GUARD_STATUS_OK);
  out.resize(written);
  return out;
}

// sanitized_to runs sanitize_to with a buffer of exactly the bound.
std::string sanitized_to(std::string_view in) {
  std::string out(sanitize_bound(in.size()), '\0');
  const std::size_t written = sanitize_to(in, out.data(), out.size());
  EXPECT_NE(written, SIZE_MAX);
  out.resize(written == SIZE_MAX ? 0 : written);
  return out;
}

TEST_P(Vectors, FirstErrorIsTheHandWrittenOne) {
  for (const test_vector& v : kVectors) {
    SCOPED_TRACE(label(v));
    const result want{v.kind, v.offset, v.length};
    EXPECT_EQ(validate(v.bytes), want);
    EXPECT_EQ(is_valid(v.bytes), v.kind == error::none);
    EXPECT_EQ(from_c(utf8guard_validate(v.bytes.data(), v.bytes.size())), want);
    EXPECT_EQ(utf8guard_is_valid(v.bytes.data(), v.bytes.size()), v.kind == error::none);
    // The oracle must agree too: a disagreement here is a bug in the oracle
    // or in this table, and every oracle-based test depends on it.
    EXPECT_EQ(oracle_first_error(v.bytes), want) << "the oracle disagrees";
  }
}

TEST_P(Vectors, SanitizeAgreesWithTheOracleEveryWay) {
  for (const test_vector& v : kVectors) {
    SCOPED_TRACE(label(v));
    const std::string want = reference::sanitize(v.bytes);
    EXPECT_EQ(hex(sanitize(v.bytes)), hex(want));
    EXPECT_EQ(hex(sanitized_to(v.bytes)), hex(want));
    std::size_t replacements = 0;
    EXPECT_EQ(hex(sanitized_c(v.bytes, &replacements)), hex(want));
    EXPECT_EQ(replacements, reference::all_errors(v.bytes).size());
    if (v.kind == error::none) {
      EXPECT_EQ(hex(sanitize(v.bytes)), hex(v.bytes));
    }
  }
}

TEST_P(Vectors, SanitizeGivesTheHandWrittenOutput) {
  for (const sanitize_vector& v : kSanitizeVectors) {
    SCOPED_TRACE(hex(v.in));
    EXPECT_EQ(hex(sanitize(v.in)), hex(v.out));
    EXPECT_EQ(hex(sanitized_to(v.in)), hex(v.out));
    // None of these inputs holds U+FFFD, so each one in the output is a
    // replacement: the count the C API reports.
    std::size_t fffd = 0;
    for (std::size_t at = v.out.find(kFFFD); at != std::string_view::npos;
         at = v.out.find(kFFFD, at + 1)) {
      ++fffd;
    }
    std::size_t replacements = 0;
    EXPECT_EQ(hex(sanitized_c(v.in, &replacements)), hex(v.out));
    EXPECT_EQ(replacements, fffd);
    EXPECT_EQ(hex(reference::sanitize(v.in)), hex(v.out)) << "the oracle disagrees";
  }
}

TEST_P(Vectors, DecodeOneReportsTheSameErrorAsValidate) {
  for (const test_vector& v : kVectors) {
    if (v.bytes.empty() || v.kind == error::none || v.offset != 0) continue;
    SCOPED_TRACE(label(v));
    const decoded d = decode_one(v.bytes);
    EXPECT_EQ(d.kind, v.kind);
    EXPECT_EQ(d.length, v.length);
    EXPECT_EQ(validate(v.bytes), (result{v.kind, 0, v.length}));  // and on this kernel
  }
}

// The table itself: every kind, every Table 3-7 row, and each kind at an
// offset other than 0, so a vector deleted by accident is noticed.
TEST(VectorTable, CoversEveryKindAndRow) {
  std::set<error> kinds, kinds_past_zero;
  std::set<std::string_view> groups;
  for (const test_vector& v : kVectors) {
    kinds.insert(v.kind);
    if (v.offset != 0) kinds_past_zero.insert(v.kind);
    groups.insert(v.group);
  }
  for (const auto& [name, kind] : kKindNames) {
    EXPECT_EQ(kinds.count(kind), 1u) << name;
    if (kind != error::none) {
      EXPECT_EQ(kinds_past_zero.count(kind), 1u) << name << " past 0";
    }
  }
  for (std::string_view row : {"row 00..7F", "row C2..DF", "row E0", "row E1..EC", "row ED",
                               "row EE..EF", "row F0", "row F1..F3", "row F4"}) {
    EXPECT_EQ(groups.count(row), 1u) << row;
  }
}

UTF8GUARD_INSTANTIATE_FOR_EVERY_KERNEL(Vectors);

}  // namespace
}  // namespace utf8guard::testing
