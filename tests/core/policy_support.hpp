// policy_support.hpp - helpers shared by the policy tests: the oracle's
// answers under a policy as library results, the policies worth testing, and
// inputs rich in the characters the categories hold.
#ifndef UTF8GUARD_TESTS_CORE_POLICY_SUPPORT_HPP
#define UTF8GUARD_TESTS_CORE_POLICY_SUPPORT_HPP

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hex.hpp"
#include "policy_reference.hpp"
#include "random_inputs.hpp"
#include "results.hpp"

namespace utf8guard::testing {

inline std::vector<result> oracle_all_errors(std::string_view bytes, policy p) {
  std::vector<result> out;
  for (const reference::error& e : reference::all_errors(bytes, denied_names(p))) {
    out.push_back(from_reference(e));
  }
  return out;
}

inline result oracle_first_error(std::string_view bytes, policy p) {
  return from_reference(reference::first_error(bytes, denied_names(p)));
}

// every_category is the policy that denies all the categories.
inline policy every_category() {
  policy p;
  for (const auto& [name, c] : kCategoryNames) p |= c;
  return p;
}

// test_policies: each category alone, each profile, all of them.
inline std::vector<policy> test_policies() {
  std::vector<policy> out;
  for (const auto& [name, c] : kCategoryNames) out.emplace_back(c);
  out.push_back(policy::source());
  out.push_back(policy::field());
  out.push_back(policy::json());
  out.push_back(policy::url());
  out.push_back(every_category());
  return out;
}

// Scalar values at the edges of the categories, and their neighbours.
inline constexpr char32_t kCategoryScalars[] = {
    0x0,     0x1,      0x8,      0x9,      0xA,      0xD,     0xE,     0x1B,    0x1F,    0x20,
    0x7E,    0x7F,     0x80,     0x84,     0x85,     0x86,    0x9B,    0x9F,    0xA0,    0x61B,
    0x61C,   0x61D,    0x200D,   0x200E,   0x200F,   0x2010,  0x2027,  0x2028,  0x2029,  0x202A,
    0x202E,  0x202F,   0x2065,   0x2066,   0x2069,   0x206A,  0xD7FF,  0xE000,  0xF8FF,  0xF900,
    0xFDCF,  0xFDD0,   0xFDEF,   0xFDF0,   0xFEFE,   0xFEFF,  0xFF00,  0xFFFC,  0xFFFD,  0xFFFE,
    0xFFFF,  0x10000,  0x1FFFD,  0x1FFFE,  0x1FFFF,  0x20000, 0xEFFFF, 0xF0000, 0xFFFFD, 0xFFFFE,
    0xFFFFF, 0x100000, 0x10FFFD, 0x10FFFE, 0x10FFFF,
};

// policy_input is an input of the random maker's pieces with characters of
// the categories mixed in, sometimes a BOM first.
inline std::string policy_input(input_maker& m, std::size_t pieces) {
  std::string out = m.below(8) == 0 ? std::string("\xEF\xBB\xBF") : std::string();
  const std::size_t n = m.below(pieces + 1);
  for (std::size_t i = 0; i < n; ++i) {
    if (m.below(3) == 0) {
      out += reference::encode(kCategoryScalars[m.below(std::size(kCategoryScalars))]);
    } else {
      out += m.error_dense(2);
    }
  }
  return out;
}

// RequireUcd skips a test when the Unicode data files are missing.
#define UTF8GUARD_REQUIRE_UCD()                               \
  do {                                                        \
    std::string why;                                          \
    if (!reference::ucd_available(&why)) GTEST_SKIP() << why; \
  } while (0)

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_CORE_POLICY_SUPPORT_HPP
