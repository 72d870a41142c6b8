// percent_support.hpp - percent-encoded input in the tests: the oracle's
// answers (tests/reference/percent_reference.hpp) as library results, the C
// results read as C++ ones, and one function that runs an input through
// percent::validator and percent::scanner fed in given pieces.
#ifndef UTF8GUARD_TESTS_SUPPORT_PERCENT_SUPPORT_HPP
#define UTF8GUARD_TESTS_SUPPORT_PERCENT_SUPPORT_HPP

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "percent_reference.hpp"
#include "results.hpp"
#include "utf8guard/utf8guard.h"
#include "utf8guard/utf8guard.hpp"

namespace utf8guard {

// gtest prints "overlong@3+3 (decoded 1+1)".
inline void PrintTo(const encoded_result& r, std::ostream* os) {
  PrintTo(static_cast<const result&>(r), os);
  *os << " (decoded " << r.decoded_offset << '+' << r.decoded_length << ')';
}

}  // namespace utf8guard

namespace utf8guard::testing {

// encoded_at is a report worked out by hand: kind, encoded offset and
// length, decoded offset and length, and for kind disallowed the category
// and code point.
inline encoded_result encoded_at(error kind, std::size_t offset, std::size_t length,
                                 std::size_t decoded_offset, std::size_t decoded_length,
                                 category c = category::none, char32_t cp = 0) {
  encoded_result r;
  r.kind = kind;
  r.offset = offset;
  r.length = length;
  r.category = c;
  r.code_point = cp;
  r.decoded_offset = decoded_offset;
  r.decoded_length = decoded_length;
  return r;
}

inline encoded_result from_reference(const reference::percent::error& e) {
  encoded_result r;
  static_cast<result&>(r) = from_reference(static_cast<const reference::error&>(e));
  r.decoded_offset = e.decoded_offset;
  r.decoded_length = e.decoded_length;
  return r;
}

inline encoded_result from_c(const utf8guard_encoded_result& c) {
  encoded_result r;
  static_cast<result&>(r) = from_c(c.error);
  r.decoded_offset = c.decoded_offset;
  r.decoded_length = c.decoded_length;
  return r;
}

inline std::vector<encoded_result> oracle_percent_errors(std::string_view encoded, policy p) {
  std::vector<encoded_result> out;
  for (const auto& e : reference::percent::all_errors(encoded, denied_names(p))) {
    out.push_back(from_reference(e));
  }
  return out;
}

// first_of is the first error of a list, or an ok() result.
inline encoded_result first_of(const std::vector<encoded_result>& all) {
  return all.empty() ? encoded_result{} : all.front();
}

// streamed is what the streaming classes said about one input.
struct streamed {
  encoded_result validator;            // finish()
  std::vector<encoded_result> errors;  // the scanner's, in order
  bool scanner_ok = false;             // every feed and finish returned true
  std::size_t scanner_count = 0;       // errors()
  std::size_t bytes_fed = 0;           // the validator's bytes_fed()
};

// stream_pieces feeds the input, cut at the given ascending positions, to a
// percent::validator and a percent::scanner under p.
inline streamed stream_pieces(std::string_view in, const std::vector<std::size_t>& cuts, policy p) {
  streamed out;
  percent::validator v(p);
  percent::scanner s(p);
  const auto add = [&out](const encoded_result& r) { out.errors.push_back(r); };
  bool ok = true;
  std::size_t from = 0;
  for (std::size_t k = 0; k <= cuts.size(); ++k) {
    const std::size_t to = k < cuts.size() ? cuts[k] : in.size();
    const std::string_view piece = in.substr(from, to - from);
    v.feed(piece);
    ok = s.feed(piece, add) && ok;
    from = to;
  }
  out.validator = v.finish();
  out.bytes_fed = v.bytes_fed();
  out.scanner_ok = s.finish(add) && ok;
  out.scanner_count = s.errors();
  return out;
}

}  // namespace utf8guard::testing

#endif  // UTF8GUARD_TESTS_SUPPORT_PERCENT_SUPPORT_HPP
