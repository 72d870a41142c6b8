// results.hpp - the oracle's answers (tests/reference) next to the library's:
// the error kinds by name, conversions, comparisons and one spelling for
// failure messages, "overlong@2+1".
//
// The kind names are written here by hand rather than taken from
// to_string(), so the tests can check to_string() against the contract and
// translate the oracle's string kinds without trusting the library.
#ifndef UTF8GUARD_TESTS_SUPPORT_RESULTS_HPP
#define UTF8GUARD_TESTS_SUPPORT_RESULTS_HPP

#include <array>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/categories.hpp"
#include "policy_reference.hpp"
#include "reference.hpp"
#include "utf8guard/utf8guard.h"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard::testing {

// code_point_name spells a scalar value as Unicode does: "U+00E9", "U+1F600".
inline std::string code_point_name(char32_t cp) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string digits;
  for (unsigned v = static_cast<unsigned>(cp); v != 0 || digits.size() < 4; v >>= 4) {
    digits.insert(digits.begin(), kDigits[v & 0xF]);
  }
  return "U+" + digits;
}

}  // namespace utf8guard::testing

namespace utf8guard {

// gtest prints results and kinds through these (found by ADL), so a failed
// comparison shows "overlong@2+1" instead of raw bytes.
inline void PrintTo(error kind, std::ostream* os) { *os << to_string(kind); }
inline void PrintTo(const result& r, std::ostream* os) {
  *os << to_string(r.kind) << '@' << r.offset << '+' << r.length;
  if (r.kind == error::disallowed) {
    *os << '(' << to_string(r.category) << ' ' << testing::code_point_name(r.code_point) << ')';
  }
}

}  // namespace utf8guard

namespace utf8guard::testing {

// The names of the contract's error table.
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

// Part 2's one more kind: a character a policy denies. Apart from the table
// above, which lists the ill-formed kinds (that tests expect to meet without
// a policy).
inline constexpr std::string_view kDisallowedName = "disallowed";

// kCategoryNames is every category with its name, in bit order, from the
// library's table (src/core/categories.hpp), so that the tests that iterate
// the categories follow it. The names are not trusted: PolicyNames checks
// them against the oracle's (reference::kCategoryNames).
template <std::size_t... K>
constexpr std::array<std::pair<std::string_view, category>, category_count> category_names(
    std::index_sequence<K...>) {
  return {{{detail::kCategories[K].name, detail::kCategories[K].id}...}};
}
inline constexpr std::array<std::pair<std::string_view, category>, category_count> kCategoryNames =
    category_names(std::make_index_sequence<category_count>{});

// category_named maps a category name to the enum (none for "").
inline category category_named(std::string_view name) {
  for (const auto& [n, c] : kCategoryNames) {
    if (n == name) return c;
  }
  return name.empty() ? category::none : static_cast<category>(0xFFFF);
}

// denied_names is the policy as the oracle takes it: category names.
inline reference::denied denied_names(policy p) {
  reference::denied out;
  for (const auto& [name, c] : kCategoryNames) {
    if (p.denies(c)) out.insert(name);
  }
  return out;
}

// kind_named maps the oracle's kind name to the enum. A name outside the
// table maps to an out-of-range value, which then fails every comparison
// loudly.
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
  return name == kDisallowedName ? error::disallowed : static_cast<error>(0xFF);
}

// from_reference is the oracle's answer in the library's type.
inline result from_reference(const reference::error& e) {
  return {kind_named(e.kind), e.offset, e.length, category_named(e.category), e.code_point};
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

// from_c reads a C API result as a C++ one, to compare the two APIs.
inline result from_c(const utf8guard_result& r) {
  return {static_cast<error>(r.kind), r.offset, r.length, static_cast<category>(r.category),
          r.code_point};
}

// category_name is the oracle's category as the library names it: "none"
// where the oracle leaves it empty (every kind but "disallowed").
inline std::string_view category_name(const reference::error& e) {
  return e.category.empty() ? std::string_view("none") : e.category;
}

// same says whether a library result is the oracle's: kind, offset, length,
// category and code point, comparing kinds and categories through their
// names, never through a shared enum.
inline bool same(const result& r, const reference::error& e) {
  return to_string(r.kind) == e.kind && r.offset == e.offset && r.length == e.length &&
         to_string(r.category) == category_name(e) && r.code_point == e.code_point;
}
inline bool same(const utf8guard_result& r, const reference::error& e) {
  return utf8guard_error_name(r.kind) == e.kind && r.offset == e.offset && r.length == e.length &&
         utf8guard_category_name(r.category) == category_name(e) && r.code_point == e.code_point;
}

// describe renders a verdict as "kind@offset+length", "none" when there is
// no error, and "disallowed@6+3 bidi U+202E" for a denied character, for
// failure messages.
inline std::string describe(std::string_view kind, std::size_t offset, std::size_t length,
                            std::string_view category = "none", char32_t code_point = 0) {
  if (kind == "none") return "none";
  std::string out(kind);
  out += '@';
  out += std::to_string(offset);
  out += '+';
  out += std::to_string(length);
  if (kind == kDisallowedName) {
    out.append(" ").append(category).append(" ").append(code_point_name(code_point));
  }
  return out;
}
inline std::string describe(const result& r) {
  return describe(to_string(r.kind), r.offset, r.length, to_string(r.category), r.code_point);
}
inline std::string describe(const utf8guard_result& r) {
  return describe(utf8guard_error_name(r.kind), r.offset, r.length,
                  utf8guard_category_name(r.category), r.code_point);
}
inline std::string describe(const reference::error& e) {
  return describe(e.kind, e.offset, e.length, category_name(e), e.code_point);
}

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_SUPPORT_RESULTS_HPP
