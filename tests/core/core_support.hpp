// core_support.hpp - small helpers shared by the core tests: the error kind
// names as DESIGN.md spells them, conversion of the oracle's answers to the
// library's types, and readable failure messages.
#ifndef UTF8GUARD_TESTS_CORE_SUPPORT_HPP
#define UTF8GUARD_TESTS_CORE_SUPPORT_HPP

#include <array>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference.hpp"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard {

// gtest prints results and kinds through these (found by ADL), so a failed
// comparison shows "overlong@2+1" instead of raw bytes.
inline void PrintTo(error kind, std::ostream* os) { *os << to_string(kind); }
inline void PrintTo(const result& r, std::ostream* os) {
  *os << to_string(r.kind) << '@' << r.offset << '+' << r.length;
}

}  // namespace utf8guard

namespace utf8guard::testing {

// The names of DESIGN.md's error table, written here by hand rather than taken
// from to_string(), so the tests can check to_string() against the contract
// and translate the oracle's string kinds without trusting the library.
inline constexpr std::array<std::pair<std::string_view, error>, 8> kKindNames{{
    {"none", error::none},
    {"unexpected_continuation", error::unexpected_continuation},
    {"overlong", error::overlong},
    {"surrogate", error::surrogate},
    {"too_large", error::too_large},
    {"invalid_byte", error::invalid_byte},
    {"truncated", error::truncated},
    {"incomplete", error::incomplete},
}};

// kind_named maps the oracle's kind name to the enum. A name outside
// DESIGN.md's table maps to an out-of-range value, which then fails every
// comparison loudly.
inline error kind_named(std::string_view name) {
  // The exhaustive tests call this 2^32 times. The oracle's names are string
  // literals, so a view with the same address and size as one already matched
  // has the same characters: remember matches by address, compare the rest.
  struct seen {
    const char* data;
    std::size_t size;
    error kind;
  };
  thread_local seen cache[kKindNames.size()] = {};
  for (const seen& c : cache) {
    if (c.data == name.data() && c.size == name.size() && c.data != nullptr) return c.kind;
  }
  for (std::size_t i = 0; i < kKindNames.size(); ++i) {
    if (kKindNames[i].first == name) {
      cache[i] = {name.data(), name.size(), kKindNames[i].second};
      return kKindNames[i].second;
    }
  }
  return static_cast<error>(0xFF);
}

// from_reference is the oracle's answer in the library's type.
inline result from_reference(const reference::error& e) {
  return {kind_named(e.kind), e.offset, e.length};
}

// oracle_first_error is the oracle's first error as a library result.
inline result oracle_first_error(std::string_view bytes) {
  return from_reference(reference::first_error(bytes));
}

// oracle_all_errors is every maximal subpart the oracle finds.
inline std::vector<result> oracle_all_errors(std::string_view bytes) {
  std::vector<result> out;
  for (const reference::error& e : reference::all_errors(bytes)) out.push_back(from_reference(e));
  return out;
}

// hex renders bytes as "C0 AF" for failure messages.
inline std::string hex(std::string_view bytes) {
  std::string out;
  char buf[4];
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%02X", static_cast<unsigned char>(bytes[i]));
    if (i != 0) out += ' ';
    out += buf;
  }
  return out;
}

// from_c reads a C API result as a C++ one, to compare the two APIs.
inline result from_c(const utf8guard_result& r) {
  return {static_cast<error>(r.kind), r.offset, r.length};
}

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_CORE_SUPPORT_HPP
