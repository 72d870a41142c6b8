// percent_checks.hpp - what the percent-encoded input tests share
// (percent_test.cpp, percent_spaces_test.cpp): the oracle's answer for an
// input, the one-shot and streaming checks against it, and running a list of
// cases on every kernel with the oracle asked once.
#ifndef UTF8GUARD_TESTS_CORE_PERCENT_CHECKS_HPP
#define UTF8GUARD_TESTS_CORE_PERCENT_CHECKS_HPP

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "encoded_checks.hpp"
#include "percent_support.hpp"
#include "policy_support.hpp"

namespace utf8guard::testing {

// escape is %XX for byte b, in upper or lower case hex digits.
inline std::string escape(unsigned char b, bool lower) {
  const char* digits = lower ? "0123456789abcdef" : "0123456789ABCDEF";
  return {'%', digits[b >> 4], digits[b & 15]};
}

// decided_by is how many encoded bytes must have arrived, at most, before a
// stream has to report e: a bad escape is settled by the two bytes after its
// '%'; a double encoding by its %25 and two more units of up to 3 bytes; a
// denied character by its last unit; an ill-formed subpart by the unit after
// it. One byte more in each case, since a raw byte after a '%' is known to
// be raw only when the byte after it shows that the '%' starts no escape.
// An incomplete sequence waits for finish().
inline std::size_t decided_by(const encoded_result& e) {
  if (e.kind == error::incomplete) return SIZE_MAX;
  if (e.category == category::bad_escape) return e.offset + 3;
  if (e.category == category::double_encoding) return e.offset + 10;
  return e.offset + e.length + 4;
}

// expected is the oracle's answer for one input under one policy.
struct expected {
  std::vector<encoded_result> errors;
  std::string decoded;
};

inline expected oracle(std::string_view in, policy p) {
  return {oracle_percent_errors(in, p), reference::percent::decode(in).bytes};
}

// check_one_shot compares the one-shot entry points, C++ and C, and the
// decoders with the oracle's answer.
inline void check_one_shot(std::string_view in, policy p, const expected& want) {
  const encoded_result first = first_of(want.errors);
  EXPECT_EQ(percent::validate(in, p), first);
  EXPECT_EQ(percent::is_valid(in, p), first.ok());
  EXPECT_EQ(from_c(utf8guard_percent_validate(in.data(), in.size(), p.bits())), first);
  EXPECT_EQ(utf8guard_percent_is_valid(in.data(), in.size(), p.bits()), first.ok());
  EXPECT_EQ(hex(percent::decode(in)), hex(want.decoded));
  std::string out(in.size(), '\x55');
  std::size_t written = 99;
  EXPECT_EQ(utf8guard_percent_decode(in.data(), in.size(), out.data(), in.size(), &written),
            UTF8GUARD_STATUS_OK);
  EXPECT_EQ(hex(out.substr(0, written)), hex(want.decoded));
}

// check_cut streams the input cut in two at cut (encoded_checks.hpp).
inline void check_cut(std::string_view in, std::size_t cut, policy p,
                      const std::vector<encoded_result>& want) {
  check_cut_in_two<percent::validator, percent::scanner>(
      in, cut, p, want, [](const encoded_result& e) { return decided_by(e); });
}

// check_cuts: one-shot, and the stream cut at each of cuts (those past the
// end are skipped), or at every position when cuts is empty.
inline void check_cuts(std::string_view in, policy p, const expected& want,
                       const std::vector<std::size_t>& cuts) {
  check_one_shot(in, p, want);
  if (cuts.empty()) {
    for (std::size_t cut = 0; cut <= in.size() && !::testing::Test::HasFatalFailure(); ++cut) {
      check_cut(in, cut, p, want.errors);
    }
  }
  for (const std::size_t cut : cuts) {
    if (cut <= in.size() && !::testing::Test::HasFatalFailure()) check_cut(in, cut, p, want.errors);
  }
}

// A case of the tests' lists: an input, a policy, the oracle's answer, and
// where to cut the stream (empty: everywhere).
struct space_case {
  std::string in;
  policy p;
  expected want;
  std::vector<std::size_t> cuts;
};

inline space_case make_case(std::string in, policy p, std::vector<std::size_t> cuts) {
  expected want = oracle(in, p);
  return {std::move(in), p, std::move(want), std::move(cuts)};
}

// check_cases checks every case on every kernel.
inline void check_cases(const std::vector<space_case>& cases) {
  check_every_case(cases, [](const space_case& c) { check_cuts(c.in, c.p, c.want, c.cuts); });
}

// Policies for the oracle comparisons: none, each percent category alone,
// the url profile and everything.
inline std::vector<policy> percent_policies() {
  return {policy(), policy(category::bad_escape), policy(category::double_encoding), policy::url(),
          every_category()};
}

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_CORE_PERCENT_CHECKS_HPP
