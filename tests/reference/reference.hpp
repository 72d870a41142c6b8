// reference.hpp - the test oracle: an independent UTF-8 decoder written from
// Unicode Table 3-7 by a different method than the library.
//
// The library classifies bytes against per-lead byte ranges. The oracle never
// looks at byte ranges: it reads the sequence length from the lead byte's bit
// pattern, decodes the payload bits, and range-checks the resulting code point
// (or, for a prefix, the interval of code points its completions can reach)
// against the scalar values each length may encode:
//
//   length 1: U+0000..U+007F     length 3: U+0800..U+FFFF minus U+D800..U+DFFF
//   length 2: U+0080..U+07FF     length 4: U+10000..U+10FFFF
//
// Maximal subparts follow the definition in Unicode 3.9 (D93b): the longest
// prefix at an unconvertible offset that is the initial subsequence of some
// well-formed sequence, or else one byte.
//
// It shares no code with the library and is never linked into it. It
// deliberately names error kinds as strings, so a test compares the library's
// to_string() against them rather than trusting a shared enum.
#ifndef UTF8GUARD_TESTS_REFERENCE_HPP
#define UTF8GUARD_TESTS_REFERENCE_HPP

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace reference {

struct error {
  std::string_view kind;  // "none", "overlong", ... as in docs/design.md
  std::size_t offset = 0;
  std::size_t length = 0;
  std::string_view category = {};  // kind "disallowed" only (policy_reference.hpp)
  char32_t code_point = 0;         // likewise
  bool ok() const { return kind == "none"; }
  friend bool operator==(const error&, const error&) = default;
};

// first_error returns the first maximal subpart of the input, or kind "none".
error first_error(std::string_view bytes);

// all_errors returns every maximal subpart, in order.
std::vector<error> all_errors(std::string_view bytes);

// sanitize replaces every maximal subpart with U+FFFD (EF BF BD).
std::string sanitize(std::string_view bytes);

// decode returns the code points of well-formed input; for ill-formed input
// it returns the code points before the first error.
std::u32string decode(std::string_view bytes);

// sequence_at is the well-formed sequence (kind "none" and its length) or the
// maximal subpart at offset i, where a sequence must start.
error sequence_at(std::string_view bytes, std::size_t i);

// encode returns the shortest form of a scalar value, or "" for a surrogate or
// a value above U+10FFFF.
std::string encode(char32_t code_point);

}  // namespace reference

#endif  // UTF8GUARD_TESTS_REFERENCE_HPP
