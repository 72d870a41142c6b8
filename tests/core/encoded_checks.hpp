// encoded_checks.hpp - what the tests of the two encoded forms share
// (percent_checks.hpp, json_checks.hpp): a stream cut in two checked against
// the oracle's findings, and running a list of cases on every kernel with the
// oracle asked once.
#ifndef UTF8GUARD_TESTS_CORE_ENCODED_CHECKS_HPP
#define UTF8GUARD_TESTS_CORE_ENCODED_CHECKS_HPP

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "kernels.hpp"
#include "percent_support.hpp"
#include "policy_support.hpp"

namespace utf8guard::testing {

// policy_bits names a policy in failure messages by its categories.
inline std::string policy_bits(policy p) {
  std::string out = "policy {";
  for (const auto& [name, c] : kCategoryNames) {
    if (p.denies(c)) out.append(out.back() == '{' ? "" : " ").append(name);
  }
  return out + "}";
}

// check_cut_in_two streams the input through a Validator and a Scanner (one
// form's streaming classes) as in[0, cut) and in[cut, n): the final answers
// equal the oracle's, and what the first feed reported is right (a prefix of
// the findings, the first finding or nothing) and complete (every finding e
// with decided_by(e) <= cut, the form's bound on the bytes that settle it).
template <class Validator, class Scanner, class DecidedBy>
void check_cut_in_two(std::string_view in, std::size_t cut, policy p,
                      const std::vector<encoded_result>& want, const DecidedBy& decided_by) {
  const encoded_result first = first_of(want);
  const std::string_view a = in.substr(0, cut);
  const std::string_view b = in.substr(cut);
  Validator v(p);
  Scanner s(p);
  std::vector<encoded_result> got;
  const auto add = [&got](const encoded_result& r) { got.push_back(r); };
  const encoded_result early = v.feed(a);
  ASSERT_TRUE(s.feed(a, add));
  const std::size_t early_count = got.size();
  ASSERT_TRUE(early.ok() || early == first)
      << "cut " << cut << ": the first feed said " << ::testing::PrintToString(early);
  if (!first.ok() && decided_by(first) <= cut) {
    ASSERT_EQ(early, first) << "cut " << cut << ": decided by the first feed";
  }
  v.feed(b);
  ASSERT_TRUE(s.feed(b, add));
  ASSERT_EQ(v.finish(), first) << "cut " << cut;
  ASSERT_EQ(v.bytes_fed(), in.size());
  ASSERT_TRUE(s.finish(add));
  ASSERT_EQ(got, want) << "cut " << cut;
  ASSERT_EQ(s.errors(), want.size());
  for (std::size_t k = 0; k < want.size(); ++k) {
    if (decided_by(want[k]) <= cut) {
      ASSERT_LT(k, early_count) << "cut " << cut << ": finding " << k
                                << " decided by the first feed";
    }
  }
}

// on_every_kernel runs check(kernel) once per usable kernel, forced through
// the public set_kernel() and checked to be the one every entry point calls.
// The large spaces ask the oracle once and check every kernel against that
// answer in one test, which keeps them cheap under the sanitizers.
template <class Check>
void on_every_kernel(const Check& check) {
  for (const std::string& kernel : usable_kernels()) {
    const forced_kernel forced(kernel);
    ASSERT_TRUE(forced.ok()) << kernel;
    ASSERT_TRUE(is_active(kernel)) << kernel;
    check(kernel);
    ASSERT_TRUE(is_active(kernel)) << "the checks ended on another kernel than " << kernel;
    if (::testing::Test::HasFailure()) return;
  }
}

// check_every_case runs check(c) for every case c (each with an input in and
// a policy p) on every kernel, and names the kernel, input and policy of the
// first that fails.
template <class Case, class Check>
void check_every_case(const std::vector<Case>& cases, const Check& check) {
  on_every_kernel([&cases, &check](const std::string& kernel) {
    for (const Case& c : cases) {
      check(c);
      if (::testing::Test::HasFailure()) {
        FAIL() << "kernel " << kernel << ", input [" << c.in << "] = " << hex(c.in) << ", "
               << policy_bits(c.p);
      }
    }
  });
}

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_CORE_ENCODED_CHECKS_HPP
