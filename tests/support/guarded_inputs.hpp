// guarded_inputs.hpp - the inputs of the encoded forms' guard-page tests
// (tests/security/*_guard_page_test.cpp), built of units, and the loop that
// places each against a guard page (guard_page.hpp).
#ifndef UTF8GUARD_TESTS_SUPPORT_GUARDED_INPUTS_HPP
#define UTF8GUARD_TESTS_SUPPORT_GUARDED_INPUTS_HPP

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "guard_page.hpp"
#include "hex.hpp"

namespace utf8guard::testing {

// cycle is n bytes made of the units, in turn, with 'a' where the next unit
// would not fit; with_tail is cycle(units) of n bytes whose last bytes are
// tail (as much of it as fits).
inline std::string cycle(const std::vector<std::string>& units, std::size_t n) {
  std::string s;
  for (std::size_t k = 0; s.size() < n; ++k) {
    const std::string& u = units[k % units.size()];
    s += s.size() + u.size() <= n ? u : std::string(1, 'a');
  }
  return s;
}

inline std::string with_tail(const std::vector<std::string>& units, std::size_t n,
                             std::string tail) {
  if (tail.size() > n) tail.erase(0, tail.size() - n);
  return cycle(units, n - tail.size()) + tail;
}

// every_guarded_input runs check(g) on every named input contents(n) gives,
// for every length n of 0..max, placed on side of a guard page; it stops at
// the first fatal failure.
template <class Contents, class Check>
void every_guarded_input(guarded_buffer::side side, std::size_t max, const Contents& contents,
                         const Check& check) {
  for (std::size_t n = 0; n <= max; ++n) {
    for (const auto& [name, bytes] : contents(n)) {
      ASSERT_EQ(bytes.size(), n) << name;
      SCOPED_TRACE(name + ", length " + std::to_string(n) + ": [" + hex(bytes) + "]");
      const guarded_buffer g(bytes, side);
      check(g);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_SUPPORT_GUARDED_INPUTS_HPP
